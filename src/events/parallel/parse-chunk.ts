/**
 * What a parse thread does with one chunk of whole lines: the same line splitting, blank-line
 * rule and `parseEventLine` as the serial reader (../ndjson.ts), into columns (./columns.ts).
 * The first bad line ends the chunk; the main thread parses that line again to throw the very
 * error the serial reader throws, with its line number in the whole file.
 */
import { Buffer } from 'node:buffer';
import { isBlank, parseEventLine } from '../ndjson.js';
import { BatchEncoder, type EncodedBatch } from './columns.js';

/** `bytes`: UTF-8, each line ended by '\n' except possibly the last one of the input. */
export function parseChunk(bytes: Uint8Array): EncodedBatch {
  const lines = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop(); // the text after the last '\n' is no line
  const encoder = new BatchEncoder();
  for (let i = 0; i < lines.length; i++) {
    let text = lines[i]!;
    if (text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1);
    if (isBlank(text)) continue;
    let event: object;
    try {
      event = parseEventLine(text, '', i + 1);
    } catch {
      return encoder.finish(lines.length, { line: i, text });
    }
    encoder.add(event as Record<string, unknown>, i);
  }
  return encoder.finish(lines.length, undefined);
}
