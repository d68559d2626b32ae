/** RatingColumns: a rating log's columns in chunks, written and read back across chunk edges. */
import { describe, expect, it } from 'vitest';
import { CHUNK, RatingColumns } from '../../../src/graph/rating-columns.js';

describe('RatingColumns', () => {
  it('holds what was written, refuses writes past a first chunk that has not grown, and keeps entries as it grows', () => {
    const columns = new RatingColumns(4);
    for (let e = 0; e < 4; e++) columns.write(e, e, e + 1, e / 2, e * 10);
    expect(() => columns.write(4, 0, 0, 0, 0)).toThrow('rating columns: entry 4 is past the first chunk of 4');
    expect(() => columns.write(CHUNK, 0, 0, 0, 0)).toThrow(RangeError);
    columns.growFirstChunk(2 * CHUNK, 4); // the first chunk reaches its full size, CHUNK
    expect(columns.firstChunk).toBe(CHUNK);
    const last = CHUNK + 5; // the second chunk appears when written
    for (let e = 4; e <= last; e++) columns.write(e, e, e + 1, e / 2, e * 10);
    columns.copy(1, last); // a compaction moves a later entry back, across the chunk edge
    const read = (e: number) => [columns.fromAt(e), columns.toAt(e), columns.valueAt(e), columns.timeAt(e)];
    expect(read(0)).toEqual([0, 1, 0, 0]);
    expect(read(1)).toEqual([last, last + 1, last / 2, last * 10]);
    expect(read(CHUNK - 1)).toEqual([CHUNK - 1, CHUNK, (CHUNK - 1) / 2, (CHUNK - 1) * 10]);
    expect(read(CHUNK + 2)).toEqual([CHUNK + 2, CHUNK + 3, (CHUNK + 2) / 2, (CHUNK + 2) * 10]);
    expect(columns.to.map((chunk) => chunk.length)).toEqual([CHUNK, CHUNK]);
  });
});
