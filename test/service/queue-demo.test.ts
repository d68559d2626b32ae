/** The attention queue on the demo log: its top is the disruptive players, each with plain reasons. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/service/keys.js';
import { DEMO_OBSERVERS, DEMO_THRESHOLDS, demoEvents } from '../../src/service/demo.js';
import { demoChunks, loadDemoEvents } from '../../src/service/demo-load.js';
import type { Alert } from '../../src/http/schemas/alerts.js';
import type { Ranking } from '../../src/http/schemas/rankings.js';
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
  // As `serve --demo` loads it: day by day, the alerts checked after each day.
  await loadDemoEvents(t.service, demoEvents(2024));
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

describe('issue 28: what a moderator misread on the demo', () => {
  it('loads day by day, so each alert carries the event time of the day it was raised, not one load time for all', async () => {
    const events = demoEvents(2024);
    const chunks = demoChunks(events);
    // Each chunk holds one UTC day of event time, at most 500 events, in the log's order.
    expect(chunks.flat()).toEqual(events);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(500);
      expect(new Set(chunk.map((e) => String(e.time).slice(0, 10))).size).toBe(1);
    }
    const { alerts } = (await (await t.call('/v1/alerts?limit=1000', { key: moderator })).json()) as { alerts: Alert[] };
    expect(alerts.length).toBeGreaterThan(5);
    // Alerts were raised on several days; each at the last event time of the day it was checked after.
    const dayEnds = new Set(chunks.map((chunk) => Date.parse(String(chunk.at(-1)!.time))));
    expect(new Set(alerts.map((a) => a.time)).size).toBeGreaterThanOrEqual(4);
    for (const alert of alerts) expect(dayEnds.has(alert.time)).toBe(true);
  });

  it('red is the reliability band of the disruptive players only: at most a quarter of the community, never a fair one', async () => {
    const ranking = (await (await t.call('/v1/rankings/reliability?limit=50', { key: moderator })).json()) as Ranking;
    const bands = ranking.rows.map((r) => [r.player, r.band] as const);
    const red = bands.filter(([, band]) => band === 'red').map(([player]) => player);
    expect(red.length).toBeGreaterThan(0);
    expect(red.length).toBeLessThanOrEqual(ranking.rows.length / 4);
    for (const player of red) expect(player).toMatch(/^[Dd]\d$/);
    for (const [player, band] of bands) if (player.startsWith('F') || player.startsWith('f')) expect(['green', 'yellow']).toContain(band);
  });

  it('the reasons say what the band reads, what is wrong with the chat, and when; the scores say whom the player is worse than', async () => {
    const queue = (await (await t.call('/v1/queue?limit=50', { key: moderator })).json()) as Queue;
    const reasons = queue.rows.flatMap((r) => r.reasons);
    const reliability = reasons.filter((r) => r.includes('— reliability '));
    expect(reliability.length).toBeGreaterThan(0);
    for (const r of reliability) expect(r).toMatch(/^dropped .* in the last 100 days( \(the latest [^)]+ ago\))? — reliability [\d.-]+ over those 100 days: (green|yellow|orange|red) \((from|below) [\d.]+\), /);
    const chat = reasons.filter((r) => r.includes('— chat '));
    expect(chat.length).toBeGreaterThan(0);
    for (const r of chat) expect(r).toMatch(/: (talks far more than others write to them|few players write to them)/);
    for (const r of reasons.filter((r) => / open alerts? /.test(r))) expect(r).toMatch(/^\d+ open alerts? \((raised|the newest raised) (\d+ \w+ ago|just now)\): /);
    for (const r of reasons.filter((r) => /— (reports|trust) /.test(r) && !/none with judgment|no rating|rated well/.test(r))) expect(r).toMatch(/, the latest (\d+ \w+ ago|just now) — /);
    for (const row of queue.rows) for (const s of row.scorers) expect(s.worseThan).toBeLessThan(s.of);
  });
});
