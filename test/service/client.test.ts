/**
 * standing/client against a real service: every method answers the documented body (each answer
 * checked against the OpenAPI document on the way), and an error answer is a StandingApiError
 * carrying the service's status, code, message, problems and limit.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StandingApiError, StandingClient, type Alert } from '../../src/client/index.js';
import { checkAnswer, type Contract } from '../support/contract.js';
import { startTestService, type TestService } from './support.js';

const T0 = '2026-11-01T10:00:00Z';
const EVENTS = [
  { type: 'action', time: T0, id: 'a1', player: 'ann', delta: 12 },
  { type: 'action', time: T0, id: 'b1', player: 'bob', delta: -60 },
  { type: 'rating', time: T0, from: 'mod', to: 'ann', value: 1 },
  { type: 'report', time: T0, from: 'ann', to: 'bob' },
];

/** fetch, with every answer checked against `contract`. */
function checkedFetch(contract: Contract): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    await checkAnswer(contract, init?.method ?? 'GET', url, response);
    return response;
  };
}

const CID = { type: 'action', time: T0, id: 'c1', player: 'cid', delta: 5 };

let t: TestService;
const clientWith = (key: string | undefined, options: { attempts?: number } = {}) => new StandingClient({ url: t.url, key, fetch: checkedFetch(t.contract), ...options });

// Each test gets a service of its own (the tests run in a shuffled order); all but the ingest
// test find EVENTS and cid's action already stored.
beforeEach(async (context) => {
  t = await startTestService({
    scorers: [{ scorer: 'cqr' }, { scorer: 'trust', params: { observers: 'mod' } }, { scorer: 'reports' }],
    alerts: { thresholds: [{ name: 'low', scorer: 'cqr', below: -50 }], webhooks: [], retentionDays: 0, intervalMs: 0, webhookRetryMs: 10 },
    maxBatchEvents: 50,
  });
  if (!context.task.name.startsWith('ingests')) await clientWith(t.keys.ingest).ingest([...EVENTS, CID]);
});
afterEach(() => t.close());

describe('standing/client', () => {
  it('ingests a batch as JSON or NDJSON, counting duplicates by id', async () => {
    const ingest = clientWith(t.keys.ingest);
    expect(await ingest.ingest(EVENTS)).toEqual({ accepted: 4, duplicates: 0, sequences: { default: 4 } });
    const ndjson = `${JSON.stringify(EVENTS[0])}\n${JSON.stringify(CID)}\n`;
    expect(await ingest.ingest(ndjson)).toEqual({ accepted: 1, duplicates: 1, sequences: { default: 5 } });
    expect(await ingest.limits()).toEqual({ bodyLimitBytes: 4 * 1024 * 1024, maxBatchEvents: 50, maxEventDepth: 32, maxIdLength: 128, maxClockSkewSeconds: 300, rateLimitPerMinute: 0 });
  });

  it('reads rankings, players, explanations, histories, scorers, communities, health and metrics', async () => {
    const read = clientWith(t.keys.read);
    const ranking = await read.ranking('cqr', { limit: 2, order: 'desc' });
    expect(ranking.rows.map((r) => r.player)).toEqual(['bob', 'cid']);
    expect([ranking.total, ranking.order, ranking.rows[0]!.score]).toEqual([3, 'desc', -60]);
    expect((await read.ranking('trust', { params: 'observers=ann' })).scorer).toBe('trust observers=mod (observers=ann)');
    const bob = await read.player('bob');
    expect(bob.communities[0]!.scores.map((s) => s.scorer)).toEqual(['cqr', 'reports']);
    const explained = await read.explain('bob', { scorer: 'reports', limit: 1 });
    expect(explained.page).toEqual({ list: 'reportedBy', total: 1, offset: 0, limit: 1, order: 'asc' });
    const history = await read.history('bob', { scorer: 'cqr', points: 2 });
    expect(history.points.at(-1)).toMatchObject({ score: -60 });
    expect((await read.scorers()).scorers.map((s) => [s.name, s.rankOneIsWorst])).toEqual([
      ['cqr', false],
      ['trust observers=mod', false],
      ['reports', true],
    ]);
    expect(await read.communities()).toEqual({ communities: [{ community: 'default', sequence: 5 }] });
    expect(await clientWith(undefined).health()).toEqual({ status: 'ok', store: 'sqlite', communities: 1, events: 5 });
    expect(await read.metrics()).toContain('standing_events_total');
  });

  it('lists and streams alerts, the missed ones first', async () => {
    await t.service.alerts.flush();
    const read = clientWith(t.keys.read);
    const stored = (await read.alerts({ player: 'bob' })).alerts;
    expect(stored.map((a) => [a.player, a.kind, a.threshold])).toEqual([['bob', 'raised', 'low']]);
    const controller = new AbortController();
    const seen: Alert[] = [];
    const streaming = read.streamAlerts({ after: 0 }, (alert) => {
      seen.push(alert);
      if (seen.length === 1) void clientWith(t.keys.ingest).ingest([{ type: 'action', time: T0, id: 'd1', player: 'dan', delta: -70 }]);
      else controller.abort();
    }, { signal: controller.signal });
    await expect(streaming).rejects.toThrow();
    // the stored alert first, then the one raised while the stream was open
    expect(seen[0]).toEqual(stored[0]);
    expect(seen.map((a) => [a.player, a.kind])).toEqual([['bob', 'raised'], ['dan', 'raised']]);
    expect(seen[1]!.id).toBeGreaterThan(seen[0]!.id);
  });

  it('erases a player with an admin key', async () => {
    expect(await clientWith(t.keys.admin).erase('cid')).toEqual({ player: 'cid', communities: ['default'], removed: 1, rewritten: 0 });
  });

  it('throws the service error as StandingApiError: status, code, message, problems, limit', async () => {
    const failure = async (call: Promise<unknown>) => {
      try {
        await call;
      } catch (error) {
        return error as StandingApiError;
      }
      throw new Error('the call succeeded');
    };
    const rejected = await failure(clientWith(t.keys.ingest).ingest([{ type: 'action', time: T0, player: '', delta: 1 }]));
    expect(rejected).toBeInstanceOf(StandingApiError);
    expect([rejected.status, rejected.code, rejected.problems]).toEqual([400, 'BATCH_REJECTED', [{ index: 0, code: 'EVENT_INVALID', field: 'player', reason: expect.any(String) }]]);
    const tooMany = await failure(clientWith(t.keys.ingest).ingest(Array.from({ length: 51 }, (_, i) => ({ type: 'action', time: T0, player: `p${i}`, delta: 1 }))));
    expect([tooMany.status, tooMany.code, tooMany.limit, tooMany.key]).toEqual([413, 'BATCH_TOO_LARGE', 50, 'maxBatchEvents']);
    const forbidden = await failure(clientWith(t.keys.read).erase('bob'));
    expect([forbidden.status, forbidden.code, forbidden.message]).toEqual([403, 'FORBIDDEN', expect.stringContaining('lacks scope "admin"')]);
    const unknown = await failure(clientWith(t.keys.read).player('nobody'));
    expect([unknown.status, unknown.code]).toEqual([404, 'NOT_FOUND']);
  });
});

describe('standing/client and Retry-After', () => {
  it('tries again after the Retry-After of a 503, and answers once the service has room', async () => {
    const limited = await startTestService({ maxConnections: 1 });
    try {
      const stream = new AbortController();
      const held = await limited.call('/v1/alerts/stream', { key: limited.keys.read, signal: stream.signal });
      expect(held.status).toBe(200);
      const statuses: number[] = [];
      const check = checkedFetch(limited.contract);
      const client = new StandingClient({
        url: limited.url,
        key: limited.keys.read,
        attempts: 10,
        // The stream's connection is freed once the first answer (503 TOO_MANY_CONNECTIONS) has come.
        fetch: async (input, init) => {
          const response = await check(input, init);
          statuses.push(response.status);
          stream.abort();
          return response;
        },
      });
      expect((await client.communities()).communities).toEqual([]);
      // 503 until the service has seen the stream's connection close, then the answer.
      expect(statuses[0]).toBe(503);
      expect(statuses.slice(0, -1).every((status) => status === 503)).toBe(true);
      expect(statuses.at(-1)).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('throws at once a Retry-After longer than it waits, with retryAfter', async () => {
    const limited = await startTestService({ rateLimitPerMinute: 1 });
    try {
      const client = new StandingClient({ url: limited.url, key: limited.keys.read, fetch: checkedFetch(limited.contract), maxRetryWaitSeconds: 1 });
      await client.communities();
      let error: StandingApiError | undefined;
      try {
        await client.communities();
      } catch (e) {
        error = e as StandingApiError;
      }
      expect(error?.code).toBe('TOO_MANY_REQUESTS');
      expect(error?.retryAfter).toBeGreaterThan(1);
    } finally {
      await limited.close();
    }
  });
});
