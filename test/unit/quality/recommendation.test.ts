import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventValidationError, ParameterError } from '../../../src/errors.js';
import type { ActionEvent } from '../../../src/events/types.js';
import { recommendation, type RecommendationState } from '../../../src/quality/recommendation.js';
import { expectEventError } from '../../support/errors.js';

function act(player: string, payload: Record<string, unknown>): ActionEvent {
  return { type: 'action', time: 0, community: 'default', player, domain: 'recommendation', ...payload };
}

function fresh(): RecommendationState {
  return recommendation.initialState(recommendation.options.resolve());
}


/** −mean over items of the population variance, from the ratings themselves. */
function bruteForce(ratings: ReadonlyMap<string, ReadonlyMap<string, number>>): number {
  if (ratings.size === 0) return 0;
  let sum = 0;
  for (const byPlayer of ratings.values()) {
    const xs = [...byPlayer.values()];
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    sum += xs.reduce((a, x) => a + (x - mean) ** 2, 0) / xs.length;
  }
  return -sum / ratings.size;
}

describe('recommendation domain', () => {
  it('has no options', () => {
    expect(recommendation.options.resolve()).toEqual({});
    expect(() => recommendation.options.resolve({ scale: 5 })).toThrow(ParameterError);
  });

  it('computes a hand-checked sequence', () => {
    const s = fresh();
    expect(recommendation.quality(s)).toBe(0);
    // m1 = [4]: variance 0, Q = 0, Δ = 0.
    expect(recommendation.apply(s, act('ann', { item: 'm1', stars: 4 }))).toBe(0);
    // m1 = [4, 2]: mean 3, variance (1 + 1)/2 = 1; Q = −1, Δ = −1.
    expect(recommendation.apply(s, act('bob', { item: 'm1', stars: 2 }))).toBe(-1);
    // m2 = [5]: variances 1 and 0, Q = −1/2; a new item dilutes the mean: Δ = +0.5.
    expect(recommendation.apply(s, act('cid', { item: 'm2', stars: 5 }))).toBe(0.5);
    // ann re-rates m1: her 4 is replaced, m1 = [2, 2]: Q = 0, Δ = +0.5.
    expect(recommendation.apply(s, act('ann', { item: 'm1', stars: 2 }))).toBe(0.5);
    // m1 = [2, 2, 5]: mean 3, variance (1 + 1 + 4)/3 = 2; Q = −2/2 = −1, Δ = −1.
    expect(recommendation.apply(s, act('cid', { op: 'rate', item: 'm1', stars: 5 }))).toBeCloseTo(-1, 12);
    expect(recommendation.quality(s)).toBeCloseTo(-1, 12);
    // The sole rater of m2 changes her mind: one rating, variance still 0, Δ = 0.
    expect(recommendation.apply(s, act('cid', { item: 'm2', stars: 1 }))).toBe(0);
    // Rating again with the same stars changes nothing.
    expect(recommendation.apply(s, act('bob', { item: 'm1', stars: 2 }))).toBe(0);
  });

  it('keeps a single rating exactly at variance 0 when replaced', () => {
    const s = fresh();
    recommendation.apply(s, act('ann', { item: 'm', stars: 0.1 }));
    // 0.1 + (0.3 − 0.1) is 0.30000000000000004 in floating point; the replacement is exact.
    recommendation.apply(s, act('ann', { item: 'm', stars: 0.3 }));
    expect(recommendation.quality(s)).toBe(0);
    expect(s.items.get('m')!.mean).toBe(0.3);
  });

  it('accepts any finite stars, negative and fractional included', () => {
    const s = fresh();
    recommendation.apply(s, act('ann', { item: 'm', stars: -1.5 }));
    // [−1.5, 1.5]: mean 0, variance 2.25.
    expect(recommendation.apply(s, act('bob', { item: 'm', stars: 1.5 }))).toBeCloseTo(-2.25, 12);
  });

  it('rejects bad payloads with the field name', () => {
    const s = fresh();
    const cases: [Record<string, unknown>, string][] = [
      [{ op: 'unrate', item: 'm', stars: 3 }, 'op'],
      [{ op: 5, item: 'm', stars: 3 }, 'op'],
      [{ stars: 3 }, 'item'],
      [{ item: '', stars: 3 }, 'item'],
      [{ item: 3, stars: 3 }, 'item'],
      [{ item: 'm' }, 'stars'],
      [{ item: 'm', stars: '3' }, 'stars'],
      [{ item: 'm', stars: Number.NaN }, 'stars'],
      [{ item: 'm', stars: -Infinity }, 'stars'],
    ];
    for (const [payload, field] of cases) expectEventError(() => recommendation.apply(s, act('ann', payload)), EventValidationError, field);
  });

  it('leaves the state untouched when apply throws', () => {
    const s = fresh();
    recommendation.apply(s, act('ann', { item: 'm', stars: 4 }));
    recommendation.apply(s, act('bob', { item: 'm', stars: 1 }));
    const snapshot = structuredClone(s);
    const q = recommendation.quality(s);
    expect(() => recommendation.apply(s, act('ann', { item: 'm', stars: Infinity }))).toThrow();
    expect(() => recommendation.apply(s, act('cid', { item: 'new', stars: 'five' }))).toThrow();
    expect(s).toEqual(snapshot);
    expect(recommendation.quality(s)).toBe(q);
  });

  it('telescopes: Σ Δ = Q(final) − Q(initial), Q = brute force (property)', () => {
    const stars = fc.oneof(fc.integer({ min: 1, max: 5 }), fc.double({ min: -10, max: 10, noNaN: true }));
    const rating = fc.tuple(fc.constantFrom('ann', 'bob', 'cid', 'dan'), fc.constantFrom('m1', 'm2', 'm3'), stars);
    fc.assert(
      fc.property(fc.array(rating, { maxLength: 100 }), (ratings) => {
        const s = fresh();
        const model = new Map<string, Map<string, number>>();
        let sum = 0;
        for (const [player, item, x] of ratings) {
          const before = recommendation.quality(s);
          const delta = recommendation.apply(s, act(player, { item, stars: x }))!;
          sum += delta;
          const byPlayer = model.get(item) ?? new Map<string, number>();
          byPlayer.set(player, x);
          model.set(item, byPlayer);
          const after = bruteForce(model);
          expect(recommendation.quality(s)).toBeCloseTo(after, 9);
          expect(delta).toBeCloseTo(after - before, 9);
        }
        expect(sum).toBeCloseTo(recommendation.quality(s), 9);
      }),
      { seed: 12345, numRuns: 300 },
    );
  });
});
