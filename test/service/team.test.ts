/**
 * issue 28, point 6: the team figures over real HTTP on a real store (a SQLite file, and
 * PostgreSQL when reachable). The record is written to the store before the service starts, so
 * every time is known and every figure hand-computed: GET /v1/team, /metrics parsed, both the
 * same after a restart (the figures are the record's, not the process's; /metrics' queue figures
 * are those of the queues computed for a read), and a live bulk decision counted.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { TeamFiguresAnswer } from '../../src/http/schemas/team.js';
import { validateEvent } from '../../src/events/validate.js';
import { createKey } from '../../src/service/keys.js';
import { openStore } from '../../src/store/open.js';
import { dropPostgresSchemas, freshPostgresUrl, postgresAvailable } from '../support/postgres.js';
import { json, startTestService, tempDb, type TestService } from './support.js';

afterAll(dropPostgresSchemas);

const T0 = Date.parse('2026-11-01T00:00:00Z');
const C = 'team';
const at = (seconds: number) => T0 + seconds * 1000;
const SCORERS = [{ scorer: 'cqr' }, { scorer: 'reports' }];

/**
 * a: reported at 100 s and 200 s; Mia's verdict at 400 s and suspension at 410 s; an appeal
 *    against it at 500 s, granted by Bob at 800 s.
 * b: reported at 900 s; rule spam mutes at 1000 s; Mia's verdict at 1600 s dismisses.
 * c: rule spam proposes (a note) at 2000 s; Mia upholds at 2600 s.
 * d: reported three times from 3000 s, never handled (the worst of reports: in the queue).
 * e: harms at 2700 s (the worst of cqr: in the queue), never reported.
 * f: opens an appeal at 3300 s (in the queue). The last event is at 3600 s.
 */
const RECORD = [
  ...['r1', 'r2', 'r3', 'r4'].map((player, i) => ({ id: `p${i}`, time: at(10), type: 'played', player, games: 10 })),
  { id: 'k1', time: at(100), type: 'report', from: 'r1', to: 'a' },
  { id: 'k2', time: at(200), type: 'report', from: 'r2', to: 'a' },
  { id: 'v1', time: at(400), type: 'verdict', on: 'player', player: 'a', outcome: 'upheld', reason: 'clip reviewed', moderator: 'Mia' },
  { id: 's1', time: at(410), type: 'sanction', player: 'a', action: 'suspend', until: at(100_000), reason: 'griefing', moderator: 'Mia' },
  { id: 'o1', time: at(500), type: 'appeal', player: 'a', status: 'opened', sanction: 's1', text: 'it was my brother' },
  { id: 'g1', time: at(800), type: 'appeal', player: 'a', status: 'granted', appeal: 'o1', reason: 'fair', moderator: 'Bob' },
  { id: 'k3', time: at(900), type: 'report', from: 'r3', to: 'b' },
  { id: 's2', time: at(1000), type: 'sanction', player: 'b', action: 'mute', reason: 'spam rule', moderator: 'rule:spam' },
  { id: 'v2', time: at(1600), type: 'verdict', on: 'player', player: 'b', outcome: 'dismissed', reason: 'not spam', moderator: 'Mia' },
  { id: 'n1', time: at(2000), type: 'note', player: 'c', text: 'proposed by the spam rule', moderator: 'rule:spam' },
  { id: 'v3', time: at(2600), type: 'verdict', on: 'player', player: 'c', outcome: 'upheld', reason: 'spam indeed', moderator: 'Mia' },
  { id: 'x1', time: at(2700), type: 'action', player: 'e', delta: -100 },
  { id: 'k4', time: at(3000), type: 'report', from: 'r1', to: 'd' },
  { id: 'k5', time: at(3010), type: 'report', from: 'r2', to: 'd' },
  { id: 'k6', time: at(3020), type: 'report', from: 'r3', to: 'd' },
  { id: 'o2', time: at(3300), type: 'appeal', player: 'f', status: 'opened', text: 'why am I here' },
  { id: 'p9', time: at(3600), type: 'played', player: 'r4', games: 11 },
].map((e) => ({ community: C, ...e }));

const NO_BUCKETS = new Array(11).fill(0);

/** What GET /v1/team answers for RECORD, by hand (docs/moderation.md#team-figures). */
const EXPECTED: TeamFiguresAnswer = {
  community: C,
  sequence: RECORD.length,
  now: at(3600),
  bucketsSeconds: [60, 300, 900, 3600, 14400, 43200, 86400, 259200, 604800, 2592000],
  decisions: { total: 6, verdicts: 3, reportVerdicts: 0, sanctions: 2, lifts: 0, appealDecisions: 1 },
  waits: [
    // a: 100 s → 400 s; c: 2000 s → 2600 s. a's suspension and b's dismissal follow no new signal: no case.
    { case: 'player', by: 'moderator', count: 2, medianSeconds: 300, p90Seconds: 600, maxSeconds: 600, buckets: [0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0] },
    // b: 900 s → the rule's mute at 1000 s.
    { case: 'player', by: 'rule', count: 1, medianSeconds: 100, p90Seconds: 100, maxSeconds: 100, buckets: [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
    // a's appeal: 500 s → 800 s.
    { case: 'appeal', by: 'moderator', count: 1, medianSeconds: 300, p90Seconds: 300, maxSeconds: 300, buckets: [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
    { case: 'appeal', by: 'rule', count: 0, buckets: NO_BUCKETS },
  ],
  moderators: {
    total: 3,
    rows: [
      { moderator: 'Mia', decisions: 4, verdicts: 3, reportVerdicts: 0, sanctions: 1, lifts: 0, appealDecisions: 0, sanctionsAppealed: 1, appealsGranted: 1, cases: 2, medianWaitSeconds: 300 },
      { moderator: 'Bob', decisions: 1, verdicts: 0, reportVerdicts: 0, sanctions: 0, lifts: 0, appealDecisions: 1, sanctionsAppealed: 0, appealsGranted: 0, cases: 1, medianWaitSeconds: 300 },
      { moderator: 'rule:spam', decisions: 1, verdicts: 0, reportVerdicts: 0, sanctions: 1, lifts: 0, appealDecisions: 0, sanctionsAppealed: 0, appealsGranted: 0, cases: 1, medianWaitSeconds: 100 },
    ],
  },
  // The mute was overturned (the next review dismissed), the proposal upheld.
  rules: { total: 1, rows: [{ rule: 'spam', firings: 2, sanctions: 1, proposals: 1, overturned: 1, overturnRate: 0.5 }] },
  // d waits since its first report (3000 s), f since its appeal (3300 s); e has no dated signal.
  queue: { length: 3, dated: 2, oldestSeconds: 600, medianSeconds: 300, buckets: [0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0] },
};

interface Sample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}

/** The samples of a Prometheus text exposition. */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!.replace(/\\(.)/g, '$1');
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample named `name` whose labels include `labels`. */
function sample(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v) && Object.keys(s.labels).length === Object.keys(labels).length);
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value;
}

async function seed(db: string): Promise<void> {
  const store = await openStore(db);
  try {
    await store.append(RECORD.map((e) => validateEvent(structuredClone(e))));
  } finally {
    await store.close();
  }
}

const STORES: [string, () => Promise<string> | string, boolean][] = [
  ['a SQLite file', tempDb, true],
  ['PostgreSQL', freshPostgresUrl, postgresAvailable],
];

describe.each(STORES)('issue 28: team figures on %s', (_name, makeDb, available) => {
  it.skipIf(!available)('answers GET /v1/team and /metrics with the hand-computed figures, the same after a restart, and counts a live bulk decision', async () => {
    const db = await makeDb();
    await seed(db);
    let t: TestService = await startTestService({ db, scorers: SCORERS });
    const keys = t.keys;
    const mia = (await createKey(t.service.store, ['senior'], 'Mia')).key;
    const team = async (query = `community=${C}`) => {
      const response = await t.call(`/v1/team?${query}`, { key: mia });
      expect(response.status, await response.clone().text()).toBe(200);
      return (await response.json()) as TeamFiguresAnswer;
    };
    const metrics = async () => {
      const response = await t.call('/metrics', { key: keys.read });
      expect(response.status).toBe(200);
      return parseMetrics(await response.text());
    };
    try {
      expect(await team()).toEqual(EXPECTED);
      const queue = (await (await t.call(`/v1/queue?community=${C}`, { key: mia })).json()) as { total: number; rows: { player: string }[] };
      expect(queue.rows.map((r) => r.player).sort()).toEqual(['d', 'e', 'f']);
      // `limit` bounds the rows, not the totals.
      const one = await team(`community=${C}&limit=1`);
      expect(one.moderators).toEqual({ total: 3, rows: [EXPECTED.moderators.rows[0]] });
      // Another community's figures are empty; a read key may not ask.
      expect(await team('community=elsewhere')).toMatchObject({ sequence: 0, decisions: { total: 0 }, moderators: { total: 0, rows: [] }, queue: { length: 0, dated: 0 } });
      expect((await t.call(`/v1/team?community=${C}`, { key: keys.read })).status).toBe(403);
      expect((await t.call(`/v1/team?community=${C}&limit=501`, { key: mia })).status).toBe(400);

      const m = await metrics();
      expect(sample(m, 'standing_team_decisions_total', { moderator: 'Mia', kind: 'verdict' })).toBe(3);
      expect(sample(m, 'standing_team_decisions_total', { moderator: 'Mia', kind: 'sanction' })).toBe(1);
      expect(sample(m, 'standing_team_decisions_total', { moderator: 'Bob', kind: 'appeal_decision' })).toBe(1);
      expect(sample(m, 'standing_team_decisions_total', { moderator: 'rule:spam', kind: 'sanction' })).toBe(1);
      expect(sample(m, 'standing_team_decisions_total', { moderator: 'other', kind: 'verdict' })).toBe(0);
      expect(sample(m, 'standing_team_appeals_granted_total', { moderator: 'Mia' })).toBe(1);
      expect(sample(m, 'standing_team_appeals_granted_total', { moderator: 'Bob' })).toBe(0);
      const wait = (suffix: string, labels: Record<string, string>) => sample(m, `standing_team_decision_wait_seconds_${suffix}`, labels);
      expect(wait('bucket', { le: '60', case: 'player', by: 'moderator' })).toBe(0);
      expect(wait('bucket', { le: '300', case: 'player', by: 'moderator' })).toBe(1);
      expect(wait('bucket', { le: '900', case: 'player', by: 'moderator' })).toBe(2);
      expect(wait('bucket', { le: '+Inf', case: 'player', by: 'moderator' })).toBe(2);
      expect(wait('sum', { case: 'player', by: 'moderator' })).toBe(900);
      expect(wait('count', { case: 'player', by: 'rule' })).toBe(1);
      expect(wait('sum', { case: 'appeal', by: 'moderator' })).toBe(300);
      expect(wait('count', { case: 'appeal', by: 'rule' })).toBe(0);
      expect(sample(m, 'standing_team_rule_firings_total', { rule: 'spam', kind: 'sanction' })).toBe(1);
      expect(sample(m, 'standing_team_rule_firings_total', { rule: 'spam', kind: 'proposal' })).toBe(1);
      expect(sample(m, 'standing_team_rule_overturned_total', { rule: 'spam' })).toBe(1);
      expect(sample(m, 'standing_team_queue_players')).toBe(3);
      expect(sample(m, 'standing_team_queue_dated_players')).toBe(2);
      expect(sample(m, 'standing_team_queue_wait_seconds', { quantile: '0.5' })).toBe(300);
      expect(sample(m, 'standing_team_queue_wait_seconds', { quantile: '1' })).toBe(600);
      const teamSamples = (samples: Sample[]) => samples.filter((s) => s.name.startsWith('standing_team_'));

      // A restart reads the same record: the same figures. A scrape computes no queue: the queue's figures come once one is read.
      await t.close();
      t = await startTestService({ db, scorers: SCORERS }, keys);
      const cold = await metrics();
      expect(sample(cold, 'standing_team_queue_players')).toBe(0);
      expect(sample(cold, 'standing_team_queue_wait_seconds', { quantile: '1' })).toBeUndefined();
      const recordOnly = (samples: Sample[]) => teamSamples(samples).filter((s) => !s.name.startsWith('standing_team_queue_'));
      expect(recordOnly(cold)).toEqual(recordOnly(m));
      expect(await team()).toEqual(EXPECTED);
      expect(teamSamples(await metrics())).toEqual(teamSamples(m));

      // A live bulk suspension of d and e: two sanctions by Mia, d's case closed (waiting since 3000 s), e's closing none.
      const before = Date.now();
      const bulk = await t.call('/v1/moderation/bulk', { ...json({ community: C, id: 'sweep-1', players: ['d', 'e'], type: 'sanction', action: 'suspend', until: '2099-01-01T00:00:00Z', reason: 'sweep' }), key: mia });
      expect(bulk.status, await bulk.clone().text()).toBe(201);
      const after = Date.now();
      const live = await team();
      expect(live.decisions).toEqual({ ...EXPECTED.decisions, total: 8, sanctions: 4 });
      expect(live.moderators.rows[0]).toMatchObject({ moderator: 'Mia', decisions: 6, sanctions: 3, cases: 3 });
      const closed = live.waits[0]!;
      expect(closed.count).toBe(3);
      expect(closed.maxSeconds).toBeGreaterThanOrEqual((before - at(3000)) / 1000);
      expect(closed.maxSeconds).toBeLessThanOrEqual((after - at(3000)) / 1000);
      // d and e leave the queue (handled, nothing new): f's appeal is the one dated wait left.
      expect(live.queue).toMatchObject({ length: 1, dated: 1, oldestSeconds: (live.now - at(3300)) / 1000 });
      const m2 = await metrics();
      expect(sample(m2, 'standing_team_decisions_total', { moderator: 'Mia', kind: 'sanction' })).toBe(3);
      expect(sample(m2, 'standing_team_decision_wait_seconds_count', { case: 'player', by: 'moderator' })).toBe(3);
      expect(sample(m2, 'standing_team_queue_players')).toBe(1);
    } finally {
      await t.close();
    }
  });
});
