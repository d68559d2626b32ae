/** The attention queue on the demo log: its top is the disruptive players, each with plain reasons. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/service/keys.js';
import { DEMO_OBSERVERS, DEMO_THRESHOLDS, demoEvents } from '../../src/service/demo.js';
import type { PlayerCase, Queue } from '../../src/http/schemas/moderation-queue.js';
import { DEFAULT_CONFIG, startTestService, type TestService } from './support.js';

let t: TestService;
let moderator: string;

beforeAll(async () => {
  t = await startTestService({
    scorers: [{ scorer: 'cqr' }, { scorer: 'reliability' }, { scorer: 'chat' }, { scorer: 'trust', params: { observers: DEMO_OBSERVERS } }, { scorer: 'reports' }],
    alerts: { ...DEFAULT_CONFIG.alerts, thresholds: DEMO_THRESHOLDS },
    maxClockSkewSeconds: null,
  });
  moderator = (await createKey(t.service.store, ['moderate'], 'demo mod')).key;
  const events = demoEvents(2024);
  for (let i = 0; i < events.length; i += 500) await t.service.live.ingest(events.slice(i, i + 500));
  await t.service.alerts.flush();
}, 60_000);
afterAll(() => t.close());

/** No camelCase words, epoch milliseconds or exponents in what a moderator reads. */
function expectPlain(text: string): void {
  expect(text).not.toMatch(/\b[a-z]+[A-Z][a-zA-Z]*\b/);
  expect(text).not.toMatch(/\d{10,}/);
  expect(text).not.toMatch(/\de[+-]?\d/i);
  expect(text).not.toMatch(/\d\.\d{3,}/);
}

describe('the queue on the demo log', () => {
  it('puts disruptive players (D*, d*) at the top of the default community, each with reasons in plain words', async () => {
    const response = await t.call('/v1/queue?limit=10', { key: moderator });
    expect(response.status).toBe(200);
    const queue = (await response.json()) as Queue;
    expect(queue.community).toBe('default');
    expect(queue.total).toBeGreaterThanOrEqual(5);
    const top = queue.rows.slice(0, 5);
    expect(top[0]!.reasons.some((r) => /— (cqr|reliability|chat|trust|reports) /.test(r))).toBe(true);
    expect(queue.rows.every((r) => r.reasons.some((reason) => / — /.test(reason)))).toBe(true);
    for (const row of top) {
      expect(row.player).toMatch(/^[Dd]\d$/);
      expect(row.reasons.length).toBeGreaterThan(0);
      for (const reason of row.reasons) expectPlain(reason);
    }
  });

  it("opens the top player's case with every score's meaning and dated evidence, newest first", async () => {
    const queue = (await (await t.call('/v1/queue?limit=1', { key: moderator })).json()) as Queue;
    const player = queue.rows[0]!.player;
    const response = await t.call(`/v1/players/${player}/case`, { key: moderator });
    expect(response.status).toBe(200);
    const c = (await response.json()) as PlayerCase;
    expect(c.queue?.rank).toBe(1);
    expect(c.scores.map((s) => s.scorerId).sort()).toEqual(['chat', 'cqr', 'reliability', 'reports', 'trust']);
    expect(c.scores.find((s) => s.scorerId === 'reports')!.direction).toBe('higher is worse');
    expect(c.scores.find((s) => s.scorerId === 'reliability')!.band).toBe('red');
    for (const s of c.scores) {
      expectPlain(s.summary);
      expect(s.good.length).toBeGreaterThan(0);
      expect(s.bad.length).toBeGreaterThan(0);
    }
    expect(c.evidence.length).toBeGreaterThan(0);
    for (let i = 1; i < c.evidence.length; i++) expect(c.evidence[i - 1]!.time).toBeGreaterThanOrEqual(c.evidence[i]!.time);
    for (const e of c.evidence) expectPlain(e.text);
  });
});
