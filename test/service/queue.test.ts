/** GET /v1/queue and GET /v1/players/:id/case on a real service: scope, paging, answers, the client. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StandingClient } from '../../src/client/index.js';
import type { PlayerCase, Queue } from '../../src/http/schemas/moderation-queue.js';
import { createKey } from '../../src/service/keys.js';
import { DEFAULT_CONFIG, json, startTestService, type TestService } from './support.js';

const T0 = Date.parse('2026-11-01T10:00:00Z');
const MIN = 60_000;
const at = (minutes: number) => new Date(T0 + minutes * MIN).toISOString();

// Six players: "drop" abandons three matches, "rude" is reported and rated down, the rest behave.
const EVENTS: Record<string, unknown>[] = [];
let m = 0;
const match = (a: string, b: string, dropper?: string) => {
  const id = `m${++m}`;
  EVENTS.push({ type: 'match.start', time: at(2 * m), match: id, players: [a, b] });
  EVENTS.push(dropper === undefined ? { type: 'match.end', time: at(2 * m + 1), match: id } : { type: 'disconnect', time: at(2 * m + 1), player: dropper });
};
for (const [a, b] of [['ann', 'bob'], ['cid', 'dee'], ['ann', 'cid'], ['bob', 'dee'], ['ann', 'rude'], ['bob', 'rude']] as const) match(a, b);
for (let i = 0; i < 3; i++) match('drop', ['ann', 'bob', 'cid'][i]!, 'drop');
match('drop', 'dee');
for (const from of ['ann', 'bob', 'cid']) EVENTS.push({ type: 'report', time: at(100), from, to: 'rude' });
for (const from of ['mod', 'ann']) for (const to of ['ann', 'bob', 'cid', 'dee']) if (from !== to) EVENTS.push({ type: 'rating', time: at(101), from, to, value: 1 });
EVENTS.push({ type: 'rating', time: at(102), from: 'mod', to: 'rude', value: -1 });
EVENTS.push({ type: 'rating', time: at(102), from: 'ann', to: 'drop', value: -0.5 });

let t: TestService;
let moderator: string;

beforeAll(async () => {
  t = await startTestService({
    scorers: [{ scorer: 'reliability' }, { scorer: 'reports' }, { scorer: 'trust', params: { observers: 'mod' } }],
    defences: 'published', // the reasons below are the published methods', worked by hand
    alerts: { ...DEFAULT_CONFIG.alerts, thresholds: [{ name: 'red', scorer: 'reliability', below: 0.65 }] },
    queue: { ...DEFAULT_CONFIG.queue, tailShare: 0.2 },
    maxClockSkewSeconds: null,
  });
  moderator = (await createKey(t.service.store, ['moderate'], 'mia')).key;
  expect((await t.call('/v1/events', { ...json(EVENTS), key: t.keys.ingest })).status).toBe(200);
  await t.service.alerts.flush();
});
afterAll(() => t.close());

const queueOf = async (query = '', key = moderator) => (await (await t.call(`/v1/queue${query}`, { key })).json()) as Queue;

describe('GET /v1/queue', () => {
  it('needs the moderate scope: a read or ingest key is refused 403, no key 401; admin may', async () => {
    expect((await t.call('/v1/queue', { key: t.keys.read })).status).toBe(403);
    expect((await t.call('/v1/queue', { key: t.keys.ingest })).status).toBe(403);
    expect((await t.call('/v1/queue')).status).toBe(401);
    expect((await t.call('/v1/queue', { key: t.keys.admin })).status).toBe(200);
  });

  it('lets a moderate key read what a read key reads, but not ingest', async () => {
    expect((await t.call('/v1/rankings/reliability', { key: moderator })).status).toBe(200);
    expect((await t.call('/v1/events', { ...json([]), key: moderator })).status).toBe(403);
  });

  it('ranks the dropper and the reported player first, each with its reasons, and says what it weighed', async () => {
    const q = await queueOf();
    expect(q.community).toBe('default');
    expect(q.sequence).toBe(EVENTS.length);
    expect(q.weights).toEqual({ ...DEFAULT_CONFIG.queue, tailShare: 0.2 });
    expect(q.rows.slice(0, 2).map((r) => r.player).sort()).toEqual(['drop', 'rude']);
    const drop = q.rows.find((r) => r.player === 'drop')!;
    expect(drop.reasons).toContain('dropped 3 of their 4 matches in the last 100 days (the latest 1 hour ago) — reliability -0.5 over those 100 days: red (below 0.65), the worst of 6');
    expect(drop.reasons).toContain('1 open alert (raised just now): red');
    expect(drop).toMatchObject({ openAlerts: 1, openAppeals: 0, activeSanctions: [], newEvidence: false });
    expect(drop.handledAt).toBeUndefined();
    const reliability = drop.scorers.find((s) => s.scorer === 'reliability')!;
    expect(reliability).toMatchObject({ score: -0.5, rank: 6, of: 6, percentile: 1, worseThan: 5, tail: 1 });
    const rude = q.rows.find((r) => r.player === 'rude')!;
    expect(rude.reasons.some((r) => r.startsWith('reported by 3 players, all with good judgment, the latest 2 minutes ago — reports '))).toBe(true);
    expect(rude.reasons.some((r) => r.startsWith('rated negatively by 1 of 1 rater, carrying 100% of the weight, the latest just now — trust -1, '))).toBe(true);
    expect(rude.tails).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < q.rows.length; i++) expect(q.rows[i - 1]!.attention).toBeGreaterThanOrEqual(q.rows[i]!.attention);
    expect(q.rows.map((r) => r.rank)).toEqual(q.rows.map((_, i) => i + 1));
  });

  it('pages with offset and limit over the same total, and answers an empty queue for an unknown community', async () => {
    const all = await queueOf();
    const second = await queueOf('?offset=1&limit=1');
    expect(second.total).toBe(all.total);
    expect(second.rows).toEqual([all.rows[1]]);
    expect(await queueOf('?community=nowhere')).toMatchObject({ community: 'nowhere', sequence: 0, total: 0, rows: [] });
    expect((await t.call('/v1/queue?limit=501', { key: moderator })).status).toBe(400);
  });
});

describe('GET /v1/players/:id/case', () => {
  it("gives every score with its meaning, the queue's reasons, the empty record and the open alerts", async () => {
    const response = await t.call('/v1/players/drop/case', { key: moderator });
    expect(response.status).toBe(200);
    const c = (await response.json()) as PlayerCase;
    expect(c).toMatchObject({ player: 'drop', community: 'default', sequence: EVENTS.length, now: T0 + 102 * MIN });
    expect(c.record).toEqual({ sanctions: [], appeals: [], notes: [], verdicts: [] });
    expect(c.alerts.map((a) => [a.threshold, a.kind])).toEqual([['red', 'raised']]);
    expect(c.queue?.reasons).toContain('dropped 3 of their 4 matches in the last 100 days (the latest 1 hour ago) — reliability -0.5 over those 100 days: red (below 0.65), the worst of 6');
    const reliability = c.scores.find((s) => s.scorer === 'reliability')!;
    expect(reliability).toMatchObject({ direction: 'higher is better', band: 'red', confidence: 4, percentile: 1, worseThan: 5 });
    expect(reliability.summary).toBe('Reliability -0.5 over the last 100 days: red (below 0.65), the worst of 6; from 4 scored events: 1 finish, 3 drops, 0 resumes. Dropped 3 of the last 4 matches.');
    expect(c.scores.find((s) => s.scorer === 'reports')!.direction).toBe('higher is worse');
  });

  it('lists dated evidence newest first, in words', async () => {
    const c = (await (await t.call('/v1/players/drop/case', { key: moderator })).json()) as PlayerCase;
    expect(c.evidence.map((e) => [e.kind, e.text])).toEqual([
      ['rating', 'rated -0.5 by ann (trust 1, 100% of the weight), just now'],
      ['finish', 'finished match m10 (+1), 1 hour ago'],
      ['drop', 'dropped match m9 (-1), 1 hour ago'],
      ['drop', 'dropped match m8 (-1), 1 hour ago'],
      ['drop', 'dropped match m7 (-1), 1 hour ago'],
    ]);
    expect(c.evidence[0]!.other).toBe('ann');
  });

  it('answers 404 for a player nothing is known of, 403 for a read key', async () => {
    const response = await t.call('/v1/players/nobody/case', { key: moderator });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'NOT_FOUND', message: 'nothing is known of player "nobody" in community "default": no score, no moderation record, no open alert' });
    expect((await t.call('/v1/players/drop/case', { key: t.keys.read })).status).toBe(403);
  });

  it('is what the client answers, with queue and case', async () => {
    const client = new StandingClient({ url: t.url, key: moderator });
    expect(await client.queue({ limit: 2 })).toEqual(await queueOf('?limit=2'));
    expect((await client.case('drop')).player).toBe('drop');
  });
});

describe('issue 17: reported again after the verdict', () => {
  // Community "again": ann, bob, cid and rude play 10 games each; ann and bob report rude 3 days
  // before the verdict. Σ Pt = 40 over 2 reports: Nr = 20, each reporter's JP 0.5 = its report's weight.
  const community = 'again';
  const DAY = 86_400_000;
  const send = async (events: Record<string, unknown>[]) => {
    const response = await t.call('/v1/events', { ...json(events.map((e) => ({ community, ...e }))), key: t.keys.ingest });
    expect(response.status, await response.clone().text()).toBe(200);
  };
  const rudeRow = async () => (await queueOf(`?community=${community}`)).rows.find((r) => r.player === 'rude');
  const caseOf = async () => (await (await t.call(`/v1/players/rude/case?community=${community}`, { key: moderator })).json()) as PlayerCase;

  it('lists the player again with newEvidence only once a report carrying weight arrives after the verdict', async () => {
    const before = new Date(Date.now() - 3 * DAY).toISOString();
    await send([
      ...['ann', 'bob', 'cid', 'rude'].map((player) => ({ type: 'played', time: before, player, games: 10 })),
      { type: 'report', time: before, from: 'ann', to: 'rude' },
      { type: 'report', time: before, from: 'bob', to: 'rude' },
    ]);
    expect(await rudeRow()).toMatchObject({ rank: 1, newEvidence: false });
    expect((await caseOf()).evidence.map((e) => [e.kind, e.other, e.text])).toEqual([
      ['report', 'ann', 'reported by ann (judgment 0.5, adds 0.5), just now'],
      ['report', 'bob', 'reported by bob (judgment 0.5, adds 0.5), just now'],
    ]);

    const verdict = await t.call('/v1/players/rude/verdicts', { ...json({ community, outcome: 'upheld', reason: 'chat logs reviewed' }), key: moderator });
    expect(verdict.status, await verdict.clone().text()).toBe(201);
    const handledAt = ((await verdict.json()) as { event: { time: number } }).event.time;
    expect(await rudeRow()).toBeUndefined();

    // Not before: a later event, and a report from zed (no games, judgment 0: the report weighs 0), are no new evidence.
    await send([
      { type: 'chat', time: new Date(handledAt + 1000).toISOString(), from: 'ann', to: 'bob' },
      { type: 'report', time: new Date(handledAt + 2000).toISOString(), from: 'zed', to: 'rude' },
    ]);
    expect(await rudeRow()).toBeUndefined();

    // cid reports rude a minute after the verdict: Nr = 40 / 4 = 10, each of ann, bob, cid weighs 1.
    await send([{ type: 'report', time: new Date(handledAt + 60_000).toISOString(), from: 'cid', to: 'rude' }]);
    const row = await rudeRow();
    expect(row).toMatchObject({ rank: 1, handledAt, newEvidence: true });
    expect(row!.reasons).toContain('handled 1 minute ago; new since: 1 report');
    expect(row!.reasons.some((r) => r.startsWith('reported by 4 players, 3 with good judgment, the latest just now — reports 3, the worst of 5'))).toBe(true);
    const c = await caseOf();
    expect(c.queue?.reasons).toEqual(row!.reasons);
    expect(c.evidence.map((e) => [e.time, e.other, e.text])).toEqual([
      [handledAt + 60_000, 'cid', 'reported by cid (judgment 1, adds 1), just now'],
      [handledAt + 2000, 'zed', 'reported by zed (carries no weight), just now'],
      [Date.parse(before), 'ann', 'reported by ann (judgment 1, adds 1), 3 days ago'],
      [Date.parse(before), 'bob', 'reported by bob (judgment 1, adds 1), 3 days ago'],
    ]);
  });
});
