/**
 * Hostile clocks (issue 14, point 1), against a real service over a real SQLite file: an event
 * dated after the service's wall clock by more than maxClockSkewSeconds is refused, naming the
 * index, the field and the limit, so one client's wrong clock cannot become a community's "now"
 * (which would expire every rating and forget every match, for good); times beyond what a Date
 * represents are refused; innocent clients posting at the same time are unaffected.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestService, type TestService } from '../support.js';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const SCORERS = [{ scorer: 'reliability' }, { scorer: 'trust', params: { observers: 'mod' } }, { scorer: 'cqr' }];

interface Problem {
  index: number;
  field: string;
  reason: string;
}

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ scorers: SCORERS, alerts: { thresholds: [], webhooks: [], retentionDays: 0, intervalMs: 0, webhookRetryMs: 10 } });
});
afterAll(async () => t.close());

const post = (events: unknown[]) => t.call('/v1/events', { ...json(events), key: t.keys.ingest });
const rows = async (scorer: string, community: string) =>
  ((await (await t.call(`/v1/rankings/${scorer}?community=${community}`, { key: t.keys.read })).json()) as { rows: { player: string; score: number }[] }).rows;

/** A community with live trust ratings and a finished match, dated an hour ago. */
async function seed(community: string): Promise<void> {
  const at = iso(Date.now() - HOUR);
  const response = await post([
    { type: 'rating', time: at, community, from: 'mod', to: 'ann', value: 1 },
    { type: 'rating', time: at, community, from: 'ann', to: 'bob', value: 1 },
    { type: 'match.start', time: at, community, match: 'm1', players: ['ann', 'bob'] },
    { type: 'match.end', time: at, community, match: 'm1' },
  ]);
  expect(response.status).toBe(200);
}

describe('issue 14: the service refuses events dated after its clock', () => {
  it('refuses a match.end dated 9999-12-31 and one a month ahead, naming index, field and limit; the community keeps its scores', async () => {
    await seed('c1');
    const before = { trust: await rows('trust', 'c1'), reliability: await rows('reliability', 'c1') };
    expect(before.trust.find((r) => r.player === 'bob')!.score).toBeGreaterThan(0);
    for (const time of ['9999-12-31T00:00:00Z', iso(Date.now() + 30 * 24 * HOUR)]) {
      const response = await post([
        { type: 'action', time: iso(Date.now()), community: 'c1', player: 'cat', delta: 1 },
        { type: 'match.end', time, community: 'c1', match: 'gone' },
      ]);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: string; problems: Problem[] };
      expect(body.error).toBe('BATCH_REJECTED');
      expect(body.problems).toHaveLength(1);
      expect(body.problems[0]).toMatchObject({ index: 1, field: 'time' });
      expect(body.problems[0]!.reason).toMatch(/maxClockSkewSeconds \(300 s\) after the service's clock/);
    }
    // Nothing of either batch was stored, and no rating expired.
    expect(await rows('trust', 'c1')).toEqual(before.trust);
    expect(await rows('reliability', 'c1')).toEqual(before.reliability);
    expect((await rows('cqr', 'c1')).map((r) => r.player)).not.toContain('cat');
  });

  it('accepts an event within the skew (a minute ahead)', async () => {
    const response = await post([{ type: 'action', time: iso(Date.now() + 60_000), community: 'c2', player: 'ann', delta: 3 }]);
    expect(response.status).toBe(200);
  });

  it('refuses epoch milliseconds beyond what a Date represents (1e300), naming the field', async () => {
    const response = await post([{ type: 'action', time: 1e300, community: 'c3', player: 'ann', delta: 3 }]);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { problems: Problem[] };
    expect(body.problems[0]).toMatchObject({ index: 0, field: 'time' });
    expect(body.problems[0]!.reason).toMatch(/what a JavaScript Date can represent/);
  });

  it('leaves concurrent innocent clients unaffected', async () => {
    await seed('c4');
    const attacks = Array.from({ length: 20 }, (_, i) => post([{ type: 'match.end', time: '9999-12-31T00:00:00Z', community: 'c4', match: `x${i}` }]));
    const innocents = Array.from({ length: 20 }, (_, i) => post([{ type: 'rating', time: iso(Date.now()), community: 'c4', from: 'mod', to: `p${i}`, value: 1 }]));
    const [attacked, innocent] = await Promise.all([Promise.all(attacks), Promise.all(innocents)]);
    expect(attacked.map((r) => r.status)).toEqual(attacked.map(() => 400));
    expect(innocent.map((r) => r.status)).toEqual(innocent.map(() => 200));
    const trust = await rows('trust', 'c4');
    for (let i = 0; i < 20; i++) expect(trust.find((r) => r.player === `p${i}`)!.score).toBeGreaterThan(0);
  });
});

describe('issue 14: a trust ranking whose every rating has expired says so', () => {
  it('carries a warning naming the moment, and none while a rating reaches from the observers', async () => {
    const old = iso(Date.now() - 40 * 24 * HOUR);
    expect((await post([{ type: 'rating', time: old, community: 'c5', from: 'mod', to: 'ann', value: 1 }])).status).toBe(200);
    const fresh = (await (await t.call('/v1/rankings/trust?community=c5', { key: t.keys.read })).json()) as { warning?: string; rows: { score: number }[] };
    expect(fresh.rows[0]!.score).toBe(1);
    expect(fresh.warning).toBeUndefined();
    const now = iso(Date.now());
    expect((await post([{ type: 'rating', time: now, community: 'c5', from: 'bob', to: 'cat', value: 1 }])).status).toBe(200);
    const expired = (await (await t.call('/v1/rankings/trust?community=c5', { key: t.keys.read })).json()) as { warning?: string; rows: { score: number }[] };
    expect(expired.rows.map((r) => r.score)).toEqual([0, 0, 0]);
    expect(expired.warning).toBe(`every reputation is 0: 1 rating is in force at ${now} (each expires ttlMax × expireHours = 720 h after it is set), and none reaches from the observers`);
  });
});

describe('issue 14: the clock limit may be switched off for historical logs', () => {
  it('with maxClockSkewSeconds null a future-dated event is accepted', async () => {
    const open = await startTestService({ maxClockSkewSeconds: null });
    try {
      const response = await open.call('/v1/events', { ...json([{ type: 'action', time: '2999-01-01T00:00:00Z', player: 'ann', delta: 1 }]), key: open.keys.ingest });
      expect(response.status).toBe(200);
    } finally {
      await open.close();
    }
  });
});
