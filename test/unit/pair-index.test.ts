/** PairIndex behaves like a Map keyed by (from, to) under any mix of sets and deletes. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PairIndex } from '../../src/util/pair-index.js';

describe('PairIndex', () => {
  it('matches a Map model (property)', () => {
    const op = fc.record({ kind: fc.constantFrom('set', 'set', 'delete'), from: fc.integer({ min: 0, max: 40 }), to: fc.integer({ min: 0, max: 40 }), value: fc.nat(1000) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 3000 }), (ops) => {
        const index = new PairIndex();
        const model = new Map<string, number>();
        for (const o of ops) {
          const key = `${o.from},${o.to}`;
          if (o.kind === 'set') {
            index.set(o.from, o.to, o.value);
            model.set(key, o.value);
          } else if (index.delete(o.from, o.to) !== model.delete(key)) return false;
        }
        if (index.size !== model.size) return false;
        for (let f = 0; f <= 40; f++) for (let t = 0; t <= 40; t++) if (index.get(f, t) !== (model.get(`${f},${t}`) ?? -1)) return false;
        return true;
      }),
      { seed: 6, numRuns: 100 },
    );
  });

  it('grows past its initial capacity and keeps every entry', () => {
    const index = new PairIndex();
    for (let i = 0; i < 100_000; i++) index.set(i % 1000, Math.floor(i / 1000), i);
    expect(index.size).toBe(100_000);
    expect(index.get(999, 99)).toBe(99_999);
    expect(index.get(1000, 0)).toBe(-1);
  });
});
