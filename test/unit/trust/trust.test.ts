/** PlayerRating (docs/spec.md §4) on hand-worked graphs; the arithmetic is in the comments. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParameterError, trust, trustStats, type StandingEvent, type TrustState } from '../../../src/index.js';

const HOUR = 3_600_000;
const rate = (from: string, to: string, value: number, time = 0): StandingEvent => ({ type: 'rating', time, community: 'c', from, to, value });

function run(events: readonly StandingEvent[], params: Record<string, unknown>): TrustState {
  const state = trust.initialState(trust.params.resolve(params));
  for (const e of events) trust.evolve(state, e);
  return state;
}
const scores = (s: TrustState) => Object.fromEntries(trust.rank(s).map((r) => [r.player, r.score]));

describe('reputations seen by the observers', () => {
  // o rates a +1 and b −0.5; a rates c +0.8, b rates c −1. Jacobi from R = 1 on o, 0 elsewhere:
  //   step 1: a = 1·1·1/1 = 1, b = 1·(−0.5)·1/1 = −0.5, c = 0 (its raters have R = 0: no influence)
  //   step 2: c = Inf(1)·0.8·1 / Inf(1) = 0.8 (b has R < 0: no influence)
  //   step 3: nothing moves: RMSD 0
  const graph = [rate('o', 'a', 1), rate('o', 'b', -0.5), rate('a', 'c', 0.8), rate('b', 'c', -1)];

  it('propagates trust from the observer and ignores raters without influence', () => {
    const s = run(graph, { observers: 'o' });
    expect(scores(s)).toEqual({ a: 1, b: -0.5, c: 0.8 });
  });

  it('reports iterations and the RMSD of each, over players with a rating', () => {
    const [stats] = trustStats(run(graph, { observers: 'o' }));
    // RMSD over a, b, c: step 1 √((1² + 0.5² + 0²)/3), step 2 √(0.8²/3), step 3 0
    expect(stats).toMatchObject({ community: 'c', iterations: 3, residual: 0, converged: true });
    const state = run(graph, { observers: 'o' });
    const residuals = state.communities.get('c')!.compute().residuals;
    expect(residuals[0]).toBeCloseTo(Math.sqrt(1.25 / 3), 15);
    expect(residuals[1]).toBeCloseTo(Math.sqrt(0.64 / 3), 15);
  });

  it('weights each rating by the rater’s influence and reputation (R_i appears twice)', () => {
    // d: a (R 1) rates +1, e (R 0.5) rates −1: (1·1·1 + 0.5·(−1)·0.5) / (1 + 0.5) = 0.75 / 1.5 = 0.5
    const s = run([rate('o', 'a', 1), rate('o', 'e', 0.5), rate('a', 'd', 1), rate('e', 'd', -1)], { observers: 'o' });
    expect(scores(s).d).toBeCloseTo(0.5, 15);
  });

  it('weights negative ratings by negativeWeight', () => {
    // d: a (R 1) +1, f (R 1) −1. Default (1 − 1)/2 = 0; weight 3: (1 − 3)/(1 + 3) = −0.5
    const events = [rate('o', 'a', 1), rate('o', 'f', 1), rate('a', 'd', 1), rate('f', 'd', -1)];
    expect(scores(run(events, { observers: 'o' })).d).toBe(0);
    expect(scores(run(events, { observers: 'o', negativeWeight: 3 })).d).toBe(-0.5);
  });

  it('pins every observer at 1 and leaves them out of the ranking', () => {
    const s = run([rate('m1', 'x', 1), rate('m2', 'x', 0.5), rate('x', 'm1', -1)], { observers: 'm1,m2' });
    // x: (1·1·1 + 1·0.5·1) / 2 = 0.75; m1's −1 from x does not move m1
    expect(trust.rank(s)).toEqual([{ rank: 1, player: 'x', score: 0.75, community: 'c', ratings: 2 }]);
  });

  it('a personal view adds the observer’s own rating of each player', () => {
    const s = run(graph, { observers: ['o'] });
    expect(trust.rank(s).map((r) => [r.player, r.rating])).toEqual([
      ['a', 1],
      ['c', null],
      ['b', -0.5],
    ]);
  });

  it('needs observers', () => {
    expect(() => trust.rank(run(graph, {}))).toThrow(ParameterError);
    expect(() => trust.rank(run(graph, {}))).toThrow(/"observers" is required/);
  });
});

describe('TTL and withdrawal', () => {
  it('decays a rating linearly with its TTL (Decay = TTL / TTL_MAX)', () => {
    // set at 0; 360 h later TTL = 720 − 360 = 360: a = 1·(1·0.5)·1 / 1 = 0.5
    const s = run([rate('o', 'a', 1, 0), rate('x', 'y', 1, 360 * HOUR)], { observers: 'o' });
    expect(scores(s).a).toBe(0.5);
  });

  it('keeps a rating until its TTL reaches 0, exactly TTL_MAX · T_expire after it was set', () => {
    const kept = run([rate('o', 'a', 1, 0), rate('x', 'y', 1, 720 * HOUR - 1)], { observers: 'o' });
    expect(scores(kept).a).toBeCloseTo(1 / 720, 15); // TTL 1
    const gone = run([rate('o', 'a', 1, 0), rate('x', 'y', 1, 720 * HOUR)], { observers: 'o' });
    expect(scores(gone).a).toBe(0);
    expect(gone.communities.get('c')!.ratings.countLive()).toBe(1); // x→y; o→a has expired
  });

  it('a re-set rating starts a fresh TTL', () => {
    const s = run([rate('o', 'a', 1, 0), rate('o', 'a', 1, 700 * HOUR), rate('x', 'y', 1, 720 * HOUR)], { observers: 'o' });
    expect(scores(s).a).toBeCloseTo(700 / 720, 15);
  });

  it('withdraws a rating with value 0', () => {
    const s = run([rate('o', 'a', 1), rate('o', 'a', 0)], { observers: 'o' });
    expect(scores(s).a).toBe(0);
    expect(s.communities.get('c')!.ratings.countLive()).toBe(0);
  });

  it('takes expireHours and ttlMax', () => {
    // ttlMax 10, 2 h periods: 8 h later TTL = 10 − 4 = 6
    const s = run([rate('o', 'a', 1, 0), rate('x', 'y', 1, 8 * HOUR)], { observers: 'o', ttlMax: 10, expireHours: 2 });
    expect(scores(s).a).toBeCloseTo(0.6, 15);
  });
});

describe('explanations', () => {
  it('names the ratings with their weights', () => {
    const s = run([rate('o', 'a', 1), rate('o', 'e', 0.5), rate('a', 'd', 1), rate('e', 'd', -1)], { observers: 'o' });
    const e = trust.explain(s, 'c', 'd')!;
    expect(e.score).toBeCloseTo(0.5, 15);
    expect(e.ratings.map((r) => [r.rater, r.value, r.raterReputation, r.share])).toEqual([
      ['a', 1, 1, 1 / 1.5],
      ['e', -1, 0.5, 0.5 / 1.5],
    ]);
  });
});

describe('invariants (property)', () => {
  const edge = fc.record({ from: fc.integer({ min: 0, max: 6 }), to: fc.integer({ min: 0, max: 6 }), value: fc.integer({ min: -4, max: 4 }) });
  it('every reputation lies in [−1, 1] and the iteration stops within maxIterations', () => {
    fc.assert(
      fc.property(fc.array(edge, { maxLength: 40 }), fc.integer({ min: 1, max: 4 }), (edges, negativeWeight) => {
        const events = edges.filter((e) => e.from !== e.to).map((e) => rate(`p${e.from}`, `p${e.to}`, e.value / 4));
        const s = run(events, { observers: 'p0', negativeWeight, maxIterations: 50 });
        if (s.communities.size === 0) return true;
        const stats = trustStats(s)[0]!;
        return trust.rank(s).every((r) => r.score >= -1 && r.score <= 1) && stats.iterations <= 50;
      }),
      { seed: 3, numRuns: 300 },
    );
  });
});
