/** Id interning over an open-addressing table of hashes (src/util/interner.ts): not capped at a Map's 2^24 ids. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Interner } from '../../src/util/interner.js';

/** What the interner did before the table: a Map of ids to first-seen indices. */
function mapIndices(ids: readonly string[]): number[] {
  const map = new Map<string, number>();
  return ids.map((id) => {
    let index = map.get(id);
    if (index === undefined) map.set(id, (index = map.size));
    return index;
  });
}

describe('Interner', () => {
  it('gives dense indices and finds every id again', () => {
    const interner = new Interner();
    const ids = Array.from({ length: 10 }, (_, i) => `p${i}`);
    expect(ids.map((id) => interner.intern(id))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(ids.map((id) => interner.intern(id))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(ids.map((id) => interner.indexOf(id))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(ids.map((_, i) => interner.idAt(i))).toEqual(ids);
    expect(interner.size).toBe(10);
    expect(interner.indexOf('missing')).toBe(-1);
  });

  it('maps indices back to ids across chunk boundaries', () => {
    const interner = new Interner();
    for (let i = 0; i < 70_000; i++) interner.intern(`id${i}`);
    expect(interner.idAt(65_535)).toBe('id65535');
    expect(interner.idAt(65_536)).toBe('id65536');
    expect(interner.indexOf('id69999')).toBe(69_999);
  });
});

describe('issue 27: the interner as a typed-array id table', () => {
  it('gives the indices a Map gave, in first-seen order, for any ids (repeats, empty, astral, lone surrogates)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'é', '\u{1F600}', '\uD800', '0'), maxLength: 5 });
    fc.assert(
      fc.property(fc.array(text, { maxLength: 300 }), (ids) => {
        const interner = new Interner();
        const expected = mapIndices(ids);
        expect(ids.map((id) => interner.intern(id))).toEqual(expected);
        expect(ids.map((id) => interner.indexOf(id))).toEqual(expected);
        expect(interner.ids()).toEqual([...new Set(ids)]);
        expect(Interner.from(interner.ids()).ids()).toEqual(interner.ids());
      }),
      { seed: 27, numRuns: 300 },
    );
  });

  it('tells ids apart by their strings when every hash is equal', () => {
    const interner = new Interner(() => 7); // every id collides: a table of one long probe run
    const ids = Array.from({ length: 500 }, (_, i) => `p${i}`);
    expect(ids.map((id) => interner.intern(id))).toEqual(ids.map((_, i) => i));
    expect([...ids].reverse().map((id) => interner.indexOf(id))).toEqual(ids.map((_, i) => ids.length - 1 - i));
    expect(interner.indexOf('p500')).toBe(-1);
    expect(interner.intern('p250')).toBe(250);
    expect(interner.size).toBe(500);
  });

  it('keeps ids apart when only a few low bits of their hashes differ, across growth', () => {
    // Two buckets of hashes that differ only above bit 20: equal in every table below 2^21 slots.
    const interner = new Interner((id) => (id.length % 2) << 21);
    const ids = Array.from({ length: 3_000 }, (_, i) => 'x'.repeat(1 + (i % 7)) + String(i));
    expect(ids.map((id) => interner.intern(id))).toEqual(mapIndices(ids));
    expect(ids.map((id) => interner.indexOf(id))).toEqual(mapIndices(ids));
    expect(ids.every((id, i) => interner.idAt(i) === id)).toBe(true);
  });

  it('holds more ids than a Map can (2^24 + 1), each found again at its index', () => {
    const count = (1 << 24) + 1;
    const interner = new Interner();
    for (let i = 0; i < count; i++) interner.intern(String(i));
    expect(interner.size).toBe(count);
    for (const i of [0, 1, 65_535, 65_536, 1 << 23, (1 << 24) - 1, 1 << 24]) {
      expect(interner.indexOf(String(i))).toBe(i);
      expect(interner.idAt(i)).toBe(String(i));
    }
    expect(interner.intern(String(1 << 24))).toBe(1 << 24);
    expect(interner.indexOf(String(count))).toBe(-1);
  }, 120_000);
});
