/** pieceEnds: where the parallel reader cuts its input, each piece whole lines of at least minBytes. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pieceEnds } from '../../../src/events/parallel/pieces.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('pieceEnds', () => {
  it('cuts after the first line end at or past minBytes, and leaves the rest by mode', () => {
    const input = bytes('aa\nbbbb\nc\ndd'); // line ends at 2, 7 and 9; 12 bytes
    // "aa\n" (3 bytes), "bbbb\n" (5); then "c\ndd" has no line end at or past its 3rd byte.
    expect(pieceEnds(input, 3, 'more')).toEqual([3, 8]);
    expect(pieceEnds(input, 3, 'end')).toEqual([3, 8, 12]); // the tail becomes the last piece
    expect(pieceEnds(input, 3, 'error')).toEqual([3, 8, 10]); // up to the last complete line
    expect(pieceEnds(input, 1, 'more')).toEqual([3, 8, 10]);
    expect(pieceEnds(input, 100, 'more')).toEqual([]); // too little yet
    expect(pieceEnds(input, 100, 'end')).toEqual([12]);
    expect(pieceEnds(bytes('no line end'), 2, 'error')).toEqual([]); // a cut-off line is dropped
  });

  it('yields whole lines of at least minBytes that tile a prefix of the input (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', '\n'), { maxLength: 200, size: 'max' }),
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom('more' as const, 'end' as const, 'error' as const),
        (chars, min, mode) => {
          const input = bytes(chars.join(''));
          const ends = pieceEnds(input, min, mode);
          let start = 0;
          for (const [i, end] of ends.entries()) {
            expect(end).toBeGreaterThan(start);
            const last = i === ends.length - 1;
            if (!(last && mode === 'end')) expect(input[end - 1]).toBe(10); // ends at a line end
            if (!last || mode === 'more') expect(end - start).toBeGreaterThanOrEqual(min);
            start = end;
          }
          if (mode === 'end') expect(start).toBe(input.length); // everything taken
          if (mode === 'error') expect(start).toBe(input.lastIndexOf(10) + 1); // every complete line
          if (mode === 'more') expect(input.indexOf(10, start + min - 1)).toBe(-1); // no further cut possible
        },
      ),
    );
  });
});
