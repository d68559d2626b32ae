/** The report defences (docs/abuse.md) on hand-worked cases; the arithmetic is in the comments. */
import { describe, expect, it } from 'vitest';
import { ParameterError, reports, type ReportsState, type StandingEvent } from '../../../src/index.js';

const DAY = 86_400_000;
const c = 'c';
const played = (player: string, games: number, time = 0): StandingEvent => ({ type: 'played', time, community: c, player, games });
const report = (from: string, to: string, time: number, id?: string): StandingEvent => ({ type: 'report', time, community: c, from, to, ...(id === undefined ? {} : { id }) });
const start = (match: string, players: string[], time: number): StandingEvent => ({ type: 'match.start', time, community: c, match, players });
const end = (match: string, time: number): StandingEvent => ({ type: 'match.end', time, community: c, match });
const verdict = (outcome: 'upheld' | 'dismissed', on: { report: string } | { from: string; to: string }, time: number): StandingEvent => ({ type: 'verdict', time, community: c, on: 'report', outcome, ...on });

function run(events: readonly StandingEvent[], params: Record<string, unknown> = {}): ReportsState {
  const state = reports.initialState(reports.params.resolve(params));
  for (const e of events) reports.evolve(state, e);
  return state;
}
const points = (s: ReportsState) => Object.fromEntries(reports.rank(s).map((r) => [r.player, r.score]));

describe('sharedMatchDays: a report counts only after a match shared within the window', () => {
  // a and x start a match on day 0, c and x too; b never plays with x. Everyone has 10 games.
  // a reports x on day 1 (counts), b on day 1 (no shared match), c on day 40 (out of a 30-day window).
  const events = [
    start('m1', ['a', 'x'], 0),
    start('m2', ['c', 'x'], 0),
    ...['a', 'b', 'c', 'x'].map((p) => played(p, 10)),
    report('a', 'x', DAY),
    report('b', 'x', DAY),
    report('c', 'x', 40 * DAY),
  ];

  it('ignores the other two reports entirely', () => {
    // Σ Pt = 40 over Σ n = 1 report: Nr = 40, JP(a) = 10/40 = 0.25 and BP(x) = 0.25/1.
    const defended = run(events, { sharedMatchDays: 30 });
    expect(points(defended).x).toBe(0.25);
    expect(reports.rank(defended).find((r) => r.player === 'b')!.reports).toBe(0);
    // Published: Nr = 40/3, each reporter has JP 0.75, BP(x) = 3 · 0.75.
    expect(points(run(events)).x).toBeCloseTo(2.25, 12);
  });

  it('keeps a match within the window counted from its start, whatever happened since', () => {
    expect(points(run(events, { sharedMatchDays: 40 })).x).toBeCloseTo(2 * (10 / (40 / 2)), 12); // a and c count: Nr = 20, JP 0.5 each
  });

  it('ignores a report dated before the match it would share', () => {
    // a and x start m on day 5; a reports x on day 1 (before the match: ignored) and again on day 6.
    // Everyone has 10 games: Σ Pt = 20 over Σ n = 1 counted report, Nr = 20, JP(a) = 10/20 = 0.5 = BP(x).
    const early = [start('m', ['a', 'x'], 5 * DAY), played('a', 10), played('x', 10), report('a', 'x', DAY)];
    const defended = run(early, { sharedMatchDays: 30 });
    expect(reports.rank(defended).find((r) => r.player === 'a')!.reports).toBe(0);
    expect(points(defended).x).toBe(0);
    expect(points(run([...early, report('a', 'x', 6 * DAY)], { sharedMatchDays: 30 })).x).toBe(0.5);
  });

  it('issue 24: reads the community clock, which every event moves: a far-future report pushes earlier matches out of the window, as --now does', () => {
    // a and x start m0 on day 0; b reports a on day 1000 (no shared match: ignored), which moves the
    // clock to day 1000. a and x start m on day 2 — already more than 30 days before the clock — and
    // a reports x on day 3: no match shared within the window is kept, so the report counts nothing.
    const future = [played('a', 10), played('b', 10), played('x', 10), start('m0', ['a', 'x'], 0), report('b', 'a', 1000 * DAY), start('m', ['a', 'x'], 2 * DAY), report('a', 'x', 3 * DAY)];
    expect(points(run(future, { sharedMatchDays: 30 })).x).toBe(0);
    // The same log with the far-future event replaced by a chat of the same day: the same.
    const chat = { type: 'chat', time: 1000 * DAY, community: c, from: 'b', to: ['a'] } as StandingEvent;
    expect(points(run(future.map((e) => (e.type === 'report' && e.from === 'b' ? chat : e)), { sharedMatchDays: 30 })).x).toBe(0);
    // Without it, the report counts: Σ Pt = 30 over 1 report, Nr = 30, JP(a) = 1/3 = BP(x).
    expect(points(run(future.filter((e) => !(e.type === 'report' && e.from === 'b')), { sharedMatchDays: 30 })).x).toBeCloseTo(1 / 3, 15);
  });

  it("forgets the matches of players who play no more once they leave the window, also after a restore", () => {
    // a and x start m1 on day 0 and never play again; b and y start m2 on day 40: with a 30-day window,
    // m1 is forgotten, and a's report of x on day 41 does not count.
    const window = { sharedMatchDays: 30 };
    const kept = (s: ReportsState) => {
      const d = (JSON.parse([reports.snapshot(s, c)!].flat().join('')) as { defended: { recent: [string, number[]][]; shared: unknown[] } }).defended;
      return { players: d.recent.map(([p]) => p).sort(), matches: d.shared.length };
    };
    const first = [start('m1', ['a', 'x'], 0)];
    const rest = [start('m2', ['b', 'y'], 40 * DAY), report('a', 'x', 41 * DAY)];
    const whole = run([...first, ...rest], window);
    expect(kept(whole)).toEqual({ players: ['b', 'y'], matches: 1 });
    const games = [played('a', 10), played('x', 10)];
    expect(points(run([...games, ...first, ...rest], window)).x).toBe(0); // a's report of x counts nothing
    expect(points(run([...games, ...first, ...rest], { sharedMatchDays: 50 })).x).toBeGreaterThan(0); // as it does with m1 in the window
    // Restored from a checkpoint holding m1, the same.
    const restored = reports.initialState(reports.params.resolve(window));
    reports.restore(restored, c, reports.snapshot(run(first, window), c));
    for (const e of rest) reports.evolve(restored, e);
    expect(kept(restored)).toEqual({ players: ['b', 'y'], matches: 1 });
  });
});

describe('oneVoicePerMatch: the reports of one player from one match weigh as one reporter', () => {
  // a, b and x play m1; c and x play m2; each then has 10 games. a and b report x after m1, c after m2.
  // Σ Pt = 40, Σ n = 3: Nr = 40/3 and JP(a) = JP(b) = JP(c) = 0.75.
  const events = [
    start('m1', ['a', 'b', 'x'], 0),
    end('m1', 1),
    start('m2', ['c', 'x'], 2),
    end('m2', 3),
    played('a', 9),
    played('b', 9),
    played('c', 9),
    played('x', 8),
    report('a', 'x', 4),
    report('b', 'x', 4),
    report('c', 'x', 4),
  ];

  it('halves the two voices of m1', () => {
    // BP(x) = 0.75/2 + 0.75/2 + 0.75 = 1.5 (published: 2.25)
    expect(points(run(events, { sharedMatchDays: 1, oneVoicePerMatch: true })).x).toBeCloseTo(1.5, 12);
    expect(points(run(events, { sharedMatchDays: 1 })).x).toBeCloseTo(2.25, 12);
    expect(points(run(events)).x).toBeCloseTo(2.25, 12);
  });

  it('shows each report at its weight in the explanation', () => {
    const e = reports.explain(run(events, { sharedMatchDays: 1, oneVoicePerMatch: true }), c, 'x')!;
    expect(e.reportedBy.map((r) => [r.reporter, r.weight])).toEqual([
      ['c', 0.75],
      ['a', 0.375],
      ['b', 0.375],
    ]);
  });

  it('needs the shared-match window', () => {
    expect(() => reports.params.resolve({ oneVoicePerMatch: true })).toThrow(ParameterError);
    expect(() => reports.params.resolve({ oneVoicePerMatch: true })).toThrow(/needs sharedMatchDays > 0/);
  });
});

describe('oneVoicePerReporter: a reporter\'s reports of one player weigh as one report', () => {
  it('halves the weight of a report filed twice', () => {
    // a reports x twice and y once, b reports x. 10 games each: Σ Pt = 40, Σ n = 4, Nr = 10, JP(a) = JP(b) = 1.
    // Published: BP(x) = 2 · 1/3 + 1 = 5/3, BP(y) = 1/3. One voice per reporter: BP(x) = 2 · (1/3)/2 + 1 = 4/3.
    const events = [...['a', 'b', 'x', 'y'].map((p) => played(p, 10)), report('a', 'x', 1), report('a', 'x', 2), report('a', 'y', 3), report('b', 'x', 4)];
    expect(points(run(events)).x).toBeCloseTo(5 / 3, 14);
    const defended = points(run(events, { oneVoicePerReporter: true }));
    expect(defended.x).toBeCloseTo(4 / 3, 14);
    expect(defended.y).toBeCloseTo(1 / 3, 14);
  });
});

describe('judgmentSplit: a report carries at most JP/judgmentSplit', () => {
  it('splits the judgment of a reporter with fewer reports over judgmentSplit', () => {
    // a reports x; b reports x, y and z. 10 games each for a, b, x, y, z: Σ Pt = 50, Σ n = 4,
    // Nr = 12.5, JP(a) = JP(b) = 0.8. Split 2: a's report carries 0.8/2, b's each 0.8/3 (3 ≥ 2).
    const events = [...['a', 'b', 'x', 'y', 'z'].map((p) => played(p, 10)), report('a', 'x', 1), report('b', 'x', 1), report('b', 'y', 1), report('b', 'z', 1)];
    expect(points(run(events)).x).toBeCloseTo(0.8 + 0.8 / 3, 14);
    const defended = points(run(events, { judgmentSplit: 2 }));
    expect(defended.x).toBeCloseTo(0.4 + 0.8 / 3, 14);
    expect(defended.y).toBeCloseTo(0.8 / 3, 14);
  });
});

describe('accuracyPrior: verdicts weigh each reporter by its smoothed accuracy', () => {
  // a reports x (r1) and y (r3), b reports x (r2). Everyone has 10 games: Σ Pt = 40, Σ n = 3,
  // Nr = 40/3, JP(a) = JP(b) = 0.75 (nobody reports them); a's share per report is 0.75/2.
  const base = [...['a', 'b', 'x', 'y'].map((p) => played(p, 10)), report('a', 'x', 1, 'r1'), report('b', 'x', 1, 'r2'), report('a', 'y', 1, 'r3')];

  it('a dismissed report counts nothing, and its reporter keeps s/(1 + s) of its judgment', () => {
    const s = run([...base, verdict('dismissed', { report: 'r1' }, 2)], { accuracyPrior: 0.1 });
    // BP(x) = 0 (r1 dismissed) + 0.75/1 (b); BP(y) = a(a) · 0.75/2 with a(a) = 0.1/(1 + 0.1) = 1/11
    expect(points(s).x).toBe(0.75);
    expect(points(s).y).toBeCloseTo(0.75 / 22, 14);
    expect(reports.explain(s, c, 'y')!.reportedBy[0]!.weight).toBeCloseTo(0.75 / 22, 14);
  });

  it('an upheld report restores judgment: (u + s)/(u + d + s)', () => {
    const s = run([...base, verdict('dismissed', { report: 'r1' }, 2), verdict('upheld', { from: 'a', to: 'y' }, 3)], { accuracyPrior: 0.1 });
    // u = 1, d = 1: a(a) = 1.1/2.1; BP(y) = a(a) · 0.375
    expect(points(s).y).toBeCloseTo((1.1 / 2.1) * 0.375, 14);
  });

  it('a later verdict on the same report replaces the earlier one; a verdict by from and to judges every such report', () => {
    const reversed = run([...base, verdict('dismissed', { report: 'r1' }, 2), verdict('upheld', { report: 'r1' }, 3)], { accuracyPrior: 0.1 });
    // r1 upheld, nothing dismissed: a(a) = 1, the published points
    expect(points(reversed)).toEqual(points(run(base)));
    const twice = run([...base, report('a', 'x', 1), verdict('dismissed', { from: 'a', to: 'x' }, 2)], { accuracyPrior: 0.1 });
    // n(a) = 3, both reports of x by a dismissed: a(a) = 0.1/2.1; Σ n = 4, Nr = 10, JP = 1: BP(y) = a(a)/3, BP(x) = 1 (b)
    expect(points(twice).x).toBe(1);
    expect(points(twice).y).toBeCloseTo(0.1 / 2.1 / 3, 14);
  });

  it('verdicts on unknown reports, in unknown communities, or with the defence off change nothing', () => {
    const published = points(run(base));
    expect(points(run([...base, verdict('dismissed', { report: 'r9' }, 2), verdict('dismissed', { from: 'x', to: 'a' }, 2)], { accuracyPrior: 0.1 }))).toEqual(published);
    expect(points(run([...base, verdict('dismissed', { report: 'r1' }, 2)]))).toEqual(published);
    const other = run([{ type: 'verdict', time: 0, community: 'elsewhere', on: 'report', outcome: 'upheld', report: 'r1' }]);
    expect(reports.communities(other)).toEqual([]);
  });
});

describe('issue 17: a verdict on a player judges every report about them filed before it', () => {
  const onPlayer = (outcome: 'upheld' | 'dismissed', player: string, time: number): StandingEvent => ({ type: 'verdict', time, community: c, on: 'player', player, outcome, moderator: 'ana' });
  const base = [...['a', 'b', 'x', 'y'].map((p) => played(p, 10)), report('a', 'x', 1, 'r1'), report('b', 'x', 1, 'r2'), report('a', 'y', 1, 'r3')];

  it('dismissing x dismisses r1 and r2, like a pair verdict for each reporter', () => {
    const byPlayer = run([...base, onPlayer('dismissed', 'x', 2)], { accuracyPrior: 0.1 });
    const byPairs = run([...base, verdict('dismissed', { from: 'a', to: 'x' }, 2), verdict('dismissed', { from: 'b', to: 'x' }, 2)], { accuracyPrior: 0.1 });
    expect(points(byPlayer)).toEqual(points(byPairs));
    // BP(x) = 0 (both dismissed); a(a) = 0.1/1.1: BP(y) = 0.75/2 · 1/11
    expect(points(byPlayer).x).toBe(0);
    expect(points(byPlayer).y).toBeCloseTo(0.75 / 22, 14);
  });

  it('a later verdict replaces it, reports filed after it stay unjudged, and with the defence off it changes nothing', () => {
    const reversed = run([...base, onPlayer('dismissed', 'x', 2), onPlayer('upheld', 'x', 3)], { accuracyPrior: 0.1 });
    expect(points(reversed)).toEqual(points(run(base)));
    const later = run([...base, onPlayer('dismissed', 'y', 2), report('b', 'y', 3, 'r4')], { accuracyPrior: 0.1 });
    const byId = run([...base, verdict('dismissed', { report: 'r3' }, 2), report('b', 'y', 3, 'r4')], { accuracyPrior: 0.1 });
    expect(points(later)).toEqual(points(byId));
    expect(points(run([...base, onPlayer('dismissed', 'x', 2)]))).toEqual(points(run(base)));
    expect(points(run([...base, onPlayer('dismissed', 'nobody', 2)], { accuracyPrior: 0.1 }))).toEqual(points(run(base, { accuracyPrior: 0.1 })));
  });
});
