/** topOrder gives what a full sort cut to `top` gives. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { topOrder } from '../../src/util/top-order.js';

describe('topOrder', () => {
  it('takes the best three of ten by score, ties by index (hand-checked)', () => {
    const scores = [5, 9, 1, 9, 7, 0, 9, 3, 8, 2];
    const compare = (a: number, b: number) => scores[b]! - scores[a]! || a - b;
    expect(topOrder(Array.from({ length: 10 }, (_, i) => i), 1, compare)).toEqual([1]);
    expect(topOrder(Array.from({ length: 10 }, (_, i) => i), 3, compare)).toEqual([1, 3, 6]); // three 9s
    expect(topOrder(Array.from({ length: 10 }, (_, i) => i), 5, compare)).toEqual([1, 3, 6, 8, 4]);
    expect(topOrder([], 3, compare)).toEqual([]);
    // 100 items, top 3: below n / 8, so the bounded heap answers (scores i % 10, ties by index).
    const many = Array.from({ length: 100 }, (_, i) => i);
    expect(topOrder(many, 3, (a, b) => (b % 10) - (a % 10) || a - b)).toEqual([9, 19, 29]);
    expect(topOrder([4, 2], 0, compare)).toEqual([]);
  });

  it('equals a full sort cut to top, for any scores with ties and any top (property)', () => {
    // `top` mostly below n / 8, where the bounded heap (not the full sort) answers.
    const input = fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 400, size: 'max' }).chain((scores) =>
      fc.tuple(fc.constant(scores), fc.oneof({ weight: 4, arbitrary: fc.nat(Math.floor(scores.length / 8)) }, { weight: 1, arbitrary: fc.oneof(fc.nat(400), fc.constant(Infinity)) })),
    );
    fc.assert(
      fc.property(input, ([scores, top]) => {
        const compare = (a: number, b: number) => scores[b]! - scores[a]! || a - b;
        const items = scores.map((_, i) => i);
        const expected = [...items].sort(compare).slice(0, top);
        expect(topOrder(items, top, compare)).toEqual(expected);
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
