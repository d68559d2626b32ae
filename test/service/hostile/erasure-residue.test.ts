/**
 * Erasure leaves nothing behind (issue 14, point 7): after DELETE /v1/players/:id the erased
 * player's id is in none of the bytes of the SQLite file, its WAL and its shared-memory file,
 * nor in the service's log.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestService, tempDb, type TestService } from '../support.js';

const ERASED = 'zq-erase-me-7f3a9c';
const time = (minute: number) => new Date(Date.UTC(2026, 10, 21, 10, minute)).toISOString();

/** Every event type that can name a player, about ERASED and two others who stay. */
function events(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < 30; i++) {
    out.push({ type: 'action', id: `a${i}`, time: time(i), player: ERASED, delta: -9, note: `${ERASED} did it` });
    out.push({ type: 'action', id: `k${i}`, time: time(i), player: 'keeper', delta: 3 });
  }
  out.push({ type: 'chat', id: 'c1', time: time(31), from: 'keeper', to: [ERASED, 'other'] });
  out.push({ type: 'chat', id: 'c2', time: time(32), from: ERASED, to: ['keeper'] });
  out.push({ type: 'rating', id: 'r1', time: time(33), from: 'keeper', to: ERASED, value: -1 });
  out.push({ type: 'report', id: 'p1', time: time(34), from: 'other', to: ERASED });
  out.push({ type: 'match.start', id: 'm1', time: time(35), match: 'm1', players: [ERASED, 'keeper', 'other'] });
  out.push({ type: 'match.end', id: 'm2', time: time(36), match: 'm1' });
  return out;
}

describe('issue 14: erasure leaves nothing behind', () => {
  let t: TestService;
  const db = tempDb();
  beforeAll(async () => {
    t = await startTestService({ db, checkpointEvery: 5 });
  });
  afterAll(() => t.close());

  const bytes = () => ['', '-wal', '-shm'].map((suffix) => (existsSync(db + suffix) ? readFileSync(db + suffix) : Buffer.alloc(0)));

  it('no byte of the SQLite file, its WAL or -shm, and no log line keeps the erased id', async () => {
    const list = events();
    for (let i = 0; i < list.length; i += 10) expect((await t.call('/v1/events', { ...json(list.slice(i, i + 10)), key: t.keys.ingest })).status).toBe(200);
    await t.service.alerts.flush();
    expect((await t.call(`/v1/players/${ERASED}`, { key: t.keys.read })).status).toBe(200);
    expect((await t.call(`/v1/players/${ERASED}/explain?scorer=cqr`, { key: t.keys.read })).status).toBe(200);
    expect((await t.call(`/v1/alerts?player=${ERASED}`, { key: t.keys.read })).status).toBe(200);
    expect(bytes().some((b) => b.includes(ERASED))).toBe(true);

    const erased = await t.call(`/v1/players/${encodeURIComponent(ERASED)}`, { method: 'DELETE', key: t.keys.admin });
    expect(erased.status).toBe(200);
    expect((await t.call(`/v1/players/${ERASED}`, { key: t.keys.read })).status).toBe(404);
    const keeper = (await (await t.call('/v1/players/keeper', { key: t.keys.read })).json()) as { communities: unknown[] };
    expect(keeper.communities).toHaveLength(1);

    const [file, wal, shm] = bytes();
    expect(file!.length).toBeGreaterThan(0);
    expect(file!.includes(ERASED)).toBe(false);
    expect(wal!.includes(ERASED)).toBe(false);
    expect(shm!.includes(ERASED)).toBe(false);
    expect(file!.includes('keeper')).toBe(true); // the others' events are still there
    expect(t.logs()).toContain('/v1/players/~');
    expect(t.logs()).not.toContain(ERASED);
  });
});
