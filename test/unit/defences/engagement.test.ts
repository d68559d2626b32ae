/**
 * The match defences of `reports` (sharedMatchDays, oneVoicePerMatch) read `match.start` events: in
 * a community that has sent none they stay off, and they engage at its first one (docs/reports.md#defences).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RECOMMENDED_REPORTS_DEFENCES, reports, type ReportsState, type StandingEvent } from '../../../src/index.js';

const DAY = 86_400_000;
const c = 'c';
const played = (player: string, games: number, time = 0): StandingEvent => ({ type: 'played', time, community: c, player, games });
const report = (from: string, to: string, time: number): StandingEvent => ({ type: 'report', time, community: c, from, to });
const start = (match: string, players: string[], time: number): StandingEvent => ({ type: 'match.start', time, community: c, match, players });

function run(events: readonly StandingEvent[], params: Record<string, unknown>): ReportsState {
  const state = reports.initialState(reports.params.resolve(params));
  for (const e of events) reports.evolve(state, e);
  return state;
}
const row = (s: ReportsState, player: string) => reports.rank(s).find((r) => r.player === player)!;

describe('issue 28: the match defences engage at a community’s first match.start', () => {
  const before = [...['a', 'b', 'c', 'x'].map((p) => played(p, 10)), report('b', 'x', DAY), report('c', 'x', DAY)];
  const after = [start('m', ['a', 'x'], 2 * DAY), report('a', 'x', 3 * DAY), report('b', 'x', 3 * DAY)];
  const params = { sharedMatchDays: 30, oneVoicePerMatch: true };

  it('keeps the reports made before it, each its own voice, and ignores a later report without a shared match', () => {
    // Kept: b→x and c→x (before any match.start), a→x (shared match m); b's second report is not.
    // Σ Pt = 40 over Σ n = 3: Nr = 40/3, JP = 10/(40/3) = 0.75 for a, b and c, each its own voice:
    // BP(x) = 3 · 0.75 = 2.25 (b and c as one voice would give 0.75 + 0.75/2 + 0.75/2 = 1.5).
    const state = run([...before, ...after], params);
    expect(row(state, 'x').score).toBeCloseTo(2.25, 12);
    expect(row(state, 'b').reports).toBe(1);
    expect(row(state, 'x').reported).toBe(3);
  });

  it('says which defences wait, per community', () => {
    const waiting = run(before, params);
    expect(reports.dormantDefences!(waiting, c)).toEqual(['sharedMatchDays', 'oneVoicePerMatch']);
    expect(reports.dormantDefences!(waiting, 'elsewhere')).toEqual(['sharedMatchDays', 'oneVoicePerMatch']);
    expect(reports.dormantDefences!(run(before, { sharedMatchDays: 30 }), c)).toEqual(['sharedMatchDays']);
    expect(reports.dormantDefences!(run([...before, ...after], params), c)).toEqual([]);
    expect(reports.dormantDefences!(run(before, {}), c)).toEqual([]); // off: nothing waits
  });

  it('ranks a community that never sends match.start as the recommended defences without the match ones do', () => {
    const players = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'];
    const player = fc.constantFrom(...players);
    const event = fc.oneof(
      fc.record({ type: fc.constant('played' as const), player, games: fc.integer({ min: 1, max: 30 }) }),
      { arbitrary: fc.record({ type: fc.constant('report' as const), from: player, to: player }), weight: 3 },
      fc.record({ type: fc.constant('verdict' as const), on: fc.constant('report' as const), from: player, to: player, outcome: fc.constantFrom('upheld' as const, 'dismissed' as const) }),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), (raw) => {
        const events = raw.map((e, i) => ({ ...e, time: i * DAY, community: c }) as StandingEvent);
        const recommended = run(events, RECOMMENDED_REPORTS_DEFENCES);
        const withoutMatches = run(events, { ...RECOMMENDED_REPORTS_DEFENCES, sharedMatchDays: 0, oneVoicePerMatch: false });
        expect(reports.rank(recommended)).toEqual(reports.rank(withoutMatches));
      }),
      { seed: 28, numRuns: 200 },
    );
  });
});
