/**
 * Streaming NDJSON: splits a byte stream into lines without holding more than one chunk, and
 * turns each non-blank line into a validated event. Lines come in batches (one per chunk) so
 * a long log costs one await per chunk, not per line. A large file is parsed on worker threads
 * (./parallel/reader.ts), with the same events, batches aside, and the same errors.
 */
import { createReadStream, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isBlank, parseEventLine, readFailure, withoutCarriageReturn, type EventBatch, type EventSource, type LineBatch } from './lines.js';
import type { StandingEvent } from './types.js';

export interface ReadOptions {
  /**
   * Worker threads that parse besides the calling thread (which parses too): 0 parses on the
   * calling thread alone. By default a file of 8 MiB or more gets one per core beyond the first,
   * up to a cap (see defaultParseThreads).
   */
  readonly parseThreads?: number;
}

export { isBlank, parseEventLine, readFailure, withoutCarriageReturn, type EventBatch, type EventSource, type LineBatch } from './lines.js';

/** Below this size a file is parsed on the calling thread: starting threads would cost more. */
const PARALLEL_MIN_BYTES = 8 << 20;

/** Parse threads by default (besides the calling thread, which parses too), cores permitting. */
const MAX_DEFAULT_PARSE_THREADS = 3;

const CHUNK_BYTES = 1 << 20;

/** A file path, or `-` for standard input. Opening a missing file fails when first read. */
export function openEventSource(path: string): EventSource {
  if (path === '-') return { name: 'stdin', stream: process.stdin };
  let size: number | undefined;
  try {
    const stat = statSync(path);
    if (stat.isFile()) size = stat.size;
  } catch {
    // reported by the first read, as for any unreadable source
  }
  return { name: path, stream: createReadStream(path, { highWaterMark: CHUNK_BYTES }), ...(size === undefined ? {} : { size }) };
}


/** Splits `stream` into lines (LF or CRLF), in batches; a byte-order mark at its start is dropped. */
export async function* readLineBatches(source: EventSource): AsyncGenerator<LineBatch> {
  const { stream, name } = source;
  stream.setEncoding('utf8');
  let carry = '';
  let nextLine = 1;
  let started = false;
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      let text = carry + chunk;
      if (!started && text.length > 0) {
        started = true;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      const lines = text.split('\n');
      carry = lines.pop()!;
      if (lines.length === 0) continue;
      for (let i = 0; i < lines.length; i++) lines[i] = withoutCarriageReturn(lines[i]!);
      yield { firstLine: nextLine, lines };
      nextLine += lines.length;
    }
  } catch (error) {
    throw readFailure(error, name);
  }
  carry = withoutCarriageReturn(carry);
  if (carry.length > 0) yield { firstLine: nextLine, lines: [carry] };
}


/** The parse threads a source of `bytes` gets by default (see ReadOptions); unknown size: none. */
export function defaultParseThreads(bytes: number | undefined): number {
  if (bytes === undefined || bytes < PARALLEL_MIN_BYTES) return 0;
  return Math.min(availableParallelism() - 1, MAX_DEFAULT_PARSE_THREADS);
}

/** Validated events of an NDJSON source, in batches; blank lines are skipped. */
export async function* readEventBatches(source: EventSource, options: ReadOptions = {}): AsyncGenerator<EventBatch> {
  const threads = options.parseThreads ?? defaultParseThreads(source.size);
  if (threads > 0) {
    const { readEventBatchesParallel } = await import('./parallel/reader.js');
    yield* readEventBatchesParallel(source, threads);
    return;
  }
  for await (const { firstLine, lines } of readLineBatches(source)) {
    const events: StandingEvent[] = [];
    const numbers: number[] = [];
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!;
      if (isBlank(text)) continue;
      events.push(parseEventLine(text, source.name, firstLine + i));
      numbers.push(firstLine + i);
    }
    if (events.length > 0) yield { events, lines: numbers };
  }
}

/** Validated events of an NDJSON source, one at a time. */
export async function* readEvents(source: EventSource, options: ReadOptions = {}): AsyncGenerator<StandingEvent> {
  for await (const batch of readEventBatches(source, options)) yield* batch.events;
}
