/**
 * Parsing one chunk of whole lines, on a parse thread or on the main thread: the same line
 * splitting, blank-line rule and `parseEventLine` as the serial reader (../ndjson.ts). The first
 * bad line ends the chunk; when the chunk's turn comes, the main thread parses that line again
 * to throw the very error the serial reader throws, with its line number in the whole file.
 */
import { Buffer } from 'node:buffer';
import { isBlank, parseEventLine, withoutCarriageReturn } from '../lines.js';
import type { StandingEvent } from '../types.js';
import { BatchEncoder, type ChunkFailure, type EncodedBatch } from './columns.js';

/** A chunk parsed on the main thread. */
export interface ParsedChunk {
  /** Lines in the chunk, blank ones included. */
  readonly lines: number;
  readonly events: StandingEvent[];
  /** Per event: its 0-based line index in the chunk. */
  readonly eventLines: number[];
  readonly failure: ChunkFailure | undefined;
}

/**
 * Calls `visit` with each event of `bytes` (UTF-8, each line ended by '\n' except possibly the
 * last one of the input) and its line index; returns the line count and the first failure.
 */
function eachEvent(bytes: Uint8Array, visit: (event: StandingEvent, line: number) => void): { lines: number; failure: ChunkFailure | undefined } {
  const lines = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop(); // the text after the last '\n' is no line
  for (let i = 0; i < lines.length; i++) {
    const text = withoutCarriageReturn(lines[i]!);
    if (isBlank(text)) continue;
    let event: StandingEvent;
    try {
      event = parseEventLine(text, '', i + 1);
    } catch {
      return { lines: lines.length, failure: { line: i, text } };
    }
    visit(event, i);
  }
  return { lines: lines.length, failure: undefined };
}

/** On a parse thread: the chunk's events in columns, to post to the main thread. */
export function parseChunk(bytes: Uint8Array): EncodedBatch {
  const encoder = new BatchEncoder();
  const { lines, failure } = eachEvent(bytes, (event, line) => encoder.add(event as unknown as Record<string, unknown>, line));
  return encoder.finish(lines, failure);
}

/** On the main thread: the chunk's events as they are. */
export function parseChunkHere(bytes: Uint8Array): ParsedChunk {
  const events: StandingEvent[] = [];
  const eventLines: number[] = [];
  const { lines, failure } = eachEvent(bytes, (event, line) => {
    events.push(event);
    eventLines.push(line);
  });
  return { lines, events, eventLines, failure };
}
