/** Hand-worked cases of each step of docs/spec.md §2.1: f_x, g_k, the window T, and their interplay. */
import { describe, expect, it } from 'vitest';
import { cqr, readCqr } from '../../../src/index.js';
import { storeScore } from '../../support/cqr.js';

const both = (params: { T: number; x: number; k: number }, deltas: number[]) => ({
  store: storeScore(params, deltas),
  reference: readCqr(params, deltas).score,
});

describe('f_x: deltas with |Δ| < x are ignored', () => {
  it('keeps |Δ| = x exactly and drops smaller ones', () => {
    // x = 10: +10 and −10 stay (|Δ| ≥ x), +9 and −9.5 go: 10 − 10 + 25 = 25
    expect(both({ T: 8, x: 10, k: 8 }, [10, 9, -10, -9.5, 25])).toEqual({ store: 25, reference: 25 });
  });

  it('x = 0 keeps every delta, zero included', () => {
    // T = 3 sums the last three: 0 + 5 + (−2) = 3
    expect(both({ T: 3, x: 0, k: 3 }, [7, 0, 5, -2])).toEqual({ store: 3, reference: 3 });
  });

  it('a filtered delta does not push older deltas out of the window', () => {
    // T = 2, x = 10: F = [20, 30] (the 1 and 2 are filtered), sum 50
    expect(both({ T: 2, x: 10, k: 2 }, [20, 1, 30, 2])).toEqual({ store: 50, reference: 50 });
  });
});

describe('the window T', () => {
  it('sums the last T filtered deltas', () => {
    // T = 3: last three of [1, 2, 3, 4, 5] → 3 + 4 + 5 = 12
    expect(both({ T: 3, x: 0, k: 3 }, [1, 2, 3, 4, 5])).toEqual({ store: 12, reference: 12 });
  });

  it('T = ∞ sums everything (equation 2)', () => {
    expect(both({ T: Infinity, x: 0, k: Infinity }, [1, -2, 3, -4, 5])).toEqual({ store: 3, reference: 3 });
  });

  it('T = 1 keeps the newest delta only', () => {
    expect(both({ T: 1, x: 0, k: 1 }, [100, -3])).toEqual({ store: -3, reference: -3 });
  });
});

describe('g_k: after k same-sign filtered deltas, the other sign is dropped from the whole history', () => {
  it('keeps only positives once the last k are all positive, reaching further back than T', () => {
    // T = 3, k = 2, x = 0. F = [5, −50, 6, −40, 7, 8]; the last two (7, 8) are > 0, so F becomes
    // [5, 6, 7, 8] and the last three sum 6 + 7 + 8 = 21 (without g_k: −40 + 7 + 8 = −25).
    const deltas = [5, -50, 6, -40, 7, 8];
    expect(both({ T: 3, x: 0, k: 2 }, deltas)).toEqual({ store: 21, reference: 21 });
    expect(both({ T: 3, x: 0, k: 3 }, deltas)).toEqual({ store: -25, reference: -25 });
  });

  it('keeps only negatives once the last k are all negative', () => {
    // T = 4, k = 2: last two −3, −4 < 0 → F = [−1, −3, −4]: −8
    expect(both({ T: 4, x: 0, k: 2 }, [10, -1, 20, -3, -4])).toEqual({ store: -8, reference: -8 });
  });

  it('does not apply with fewer than k filtered deltas', () => {
    // k = 3, F = [−1, 4, 6]: three elements, but the last three are not all > 0: no filter, sum 9
    expect(both({ T: 8, x: 0, k: 3 }, [-1, 4, 6])).toEqual({ store: 9, reference: 9 });
    // F = [4, 6]: two elements < k = 3, no filter: 10
    expect(both({ T: 8, x: 0, k: 3 }, [4, 6])).toEqual({ store: 10, reference: 10 });
  });

  it('a zero ends a run: zero is neither positive nor negative', () => {
    // k = 2: F = [−9, 3, 0, 4]; the last two are 0, 4 → not all > 0, so no filter: −2
    expect(both({ T: 8, x: 0, k: 2 }, [-9, 3, 0, 4])).toEqual({ store: -2, reference: -2 });
    // one more positive: last two 4, 5 > 0 → positives only: 3 + 4 + 5 = 12 (the zero goes too)
    expect(both({ T: 8, x: 0, k: 2 }, [-9, 3, 0, 4, 5])).toEqual({ store: 12, reference: 12 });
  });

  it('a filtered-out delta does not break a run', () => {
    // x = 10, k = 2: F = [−30, 20, 25] (the −5 is filtered), last two > 0 → 45
    expect(both({ T: 8, x: 10, k: 2 }, [-30, 20, -5, 25])).toEqual({ store: 45, reference: 45 });
  });

  it('k = T never filters by sign (equation 4)', () => {
    expect(both({ T: 3, x: 0, k: 3 }, [-50, 1, 2, 3])).toEqual({ store: 6, reference: 6 });
    expect(cqr.params.resolve({ T: 3, k: 3 }).k).toBe(3);
  });

  it('T = ∞ with finite k sums every kept delta of the kept sign', () => {
    // k = 2: last two > 0 → positives of F: 1 + 2 + 3 = 6
    expect(both({ T: Infinity, x: 0, k: 2 }, [1, -100, 2, 3])).toEqual({ store: 6, reference: 6 });
  });
});

describe('explanations', () => {
  it('names the fate of every delta', () => {
    const reading = readCqr({ T: 2, x: 10, k: 1 }, [30, -20, 5, 15, 12]);
    // F = [30, −20, 15, 12]; the last k = 1 is > 0 → drop −20; last T = 2 of [30, 15, 12]: 15 + 12
    expect(reading.filter).toBe('positive');
    expect(reading.score).toBe(27);
    expect(reading.deltas.map((d) => d.fate)).toEqual(['outside-window', 'opposite-sign', 'below-x', 'counted', 'counted']);
  });

  it('the store explains with the same window the score sums', () => {
    const state = cqr.initialState(cqr.params.resolve({ T: 2, x: 10, k: 1 }));
    for (const delta of [30, -20, 5, 15, 12]) cqr.evolve(state, { type: 'action', time: 0, community: 'c', player: 'p', delta });
    expect(cqr.explain(state, 'c', 'p')).toEqual({
      player: 'p',
      community: 'c',
      params: { T: 2, x: 10, k: 1 },
      score: 27,
      actions: 5,
      filter: 'positive',
      window: [15, 12],
    });
    expect(cqr.explain(state, 'c', 'nobody')).toBeUndefined();
    expect(cqr.explain(state, 'elsewhere', 'p')).toBeUndefined();
  });

  it("x = 0: explain's window holds zero deltas too, oldest first", () => {
    const state = cqr.initialState(cqr.params.resolve({ T: 3, x: 0, k: 3 }));
    [0, 5, 0, 0].forEach((delta, time) => cqr.evolve(state, { type: 'action', time, community: 'c', player: 'p', delta }));
    expect(cqr.explain(state, 'c', 'p')).toMatchObject({ score: 5, window: [5, 0, 0] });
  });
});

describe('communities are independent', () => {
  it('ranks each community on its own', () => {
    const state = cqr.initialState(cqr.params.resolve({ T: 8, x: 0, k: 8 }));
    cqr.evolve(state, { type: 'action', time: 0, community: 'a', player: 'p', delta: 5 });
    cqr.evolve(state, { type: 'action', time: 0, community: 'b', player: 'p', delta: -5 });
    cqr.evolve(state, { type: 'action', time: 0, community: 'b', player: 'q', delta: 1 });
    expect(cqr.rank(state)).toEqual([
      { rank: 1, player: 'p', score: 5, community: 'a', actions: 1 },
      { rank: 1, player: 'q', score: 1, community: 'b', actions: 1 },
      { rank: 2, player: 'p', score: -5, community: 'b', actions: 1 },
    ]);
    expect(cqr.rank(state, { community: 'b', top: 1 }).map((r) => r.player)).toEqual(['q']);
    expect(cqr.communities(state)).toEqual(['a', 'b']);
  });

  it('ignores events of other types', () => {
    const state = cqr.initialState(cqr.params.resolve({}));
    cqr.evolve(state, { type: 'rating', time: 0, community: 'c', from: 'a', to: 'b', value: 1 });
    expect(cqr.rank(state)).toEqual([]);
  });

  it('refuses a domain action that did not pass through the quality stage', () => {
    const state = cqr.initialState(cqr.params.resolve({}));
    expect(() => cqr.evolve(state, { type: 'action', time: 0, community: 'c', player: 'p', domain: 'forum' })).toThrow(/quality stage/);
  });

  it('refuses a delta that is not a finite number, and keeps what it had', () => {
    const state = cqr.initialState(cqr.params.resolve({ T: 3, x: 0, k: 3 }));
    cqr.evolve(state, { type: 'action', time: 0, community: 'c', player: 'p', delta: 5 });
    for (const delta of [NaN, Infinity, -Infinity]) {
      expect(() => cqr.evolve(state, { type: 'action', time: 1, community: 'c', player: 'p', delta })).toThrow(/"delta" must be a finite number/);
    }
    expect(cqr.explain(state, 'c', 'p')).toMatchObject({ score: 5, actions: 1, window: [5] });
  });
});
