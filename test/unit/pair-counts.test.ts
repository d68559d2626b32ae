/** pairCounts (src/util/pair-counts.ts): per index, how often its pair of int32s occurs, as a count over a Map of the pairs gives it. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairCounts } from '../../src/util/pair-counts.js';

function reference(a: readonly number[], b: readonly number[]): number[] {
  const counts = new Map<string, number>();
  a.forEach((x, i) => counts.set(`${x}:${b[i]}`, (counts.get(`${x}:${b[i]}`) ?? 0) + 1));
  return a.map((x, i) => counts.get(`${x}:${b[i]}`)!);
}

describe('issue 28: pairCounts, the report defences’ repeat counts', () => {
  it('counts as a Map of the pairs does, for any pairs of int32s (negative ones, repeats, collisions) and any prefix length', () => {
    const int = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(int, int), { maxLength: 400 }), fc.nat(), (pairs, cut) => {
        const n = pairs.length === 0 ? 0 : cut % (pairs.length + 1);
        const a = Int32Array.from(pairs.map((p) => p[0]));
        const b = Int32Array.from(pairs.map((p) => p[1]));
        expect(Array.from(pairCounts(a, b, n))).toEqual(reference(Array.from(a.subarray(0, n)), Array.from(b.subarray(0, n))));
      }),
      { numRuns: 300 },
    );
  });

  it('grows past its first table: 100,000 pairs, 1,000 of them distinct, each 100 times', () => {
    const n = 100_000;
    const a = Int32Array.from({ length: n }, (_, i) => i % 1000);
    const b = Int32Array.from({ length: n }, (_, i) => (i % 1000) * 7 - 3500);
    const counts = pairCounts(a, b, n);
    expect(counts.length).toBe(n);
    expect(counts.every((c) => c === 100)).toBe(true);
    const distinct = pairCounts(Int32Array.from({ length: n }, (_, i) => i), new Int32Array(n), n);
    expect(distinct.every((c) => c === 1)).toBe(true);
  });
});
