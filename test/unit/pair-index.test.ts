/** PairIndex behaves like a Map keyed by (from, to) under any mix of sets, inserts and deletes. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PairIndex } from '../../src/util/pair-index.js';

describe('PairIndex', () => {
  it('getOrInsert returns the value already there and leaves it, or inserts and returns -1', () => {
    const index = new PairIndex();
    expect(index.getOrInsert(3, 4, 7)).toBe(-1);
    expect(index.getOrInsert(3, 4, 9)).toBe(7); // present: kept, not overwritten
    expect(index.get(3, 4)).toBe(7);
    expect(index.getOrInsert(4, 3, 9)).toBe(-1); // (4, 3) is another pair
    expect(index.size).toBe(2);
    index.set(3, 4, 1);
    expect(index.getOrInsert(3, 4, 5)).toBe(1);
  });

  it('matches a Map model under sets, getOrInsert and deletes, across growth (property)', () => {
    const op = fc.record({ kind: fc.constantFrom('set', 'insert', 'insert', 'delete'), from: fc.integer({ min: 0, max: 60 }), to: fc.integer({ min: 0, max: 60 }), value: fc.nat(1000) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 4000, size: 'max' }), (ops) => {
        const index = new PairIndex();
        const model = new Map<string, number>();
        for (const o of ops) {
          const key = `${o.from},${o.to}`;
          if (o.kind === 'set') {
            index.set(o.from, o.to, o.value);
            model.set(key, o.value);
          } else if (o.kind === 'insert') {
            const had = model.get(key);
            if (index.getOrInsert(o.from, o.to, o.value) !== (had ?? -1)) return false;
            if (had === undefined) model.set(key, o.value);
          } else if (index.delete(o.from, o.to) !== model.delete(key)) return false;
        }
        if (index.size !== model.size) return false;
        for (let f = 0; f <= 60; f++) for (let t = 0; t <= 60; t++) if (index.get(f, t) !== (model.get(`${f},${t}`) ?? -1)) return false;
        return true;
      }),
      { seed: 22, numRuns: 100 },
    );
  });

  it('keeps large ids and values exact in the interleaved table', () => {
    const index = new PairIndex();
    const big = 2 ** 31 - 1;
    index.set(big, 0, big);
    index.set(0, big, 0);
    expect(index.getOrInsert(big, big, 12)).toBe(-1);
    expect([index.get(big, 0), index.get(0, big), index.get(big, big), index.get(0, 0)]).toEqual([big, 0, 12, -1]);
    expect(index.delete(big, 0)).toBe(true);
    expect([index.get(big, 0), index.get(0, big), index.get(big, big)]).toEqual([-1, 0, 12]);
  });

  it('grows past its initial capacity and keeps every entry', () => {
    const index = new PairIndex();
    for (let i = 0; i < 100_000; i++) index.set(i % 1000, Math.floor(i / 1000), i);
    expect(index.size).toBe(100_000);
    expect(index.get(999, 99)).toBe(99_999);
    expect(index.get(1000, 0)).toBe(-1);
  });
});
