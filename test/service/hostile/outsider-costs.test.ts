/**
 * What an outsider can make the service hold is bounded (issue 25, point 6), with real sockets
 * against a real service: one address holding a thousand idle connections leaves every other
 * address served, and an alert stream whose client does not read holds a bounded amount of
 * unsent text, its catch-up read from the store only as the socket drains; history replays on
 * PostgreSQL hold one connection per history thread, at most `maxHistoryJobs`.
 */
import type { Socket } from 'node:net';
import { hostname } from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPostgresSchemas, freshPostgresUrl, POSTGRES, postgresAvailable } from '../../support/postgres.js';
import { getOn, openFrom } from '../../support/raw-http.js';
import { expectBoundedCatchUp } from '../../support/stalled-alert-stream.js';
import { json, startTestService, type TestService } from '../support.js';

/** Opens `count` connections from `from`, `wave` at a time; resolves once each is connected, with whether the server has closed it yet. */
async function openMany(url: string, from: string, count: number, wave = 100): Promise<{ socket: Socket; closed: Promise<boolean> }[]> {
  const all: { socket: Socket; closed: Promise<boolean> }[] = [];
  for (let i = 0; i < count; i += wave) {
    const sockets = await Promise.all(Array.from({ length: Math.min(wave, count - i) }, () => openFrom(url, from)));
    for (const socket of sockets) {
      socket.on('error', () => undefined);
      all.push({ socket, closed: new Promise((resolve) => socket.once('close', () => resolve(true))) });
    }
  }
  return all;
}

describe('issue 25: one address holding many idle connections', () => {
  let t: TestService;
  beforeAll(async () => {
    // Room for the attacker's 10 served connections and the 30 others below, not for its 10 refused ones too.
    t = await startTestService({ maxConnections: 45, maxConnectionsPerAddress: 10 });
  });
  afterAll(() => t.close());

  it('keeps at most twice maxConnectionsPerAddress of them, closing the rest at once, while other addresses are served', async () => {
    // 1,000 idle connections from 127.0.0.2, every one of them connected before anyone else asks.
    const idle = await openMany(t.url, '127.0.0.2', 1000);

    // Thirty other addresses, all connected at once, then one request each: all answered (the
    // attacker's connections over its cap take no place of theirs under maxConnections).
    const sockets = await Promise.all(Array.from({ length: 30 }, (_, i) => openFrom(t.url, `127.0.0.${10 + i}`)));
    const others = await Promise.all(sockets.map(async (socket) => (await getOn(socket, '/healthz')).status));
    for (const socket of sockets) socket.destroy();
    expect(others).toEqual(Array<number>(30).fill(200));
    expect((await t.call('/v1/communities', { key: t.keys.read })).status).toBe(200);

    // The server closed all but 20 of the idle ones on arrival, unanswered: a request on those finds the connection closed (status 0).
    const answers = await Promise.all(idle.map(async (s) => ({ ...s, answer: await getOn(s.socket, '/healthz') })));
    const held = answers.filter((s) => s.answer.status !== 0);
    expect(held).toHaveLength(20);
    expect(answers.filter((s) => s.answer.status === 0 && s.answer.body === '')).toHaveLength(980);
    // Ten are served; ten are answered 503 naming the limit, and closed.
    const statuses = held.map((s) => s.answer.status).sort();
    expect(statuses).toEqual([...Array<number>(10).fill(200), ...Array<number>(10).fill(503)]);
    for (const refused of held.filter((s) => s.answer.status === 503)) {
      expect(JSON.parse(refused.answer.body)).toEqual({
        error: 'TOO_MANY_CONNECTIONS',
        message: 'this address holds its limit of 10 open connections (maxConnectionsPerAddress); close one, or retry later',
        limit: 10,
      });
      expect(await refused.closed).toBe(true);
    }
    for (const { socket } of idle) socket.destroy();
  });
});

describe('issue 25: an alert stream whose client does not read', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(() => t.close());

  it('catches up from after=0 page by page as the socket drains, holding a bounded amount unsent, then sends every alert once, in order', async () => {
    await expectBoundedCatchUp({ url: t.url, key: t.keys.read, server: t.service.app.server, store: t.service.store });
  });
});

describe.skipIf(!postgresAvailable)('issue 25: history replays of standing serve on PostgreSQL', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ db: await freshPostgresUrl(), maxHistoryJobs: 2 });
  });
  afterAll(async () => {
    await t.close();
    await dropPostgresSchemas();
  });

  it('hold one connection per history thread, named for pg_stat_activity, at most maxHistoryJobs however many are asked at once', async () => {
    const T = Date.parse('2026-11-01T00:00:00Z');
    for (let b = 0; b < 2; b++) {
      const events = Array.from({ length: 1000 }, (_, i) => ({ id: `e-${b}-${i}`, time: T + b * 1000 + i, type: 'action', player: `p${i % 20}`, delta: (i % 7) - 3 }));
      expect((await t.call('/v1/events', { ...json(events), key: t.keys.ingest })).status).toBe(200);
    }
    const name = `standing history (pid ${process.pid} on ${hostname()})`.slice(0, 63);
    const admin = new pg.Client({ connectionString: POSTGRES });
    await admin.connect();
    const sessions = async () => (await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [name])).rows[0]!.n;
    try {
      let most = 0;
      let running = true;
      const watching = (async () => {
        while (running) {
          most = Math.max(most, await sessions());
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const statuses = await Promise.all(Array.from({ length: 8 }, async (_, i) => (await t.call(`/v1/players/p${i}/history?scorer=cqr&points=40`, { key: t.keys.read })).status));
      // An idle history thread keeps its connection (for 10 s): counted right after the answers, they are still there.
      most = Math.max(most, await sessions());
      running = false;
      await watching;
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
      expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
      expect(most).toBeGreaterThanOrEqual(1);
      expect(most).toBeLessThanOrEqual(2);
    } finally {
      await admin.end();
    }
  });
});
