/** Bad-player ranking from reports (docs/spec.md §5) on hand-worked cases; the arithmetic is in the comments. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reports, type ReportsState, type StandingEvent } from '../../../src/index.js';

const report = (from: string, to: string): StandingEvent => ({ type: 'report', time: 0, community: 'c', from, to });
const played = (player: string, games: number): StandingEvent => ({ type: 'played', time: 0, community: 'c', player, games });

function run(events: readonly StandingEvent[], params: Record<string, unknown> = {}): ReportsState {
  const state = reports.initialState(reports.params.resolve(params));
  for (const e of events) reports.evolve(state, e);
  return state;
}
const table = (s: ReportsState) => Object.fromEntries(reports.rank(s).map((r) => [r.player, [r.score, r.jp]]));

describe('judgment and bad-player points', () => {
  // Four players with 10 games each; a, b, c report d, and d reports a. Σ Pt = 40, Σ n = 4:
  // Nr = 10 games per report, so each player earns Pt/Nr = 1 judgment point.
  //   JP(b) = JP(c) = 1 (nobody reports them); JP(d) = max(0, 1 − (JP(a) + JP(b) + JP(c))) = 0,
  //   so JP(a) = max(0, 1 − JP(d)/1) = 1; BP(d) = 1 + 1 + 1 = 3, BP(a) = JP(d) = 0.
  const events = [...['a', 'b', 'c', 'd'].map((p) => played(p, 10)), report('a', 'd'), report('b', 'd'), report('c', 'd'), report('d', 'a')];

  it('reaches the fixed point', () => {
    const t = table(run(events));
    expect(t.d![0]).toBeCloseTo(3, 8);
    expect(t.d![1]).toBeCloseTo(0, 8);
    expect(t.a![0]).toBeCloseTo(0, 8);
    expect(t.a![1]).toBeCloseTo(1, 8);
    expect(reports.rank(run(events))[0]).toMatchObject({ rank: 1, player: 'd', games: 10, reports: 1 });
  });

  it('damps: the first steps follow JP ← ½ JP_old + ½ JP_new', () => {
    // from JP = 1 everywhere: step 1 BP(a) = 1, BP(d) = 3 → JP(a) = ½·1 + ½·0 = 0.5, JP(d) = 0.5;
    // step 2: BP(a) = 0.5 → JP(a) = ½·0.5 + ½·0.5 = 0.5; BP(d) = 2.5 → JP(d) = 0.25
    const t = table(run(events, { maxIterations: 2 }));
    expect(t.a![1]).toBe(0.5);
    expect(t.d![1]).toBe(0.25);
    // BP is recomputed from the final JP: BP(d) = 0.5 + 1 + 1, BP(a) = 0.25
    expect(t.d![0]).toBe(2.5);
    expect(t.a![0]).toBe(0.25);
  });

  it('splits a reporter’s judgment over all its reports', () => {
    // a reports x twice and y once: n(a) = 3. Σ Pt = 20 (a, x), Σ n = 3: Nr = 20/3, JP(a) = 10/(20/3) = 1.5
    // BP(x) = 2 · 1.5/3 = 1, BP(y) = 1.5/3 = 0.5
    const t = table(run([played('a', 10), played('x', 10), report('a', 'x'), report('a', 'x'), report('a', 'y')]));
    expect(t.x![0]).toBeCloseTo(1, 12);
    expect(t.y![0]).toBeCloseTo(0.5, 12);
  });

  it('counts a game for every player of a finished match, ignores self-reports and lists everyone involved', () => {
    const s = run([
      { type: 'match.start', time: 0, community: 'c', match: 'm', players: ['a', 'b'] },
      { type: 'match.end', time: 1, community: 'c', match: 'm' },
      { type: 'match.end', time: 2, community: 'c', match: 'm' }, // already ended: nothing
      report('a', 'a'),
      report('a', 'z'),
    ]);
    const rows = reports.rank(s);
    expect(rows.map((r) => [r.player, r.games, r.reports])).toEqual([
      ['z', 0, 0],
      ['a', 1, 1],
      ['b', 1, 0],
    ]);
    // Σ Pt = 2, Σ n = 1: Nr = 2; JP(a) = 1/2; BP(z) = 0.5
    expect(rows[0]!.score).toBeCloseTo(0.5, 12);
  });

  it('issue 14: counts the games of a player whose first event is `played`, whenever the arrays grow for it', () => {
    // 1,030 players: the per-player arrays grow several times, once exactly at a `played`.
    const state = reports.initialState(reports.params.resolve({}));
    for (let i = 0; i < 1030; i++) reports.evolve(state, { type: 'played', time: i, community: 'c', player: `p${i}`, games: 1 + (i % 3) });
    const games = new Map(reports.rank(state, { community: 'c' }).map((r) => [r.player, r.games]));
    for (let i = 0; i < 1030; i++) expect(games.get(`p${i}`)).toBe(1 + (i % 3));
  });

  it('gives everyone 0 without reports or without games', () => {
    expect(reports.rank(run([played('a', 5)])).map((r) => [r.score, r.jp])).toEqual([[0, 0]]);
    expect(reports.rank(run([report('a', 'b')])).map((r) => [r.score, r.jp])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });

  it('explains a score by the reports against the player', () => {
    const e = reports.explain(run(events), 'c', 'd')!;
    expect(e.reportedBy.map((r) => r.reporter).sort()).toEqual(['a', 'b', 'c']); // heaviest first: b, c (JP 1), then a (JP → 1)
    expect(e.reportedBy.reduce((s, r) => s + r.weight, 0)).toBeCloseTo(e.score, 12);
    expect(e.gamesPerReport).toBe(10);
  });
});

describe('invariants (property)', () => {
  const ev = fc.oneof(
    fc.record({ r: fc.integer({ min: 0, max: 6 }), u: fc.integer({ min: 0, max: 6 }) }).map(({ r, u }) => report(`p${r}`, `p${u}`)),
    fc.record({ p: fc.integer({ min: 0, max: 6 }), g: fc.integer({ min: 1, max: 20 }) }).map(({ p, g }) => played(`p${p}`, g)),
  );
  it('each reporter’s total influence equals its JP; JP and BP are never negative', () => {
    fc.assert(
      fc.property(fc.array(ev, { maxLength: 60 }), (events) => {
        const s = run(events);
        const c = s.communities.get('c');
        if (c === undefined) return true;
        const { jp, bp } = c.compute();
        const influence = new Float64Array(jp.length);
        for (let e = 0; e < c.reports; e++) influence[c.from[e]!]! += jp[c.from[e]!]! / c.made[c.from[e]!]!;
        for (let k = 0; k < jp.length; k++) {
          if (jp[k]! < 0 || bp[k]! < 0) return false;
          if (c.made[k]! > 0 && Math.abs(influence[k]! - jp[k]!) > 1e-9 * Math.max(1, jp[k]!)) return false;
        }
        const totalBp = bp.reduce((a, b) => a + b, 0);
        const totalJpOfReporters = Array.from(jp).reduce((a, x, k) => a + (c.made[k]! > 0 ? x : 0), 0);
        return Math.abs(totalBp - totalJpOfReporters) < 1e-9 * Math.max(1, totalBp);
      }),
      { seed: 4, numRuns: 300 },
    );
  });
});

describe('issue 27: state a defence keeps is made on its first use', () => {
  const verdicts: StandingEvent[] = [
    { type: 'verdict', time: 0, community: 'c', on: 'report', outcome: 'upheld', report: 'r1' },
    { type: 'verdict', time: 0, community: 'c', on: 'report', outcome: 'dismissed', from: 'a', to: 'd' },
  ];
  const log: StandingEvent[] = [
    ...['a', 'b', 'd'].map((p) => played(p, 10)),
    { type: 'match.start', time: 10, community: 'c', match: 'm', players: ['a', 'd'] },
    { type: 'report', time: 20, community: 'c', id: 'r1', from: 'a', to: 'd' },
    { type: 'report', time: 30, community: 'c', id: 'r2', from: 'b', to: 'd' },
    ...verdicts,
  ];
  const settings = [{ sharedMatchDays: 30 }, { oneVoicePerMatch: true, sharedMatchDays: 30 }, { oneVoicePerReporter: true }, { judgmentSplit: 5 }, { accuracyPrior: 0.1 }];

  it('verdicts before any report change nothing, and a snapshot at every point goes on to the same state', () => {
    for (const params of settings) {
      expect(reports.snapshot(run([...verdicts, ...log], params), 'c')).toEqual(reports.snapshot(run(log, params), 'c'));
      const whole = run(log, params);
      for (let cut = 1; cut < log.length; cut++) {
        const restored = reports.initialState(reports.params.resolve(params));
        reports.restore(restored, 'c', reports.snapshot(run(log.slice(0, cut), params), 'c'));
        for (const e of log.slice(cut)) reports.evolve(restored, e);
        expect(reports.snapshot(restored, 'c')).toEqual(reports.snapshot(whole, 'c'));
        expect(table(restored)).toEqual(table(whole));
      }
    }
  });
});
