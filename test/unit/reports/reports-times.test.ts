/**
 * issue 17: each report kept carries its event time into the explanation, through checkpoints,
 * and never into the ranking. A checkpoint written without the times is refused (the service
 * then replays the community from its log, which has them).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reports, type ReportsState, type StandingEvent } from '../../../src/index.js';

const HOUR = 3_600_000;
const report = (from: string, to: string, time: number): StandingEvent => ({ type: 'report', time, community: 'c', from, to });
const played = (player: string, games: number): StandingEvent => ({ type: 'played', time: 0, community: 'c', player, games });

function run(events: readonly StandingEvent[], params: Record<string, unknown> = {}): ReportsState {
  const state = reports.initialState(reports.params.resolve(params));
  for (const e of events) reports.evolve(state, e);
  return state;
}

// a, b, c play 10 games each, d none: Σ Pt = 30 over 3 reports, Nr = 10, so a, b, c earn 1
// judgment point each and d 0. b reports a at 1 h, c at 3 h, d at 5 h: JP(b) = JP(c) = 1
// (nobody reports them), each report of theirs weighs 1; d's weighs 0. BP(a) = 2.
const events = [played('a', 10), played('b', 10), played('c', 10), report('b', 'a', HOUR), report('c', 'a', 3 * HOUR), report('d', 'a', 5 * HOUR)];

describe('issue 17: report times', () => {
  it('dates each report in the explanation, heaviest first, then by reporter', () => {
    const e = reports.explain(run(events), 'c', 'a')!;
    expect(e.score).toBe(2);
    expect(e.reportedBy).toEqual([
      { reporter: 'b', reporterJp: 1, reporterReports: 1, weight: 1, time: HOUR },
      { reporter: 'c', reporterJp: 1, reporterReports: 1, weight: 1, time: 3 * HOUR },
      { reporter: 'd', reporterJp: 0, reporterReports: 1, weight: 0, time: 5 * HOUR },
    ]);
  });

  it('lists one entry per report, the same reporter’s oldest first among equal weights', () => {
    const again = [...events, report('b', 'a', 7 * HOUR), report('b', 'c', 8 * HOUR)];
    const e = reports.explain(run(again), 'c', 'a')!;
    // b filed 3 reports now: each of b's weighs JP(b)/3.
    expect(e.reportedBy.map((r) => [r.reporter, r.time])).toEqual([
      ['c', 3 * HOUR],
      ['b', HOUR],
      ['b', 7 * HOUR],
      ['d', 5 * HOUR],
    ]);
    expect(reports.explain(run(again), 'c', 'c')!.reportedBy.map((r) => [r.reporter, r.time])).toEqual([['b', 8 * HOUR]]);
    expect(reports.explain(run(again), 'c', 'b')!.reportedBy).toEqual([]);
  });

  it('keeps the times through a checkpoint, and the reports after it get theirs', () => {
    const state = run(events.slice(0, 5));
    const snapshot = reports.snapshot(state, 'c')!;
    expect(JSON.parse(snapshot as string)).toHaveProperty('times');
    const restored = reports.initialState(reports.params.resolve({}));
    reports.restore(restored, 'c', snapshot);
    for (const e of events.slice(5)) reports.evolve(restored, e);
    expect(reports.explain(restored, 'c', 'a')).toEqual(reports.explain(run(events), 'c', 'a'));
    expect(reports.snapshot(restored, 'c')).toBe(reports.snapshot(run(events), 'c'));
  });

  it('refuses a checkpoint written without report times, or with times for other reports than it holds', () => {
    const snapshot = JSON.parse(reports.snapshot(run(events), 'c') as string) as Record<string, unknown>;
    const { times, ...legacy } = snapshot;
    const fresh = () => reports.initialState(reports.params.resolve({}));
    expect(() => reports.restore(fresh(), 'c', JSON.stringify(legacy))).toThrow('reports checkpoint: written without report times (by an earlier version); the log has them');
    const shorter = JSON.parse(reports.snapshot(run(events.slice(0, 4)), 'c') as string) as Record<string, unknown>;
    expect(() => reports.restore(fresh(), 'c', JSON.stringify({ ...snapshot, times: shorter.times }))).toThrow('reports checkpoint: 1 report times for 3 reports');
    expect(typeof times).toBe('string');
  });

  it('leaves the ranking bit for bit what it is with every time moved (property)', () => {
    const ev = fc.oneof(
      fc.record({ r: fc.integer({ min: 0, max: 6 }), u: fc.integer({ min: 0, max: 6 }), t: fc.integer({ min: 0, max: 1e12 }) }).map(({ r, u, t }) => report(`p${r}`, `p${u}`, t)),
      fc.record({ p: fc.integer({ min: 0, max: 6 }), g: fc.integer({ min: 1, max: 20 }) }).map(({ p, g }) => played(`p${p}`, g)),
    );
    fc.assert(
      fc.property(fc.array(ev, { maxLength: 60 }), (log) => {
        const rows = (l: readonly StandingEvent[]) => reports.rank(run(l)).map((r) => [r.player, Object.is(r.score, -0) ? '-0' : r.score, r.jp]);
        expect(rows(log)).toEqual(rows(log.map((e) => ({ ...e, time: 0 }))));
      }),
      { seed: 17, numRuns: 100 },
    );
  });
});
