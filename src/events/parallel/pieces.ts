/** Where the parallel reader (./reader.ts) cuts its input into pieces for the parse threads. */

/** What to do with the bytes after the last line end: wait for more, take them, or drop them. */
export type PieceMode = 'more' | 'end' | 'error';

const NEWLINE = 10;

/**
 * The end offsets (ascending) of the pieces to cut from the start of `bytes`: each at least
 * `minBytes` long and ending just after a line end. What follows the last end waits for more
 * input (`more`); at the end of the input it becomes the last piece, however short (`end`);
 * after a read error only complete lines count, so the last end is the last line end (`error`).
 * Empty when nothing is to be cut yet.
 */
export function pieceEnds(bytes: Uint8Array, minBytes: number, mode: PieceMode): number[] {
  const ends: number[] = [];
  let start = 0;
  while (bytes.length - start >= minBytes) {
    const end = bytes.indexOf(NEWLINE, start + minBytes - 1) + 1;
    if (end === 0) break;
    ends.push(end);
    start = end;
  }
  if (mode === 'end' && start < bytes.length) ends.push(bytes.length);
  if (mode === 'error') {
    const lastLine = bytes.lastIndexOf(NEWLINE) + 1;
    if (lastLine > start) ends.push(lastLine);
  }
  return ends;
}
