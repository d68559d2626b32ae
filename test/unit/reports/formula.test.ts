/**
 * The reports scorer (through initialState, evolve, rank and stats) against its formula
 * (src/scorers/reports/formula.ts, docs/spec.md §5) on random communities: games, reports and
 * moderators' verdicts, with the defences off (the paper's method) and on. The formula's inputs
 * are read from the events here, by the rules of docs/spec.md §5 and docs/reports.md#defences.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reports, type ReportsParams, type StandingEvent } from '../../../src/index.js';
import { defenceFactors, judgmentPoints, type JudgedReport } from '../../../src/scorers/reports/formula.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const PLAYERS = ['a', 'b', 'c', 'd', 'e', 'f'];

type Step =
  | { kind: 'played'; player: string; games: number }
  | { kind: 'report'; from: string; to: string }
  | { kind: 'match'; players: string[]; ends: boolean }
  /** A verdict on the pair of one of the reports made so far (the n-th, counted modulo their number). */
  | { kind: 'verdict'; report: number; outcome: 'upheld' | 'dismissed' };

const player = fc.constantFrom(...PLAYERS);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('played' as const), player, games: fc.integer({ min: 1, max: 20 }) }),
  { arbitrary: fc.record({ kind: fc.constant('report' as const), from: player, to: player }), weight: 3 },
  fc.record({ kind: fc.constant('match' as const), players: fc.subarray(PLAYERS, { minLength: 2, maxLength: 4 }), ends: fc.boolean() }),
  fc.record({ kind: fc.constant('verdict' as const), report: fc.nat(), outcome: fc.constantFrom('upheld' as const, 'dismissed' as const) }),
);
/** Steps, each some hours after the one before. */
const history = fc.array(fc.tuple(step, fc.integer({ min: 0, max: 10 })), { minLength: 1, maxLength: 40, size: 'max' });

function eventsOf(steps: readonly (readonly [Step, number])[]): StandingEvent[] {
  const events: StandingEvent[] = [];
  const pairs: { from: string; to: string }[] = [];
  let time = 0;
  steps.forEach(([s, hours], i) => {
    time += hours * HOUR_MS;
    const base = { time, community: 'c' };
    if (s.kind === 'played') events.push({ ...base, type: 'played', player: s.player, games: s.games });
    else if (s.kind === 'report') {
      events.push({ ...base, type: 'report', from: s.from, to: s.to });
      pairs.push({ from: s.from, to: s.to });
    } else if (s.kind === 'verdict') {
      if (pairs.length > 0) events.push({ ...base, type: 'verdict', on: 'report', ...pairs[s.report % pairs.length]!, outcome: s.outcome });
    } else {
      events.push({ ...base, type: 'match.start', match: `m${i}`, players: s.players });
      if (s.ends) events.push({ ...base, type: 'match.end', match: `m${i}` });
    }
  });
  return events;
}

/**
 * Games and kept reports read from the events: a finished match is a game for each of its
 * players; a report of oneself is not kept, nor, with the shared-match window engaged (from the
 * first match.start on), one whose players started no match together within it before the report
 * (it is attributed to the latest they did); a verdict judges the reports its reporter filed
 * about its player before it.
 */
function inputsOf(events: readonly StandingEvent[], p: ReportsParams): { games: Map<string, number>; kept: JudgedReport[] } {
  const games = new Map<string, number>();
  const add = (id: string, n: number) => games.set(id, (games.get(id) ?? 0) + n);
  const kept: (JudgedReport & { verdict?: 'upheld' | 'dismissed' })[] = [];
  const started: { match: string; time: number; players: readonly string[] }[] = [];
  const window = p.sharedMatchDays * DAY_MS;
  for (const e of events) {
    if (e.type === 'played') add(e.player, e.games);
    else if (e.type === 'match.start') started.push({ match: e.match, time: e.time, players: e.players });
    else if (e.type === 'match.end') for (const id of new Set(started.find((m) => m.match === e.match)!.players)) add(id, 1);
    else if (e.type === 'report' && e.from !== e.to) {
      const together = started.filter((m) => e.time - m.time <= window && m.players.includes(e.from) && m.players.includes(e.to)).at(-1);
      const engaged = window > 0 && started.length > 0;
      if (engaged && together === undefined) continue;
      kept.push({ from: e.from, to: e.to, ...(engaged ? { match: together!.match } : {}) });
      add(e.from, 0);
      add(e.to, 0);
    } else if (e.type === 'verdict') {
      for (const r of kept) if (r.from === e.from && r.to === e.to) r.verdict = e.outcome;
    }
  }
  return { games, kept };
}

/** Replays `events` through the scorer with `params` and holds every row and the iteration to the formula's. */
function agrees(events: readonly StandingEvent[], params: Partial<ReportsParams>): void {
  const state = reports.initialState(reports.params.resolve(params));
  for (const e of events) reports.evolve(state, e);
  const p = state.params;
  const { games, kept } = inputsOf(events, p);
  const { weights, accuracy } = defenceFactors(kept, p);
  const expected = judgmentPoints({ games, reports: kept, weights, accuracy, judgmentSplit: p.judgmentSplit }, p);
  const rows = reports.rank(state);
  expect(rows.map((r) => r.player).sort()).toEqual([...games.keys()].sort());
  for (const row of rows) {
    expect(Math.abs(row.score - expected.bp.get(row.player)!)).toBeLessThanOrEqual(1e-12);
    expect(Math.abs(row.jp - expected.jp.get(row.player)!)).toBeLessThanOrEqual(1e-12);
    expect(row.games).toBe(games.get(row.player));
  }
  // Rank 1 is the worst: the rows are in the formula's order of BP (ties within rounding aside).
  for (let r = 1; r < rows.length; r++) expect(expected.bp.get(rows[r - 1]!.player)!).toBeGreaterThanOrEqual(expected.bp.get(rows[r]!.player)! - 1e-12);
  if (rows.length === 0) return;
  const [stats] = reports.stats!(state, 'c');
  expect(stats!.iterations).toBe(expected.residuals.length);
  expect(stats!.converged).toBe(expected.converged);
}

describe('issue 26: reports equals its formula on random communities', () => {
  it('with every defence off: the paper’s method (docs/spec.md §5)', () => {
    fc.assert(
      fc.property(history, fc.constantFrom(0.5, 0.3, 1), (steps, damping) => agrees(eventsOf(steps), { damping, tolerance: 1e-12 })),
      { seed: 26, numRuns: 200 },
    );
  });

  it('with the judgment split, one voice per reporter and moderators’ verdicts', () => {
    const defences = fc.record({
      judgmentSplit: fc.constantFrom(1, 3),
      oneVoicePerReporter: fc.boolean(),
      accuracyPrior: fc.constantFrom(Infinity, 0.5, 2),
    });
    fc.assert(
      fc.property(history, defences, (steps, d) => agrees(eventsOf(steps), { ...d, tolerance: 1e-12 })),
      { seed: 27, numRuns: 150 },
    );
  });

  it('with the shared-match window and one voice per match', () => {
    const defences = fc.record({
      oneVoicePerMatch: fc.boolean(),
      oneVoicePerReporter: fc.boolean(),
      judgmentSplit: fc.constantFrom(1, 2),
      accuracyPrior: fc.constantFrom(Infinity, 1),
    });
    fc.assert(
      fc.property(history, defences, (steps, d) => agrees(eventsOf(steps), { ...d, sharedMatchDays: 1, tolerance: 1e-12 })),
      { seed: 28, numRuns: 150 },
    );
  });
});
