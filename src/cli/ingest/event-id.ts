/**
 * The id `standing ingest` gives an event that has none, so that sending its batch again (after
 * a lost answer, or a second run over the same file) applies it once: the service counts an
 * event whose id its community holds as a duplicate. The id is made of the line's number and a
 * hash of its text, so the same line of the same file always gets the same id, and two equal
 * events on different lines stay two events.
 */
import { createHash } from 'node:crypto';

export function lineEventId(line: number, text: string): string {
  return `line-${line}-${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
}
