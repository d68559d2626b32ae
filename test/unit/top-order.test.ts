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
    expect(topOrder([4, 2], 0, compare)).toEqual([]);
  });

  it('equals a full sort cut to top, for any scores with ties and any top (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 400 }), fc.oneof(fc.nat(60), fc.constant(Infinity)), (scores, top) => {
        const compare = (a: number, b: number) => scores[b]! - scores[a]! || a - b;
        const items = scores.map((_, i) => i);
        const expected = [...items].sort(compare).slice(0, top);
        expect(topOrder(items, top, compare)).toEqual(expected);
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
