/**
 * issue 17: the case and the queue read right after a moderator's action reflect it, though the
 * rankings they are built from may be served from a view up to `rankingRefreshMs` old (moderator
 * events change no score, so the views alone do not say that anything happened).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerCase, Queue } from '../../src/http/schemas/moderation-queue.js';
import { createKey } from '../../src/service/keys.js';
import { json, startTestService, type TestService } from './support.js';

const T0 = Date.now() - 3_600_000;
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

// "drop" abandons four matches; the others finish theirs.
const EVENTS: Record<string, unknown>[] = [];
let m = 0;
for (const [a, b, dropper] of [['ann', 'bob'], ['cid', 'dee'], ['drop', 'ann', 'drop'], ['drop', 'bob', 'drop'], ['drop', 'cid', 'drop'], ['drop', 'dee', 'drop']] as const) {
  const match = `m${++m}`;
  EVENTS.push({ type: 'match.start', time: at(2 * m), match, players: [a, b] });
  EVENTS.push(dropper === undefined ? { type: 'match.end', time: at(2 * m + 1), match } : { type: 'disconnect', time: at(2 * m + 1), player: dropper });
}

let t: TestService;
let moderator: string;

beforeAll(async () => {
  // Views an hour old are served as they are: only the community's sequence says an action happened.
  t = await startTestService({ scorers: [{ scorer: 'reliability' }], rankingRefreshMs: 3_600_000 });
  moderator = (await createKey(t.service.store, ['senior'], 'mia')).key;
  expect((await t.call('/v1/events', { ...json(EVENTS), key: t.keys.ingest })).status).toBe(200);
});
afterAll(() => t.close());

const read = async <T>(path: string) => (await (await t.call(path, { key: moderator })).json()) as T;
const act = async (path: string, body: unknown) => {
  const response = await t.call(path, { ...json(body), key: moderator });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { event: { id: string; time: number } }).event;
};

describe('issue 17: the queue and the case after an action', () => {
  it('issue 17: a suspension reads active in the case read right after it, and the handled player leaves the queue', async () => {
    expect((await read<Queue>('/v1/queue')).rows[0]!.player).toBe('drop');
    expect((await read<PlayerCase>('/v1/players/drop/case')).queue?.rank).toBe(1);
    await act('/v1/players/drop/verdicts', { outcome: 'upheld', reason: 'left four matches' });
    expect((await read<PlayerCase>('/v1/players/drop/case')).record.verdicts).toHaveLength(1);
    const suspension = await act('/v1/players/drop/sanctions', { action: 'suspend', until: new Date(Date.now() + 86_400_000).toISOString(), reason: 'repeated abandonment' });
    const after = await read<PlayerCase>('/v1/players/drop/case');
    expect(after.now).toBe(suspension.time);
    expect(after.record.sanctions).toEqual([expect.objectContaining({ id: suspension.id, action: 'suspend', active: true })]);
    expect(after.queue).toBeUndefined();
    const queue = await read<Queue>('/v1/queue');
    expect(queue.rows.map((r) => r.player)).not.toContain('drop');
    expect(queue.sequence).toBe(EVENTS.length + 2);
  });
});
