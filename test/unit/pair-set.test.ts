/** PairSet (src/util/pair-set.ts): the same answers as a Set of the pairs, whatever is added. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairHash } from '../../src/util/id-hash.js';
import { PairSet } from '../../src/util/pair-set.js';

/** What a Set of the pairs answers (the lengths make the key unambiguous). */
function reference(pairs: readonly [string, string][]): boolean[] {
  const seen = new Set<string>();
  return pairs.map(([a, b]) => {
    const key = `${a.length}:${a}${b}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

describe('PairSet', () => {
  it('answers as a Set of the pairs for any pairs, repeats and shared prefixes included', () => {
    // Short strings over a small alphabet: many repeats, and pairs whose concatenations are equal ('ab','c' and 'a','bc').
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', '\u{1F600}'), maxLength: 4 });
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { maxLength: 400 }), (pairs) => {
        const set = new PairSet();
        expect(pairs.map(([a, b]) => set.add(a, b))).toEqual(reference(pairs));
        expect(set.size).toBe(reference(pairs).filter(Boolean).length);
      }),
      { seed: 18, numRuns: 300 },
    );
  });

  it('tells apart pairs that only differ where the first string ends', () => {
    const set = new PairSet();
    expect([set.add('ab', 'c'), set.add('a', 'bc'), set.add('', 'abc'), set.add('abc', ''), set.add('ab', 'c')]).toEqual([true, true, true, true, false]);
  });

  it('keeps growing past one full arena and takes a pair longer than an arena, remembering every pair', () => {
    const set = new PairSet();
    const id = (i: number) => `${'x'.repeat(120)}${i}`;
    for (let i = 0; i < 40_000; i++) expect(set.add('default', id(i))).toBe(true); // about 5 M code units: more than one arena of 4 Mi
    const long = 'y'.repeat((1 << 22) + 5);
    expect(set.add('default', long)).toBe(true);
    expect(set.add('eu', id(7))).toBe(true);
    for (let i = 0; i < 40_000; i += 997) expect(set.add('default', id(i))).toBe(false);
    expect(set.add('default', long)).toBe(false);
    expect(set.add('default', `${long}z`)).toBe(true);
    expect(set.size).toBe(40_003);
  });
});

describe('issue 27: PairSet with hashes given by the caller', () => {
  it('takes the hash a parse thread computed, and tells pairs apart by their strings when every hash is equal', () => {
    const set = new PairSet();
    const pairs = Array.from({ length: 300 }, (_, i) => ['default', `e${i % 200}`] as [string, string]);
    expect(pairs.map(([a, b]) => set.add(a, b, pairHash(a, b)))).toEqual(reference(pairs));
    expect(pairs.map(([a, b]) => set.add(a, b))).toEqual(pairs.map(() => false)); // the same pairs, hashed here

    const colliding = new PairSet();
    const mixed = Array.from({ length: 400 }, (_, i) => [`c${i % 3}`, `e${i % 150}`] as [string, string]);
    expect(mixed.map(([a, b]) => colliding.add(a, b, 12345))).toEqual(reference(mixed));
    expect(colliding.size).toBe(150);
  });
});
