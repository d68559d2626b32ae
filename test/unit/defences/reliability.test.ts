/** The reliability defences (docs/reliability.md#defences) on hand-worked cases; the arithmetic is in the comments. */
import { describe, expect, it } from 'vitest';
import { reliability, type StandingEvent } from '../../../src/index.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
let n = 0;
/** A match of `players` from `start` lasting `minutes`, finished, or dropped by `dropper` and abandoned. */
function match(players: string[], start: number, minutes = 30, dropper?: string): StandingEvent[] {
  const id = `m${++n}`;
  const events: StandingEvent[] = [{ type: 'match.start', time: start, community: 'c', match: id, players }];
  if (dropper === undefined) events.push({ type: 'match.end', time: start + minutes * MINUTE, community: 'c', match: id });
  else events.push({ type: 'disconnect', time: start + MINUTE, community: 'c', player: dropper });
  return events;
}
function explain(events: readonly StandingEvent[], params: Record<string, unknown> = {}, player = 'a') {
  const state = reliability.initialState(reliability.params.resolve(params));
  for (const e of events) reliability.evolve(state, e);
  return reliability.explain(state, 'c', player)!;
}

describe('repeatWeight: the n-th finish with the same co-player weighs repeatWeight^n', () => {
  // a finishes three matches with b, one with c, and drops one with d.
  const events = [...match(['a', 'b'], 0), ...match(['a', 'b'], DAY), ...match(['a', 'b'], 2 * DAY), ...match(['a', 'c'], 3 * DAY), ...match(['a', 'd'], 4 * DAY, 30, 'a')];

  it('halves each repeat', () => {
    // weights 1, ½, ¼ (b), 1 (c), 1 (the drop): (1 + ½ + ¼ + 1 − 1)/(1 + ½ + ¼ + 1 + 1) = 1.75/3.75
    const e = explain(events, { repeatWeight: 0.5 });
    expect(e.score).toBeCloseTo(1.75 / 3.75, 14);
    expect(e.confidence).toBe(3.75);
    expect(e.band).toBe('red');
    // published: (4 − 1)/5
    expect(explain(events).score).toBe(0.6);
  });

  it('takes the co-player met least often, so a team of strangers counts fully', () => {
    // a and b finished two matches together; then a, b and a stranger x: a's least-met co-player is x (0): weight 1.
    const s = explain([...match(['a', 'b'], 0), ...match(['a', 'b'], DAY), ...match(['a', 'b', 'x'], 2 * DAY)], { repeatWeight: 0.5 });
    expect(s.confidence).toBe(1 + 0.5 + 1);
  });

  it('forgets a repeat once its finish leaves the kept history', () => {
    // keepDays 10: the first finish with b has expired when the third is scored, one remains (the second): ½
    const s = explain([...match(['a', 'b'], 0), ...match(['a', 'b'], 5 * DAY), ...match(['a', 'b'], 11 * DAY)], { repeatWeight: 0.5, keepDays: 10 });
    expect(s.confidence).toBe(0.5 + 0.5);
  });
});

describe('minMatchMinutes: a shorter match finishes with weight length / minMatchMinutes', () => {
  it('weighs a two-minute match 2/5', () => {
    // finish of a 2-minute match (0.4), then a drop (1): (0.4 − 1)/1.4
    const e = explain([...match(['a', 'b'], 0, 2), ...match(['a', 'd'], DAY, 30, 'a')], { minMatchMinutes: 5 });
    expect(e.score).toBeCloseTo(-0.6 / 1.4, 14);
    expect(explain([...match(['a', 'b'], 0, 2), ...match(['a', 'd'], DAY, 30, 'a')]).score).toBe(0);
  });

  it('gives a match of length 0, or dated backwards, the least weight, a millionth: never a score of 0/0', () => {
    // a's only finish is of a 0-minute match: weight 10⁻⁶, reliability 10⁻⁶·1/10⁻⁶ = 1, confidence 10⁻⁶, bar 10⁻⁷.
    for (const minutes of [0, -10]) {
      const state = reliability.initialState(reliability.params.resolve({ minMatchMinutes: 5 }));
      for (const e of match(['a', 'b'], 0, minutes)) reliability.evolve(state, e);
      const e = reliability.explain(state, 'c', 'a')!;
      expect(e).toMatchObject({ score: 1, confidence: 1e-6, band: 'green', bar: 1e-7 });
      expect(e.events.map((event) => event.weight)).toEqual([1e-6]);
      expect(reliability.rank(state).map((r) => [r.player, r.score, r.confidence])).toEqual([['a', 1, 1e-6], ['b', 1, 1e-6]]);
    }
    // With a drop: (10⁻⁶ − 1)/(10⁻⁶ + 1).
    expect(explain([...match(['a', 'b'], 0, 0), ...match(['a', 'd'], DAY, 30, 'a')], { minMatchMinutes: 5 }).score).toBe((1e-6 - 1) / (1e-6 + 1));
  });

  it('takes the sums again when a heavier finish is forgotten, so no rounding is left over', () => {
    // keepDays 1: a finishes a 1-minute match (weight 0.2) at 0 and a 0-minute one (10⁻⁶) at 0.8 days; a match
    // of x and y at 36 h forgets the first. In floating point (0.2 + 10⁻⁶) − 0.2 is not 10⁻⁶; the count is exactly.
    const e = explain([...match(['a', 'b'], 0, 1), ...match(['a', 'c'], 0.8 * DAY, 0), ...match(['x', 'y'], 1.5 * DAY)], { minMatchMinutes: 5, keepDays: 1 });
    expect(e.confidence).toBe(1e-6);
    expect(e.score).toBe(1);
    expect(e.events).toHaveLength(1);
  });

  it('checks its parameters', () => {
    expect(() => reliability.params.resolve({ repeatWeight: 2 })).toThrow(/repeatWeight/);
    expect(() => reliability.params.resolve({ minMatchMinutes: -1 })).toThrow(/minMatchMinutes/);
  });
});
