/** Append rows survive packing for the SQLite append thread unchanged, null ids and escaped newlines included. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packRows, unpackRows } from '../../../src/store/packed-rows.js';
import type { AppendRow } from '../../../src/store/sqlite-append.js';

describe('packed rows', () => {
  it('unpack(pack(rows)) gives the rows back (property)', () => {
    const row: fc.Arbitrary<AppendRow> = fc.tuple(
      fc.string(),
      fc.option(fc.string(), { nil: null }),
      fc.constantFrom('action', 'rating', 'chat'),
      fc.integer({ min: 0, max: 2 ** 50 }),
      fc.jsonValue().map((v) => JSON.stringify(v)), // JSON text: a newline inside is written \n
    );
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 30 }), fc.nat(), (rows, id) => {
        const packed = packRows(id, rows);
        expect(packed.id).toBe(id);
        expect(unpackRows(packed)).toEqual(rows);
      }),
    );
  });

  it('keeps a body whose text holds an escaped newline in one piece', () => {
    const rows: AppendRow[] = [['c', null, 'chat', 1, JSON.stringify({ text: 'a\nb' })], ['c', 'e2', 'chat', 2, '{}']];
    expect(unpackRows(packRows(7, rows))).toEqual(rows);
  });
});
