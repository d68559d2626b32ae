/** Id interning that spills past one Map (V8 Maps hold at most 2^24 entries). */
import { describe, expect, it } from 'vitest';
import { Interner } from '../../src/util/interner.js';

describe('Interner', () => {
  it('gives dense indices and finds every id again across spilled maps', () => {
    const interner = new Interner(3); // 3 ids per Map, so 10 ids use 4 Maps
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
