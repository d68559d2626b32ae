/**
 * NDJSON parsed on worker threads: the main thread cuts the input into chunks of whole lines;
 * parse threads parse and validate some of them (./parse-chunk.ts) and send back columns
 * (./columns.ts), the main thread parses the others itself, and the events come out in input
 * order, as the serial reader (../ndjson.ts) gives them. A bad line stops the run with the serial
 * reader's error: the main thread parses that one line again, with its line number in the whole
 * input. (Before an error, the events given so far may differ: the readers batch differently.)
 */
import { Buffer } from 'node:buffer';
import { InputError, unreachable } from '../../errors.js';
import type { EventSource, EventBatch } from '../lines.js';
import { parseEventLine, readFailure } from '../lines.js';
import type { StandingEvent } from '../types.js';
import { BatchDecoder, type EncodedBatch } from './columns.js';
import { parseChunkHere, type ParsedChunk } from './parse-chunk.js';
import { pieceEnds, type PieceMode } from './pieces.js';
import { ParsePool } from './pool.js';

/** The UTF-8 byte-order mark. */
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Bytes per chunk posted to a parse thread (whole lines: a longer line makes a longer chunk). */
const PARALLEL_CHUNK_BYTES = 1 << 20;

/** `bytes` on an ArrayBuffer that holds nothing else, to transfer: itself when it already is. */
function own(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength && !(bytes.buffer instanceof SharedArrayBuffer)
    ? bytes
    : new Uint8Array(bytes);
}

export interface ParallelOptions {
  /** Bytes per chunk (PARALLEL_CHUNK_BYTES); tests lower it to cut small inputs into many chunks. */
  readonly chunkBytes?: number;
  /** The parse threads' script; tests pass one that fails. */
  readonly workerScript?: URL;
}

/** A chunk of whole lines: parsed on a parse thread (`remote`) or, from `bytes`, on the main thread. */
interface Slot {
  parsed: ParsedChunk | EncodedBatch | undefined;
  bytes: Uint8Array | undefined;
  remote: Promise<void> | undefined;
  /** A copy of a remote chunk's bytes, kept until the threads have answered once (see `settle`). */
  spare: Uint8Array | undefined;
}

/** Lets posted messages in (a macrotask turn), so finished parse threads are seen. */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Validated events of `source` in batches (one per chunk), parsed by `threads` parse threads
 * and by the main thread itself: a chunk goes to a thread while the threads hold fewer than two
 * chunks per thread in all, else it stays for the main thread, which parses it while waiting for a thread's batch
 * (and without the columns' cost). Until a thread has answered once, the main thread also
 * parses a remote chunk it would otherwise wait for (see `settle`). Batches are yielded in input
 * order.
 */
export async function* readEventBatchesParallel(source: EventSource, threads: number, options: ParallelOptions = {}): AsyncGenerator<EventBatch> {
  const chunkBytes = options.chunkBytes ?? PARALLEL_CHUNK_BYTES;
  const pool = new ParsePool(threads, options.workerScript);
  const decoder = new BatchDecoder();
  const slots: Slot[] = [];
  const maxRemote = 2 * threads;
  const maxSlots = maxRemote + 2;
  let remote = 0;
  let nextLine = 1;
  /** Whether a parse thread has answered yet: until then, a thread may still be starting. */
  let answered = false;
  /** Remote chunks the main thread parsed itself: their threads' answers are awaited at the end. */
  const taken: Promise<void>[] = [];

  const add = (bytes: Uint8Array): void => {
    const slot: Slot = { parsed: undefined, bytes: undefined, remote: undefined, spare: undefined };
    if (remote < maxRemote) {
      remote++;
      if (!answered) slot.spare = new Uint8Array(bytes); // posting detaches `bytes`
      slot.remote = pool.parse(bytes).then((batch) => {
        remote--;
        answered = true;
        if (slot.parsed === undefined) slot.parsed = batch;
      });
      slot.remote.catch(() => undefined); // awaited in turn; one dropped after an error must not go unhandled
    } else {
      slot.bytes = bytes;
    }
    slots.push(slot);
  };

  const parseHere = (slot: Slot): void => {
    slot.parsed = parseChunkHere(slot.bytes!);
    slot.bytes = undefined;
  };

  /** A parse thread's failure as the reader's error. */
  const threadFailure = (error: unknown): InputError => new InputError(source.name, `a parse thread failed (${(error as Error).message})`);

  /**
   * The oldest chunk's events, or the error of its bad line. While the threads are starting (none
   * has answered yet), the main thread does not wait for a remote chunk with nothing else to
   * parse: it parses the chunk's spare copy itself. The thread's answer for it is then not used,
   * but it is still awaited before the read ends, so a thread that failed fails the read.
   */
  const settle = async (): Promise<EventBatch> => {
    const head = slots[0]!;
    while (head.parsed === undefined) {
      if (head.bytes !== undefined) {
        parseHere(head);
        break;
      }
      const ahead = slots.find((slot) => slot.bytes !== undefined);
      if (ahead === undefined && !answered && head.spare !== undefined) {
        head.parsed = parseChunkHere(head.spare);
        taken.push(head.remote!);
        break;
      }
      if (ahead === undefined) {
        try {
          await head.remote;
        } catch (error) {
          throw threadFailure(error);
        }
      } else {
        parseHere(ahead);
        await turn();
      }
    }
    slots.shift();
    head.spare = undefined;
    const parsed = head.parsed!;
    if (parsed.failure !== undefined) {
      parseEventLine(parsed.failure.text, source.name, nextLine + parsed.failure.line);
      unreachable(`line ${nextLine + parsed.failure.line} failed to parse once but not twice`);
    }
    const lines = new Array<number>(parsed.eventLines.length);
    for (let i = 0; i < lines.length; i++) lines[i] = nextLine + parsed.eventLines[i]!;
    nextLine += parsed.lines;
    if ('events' in parsed) return { events: parsed.events, lines };
    return { events: decoder.decode(parsed) as StandingEvent[], lines, idHashes: parsed.idHashes };
  };

  const chunks = (source.stream as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
  /** The next chunk as bytes (a stream may give strings); undefined at the end. */
  const nextChunk = async (): Promise<Buffer | undefined> => {
    const { done, value } = await chunks.next();
    if (done === true) return undefined;
    return typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  };

  try {
    // Read chunks wait in `parts` until they make chunkBytes, then are joined once and cut into
    // pieces of at least chunkBytes, each ending at a line end. What follows the last piece waits
    // for more; at the end of the input it is the last piece; after a read error, its complete
    // lines are (as the serial reader would have read them) and the cut-off line is dropped.
    let parts: Buffer[] = [];
    let partBytes = 0;
    const cut = (mode: PieceMode): void => {
      if (partBytes === 0) return;
      const joined = own(parts.length === 1 ? parts[0]! : Buffer.concat(parts, partBytes));
      const ends = pieceEnds(joined, chunkBytes, mode);
      const taken = ends.at(-1) ?? 0;
      if (taken === 0) return;
      const rest = joined.subarray(taken);
      parts = rest.length === 0 ? [] : [Buffer.from(rest)]; // a copy: `joined` may go to another thread
      partBytes = rest.length;
      if (ends.length === 1) {
        add(joined.subarray(0, taken));
        return;
      }
      for (let i = 0, from = 0; i < ends.length; from = ends[i++]!) add(new Uint8Array(joined.subarray(from, ends[i]!)));
    };
    let readError: unknown;
    /** Bytes of a UTF-8 byte-order mark still to look for at the start of the input. */
    let bom = 3;
    for (;;) {
      let chunk: Buffer | undefined;
      try {
        chunk = await nextChunk();
      } catch (error) {
        readError = readFailure(error, source.name);
        break;
      }
      if (chunk === undefined) {
        if (bom > 0 && bom < 3) {
          // the input was only the start of a mark: give it back, to fail as the serial reader does
          parts.push(Buffer.from(BOM.subarray(0, 3 - bom)));
          partBytes += 3 - bom;
        }
        break;
      }
      // A byte-order mark at the very start is dropped (the serial reader drops it too).
      while (bom > 0 && chunk.length > 0) {
        if (chunk[0] !== BOM[3 - bom]) {
          if (bom < 3) chunk = Buffer.concat([BOM.subarray(0, 3 - bom), chunk]); // not a mark: give back what was held
          bom = 0;
          break;
        }
        chunk = chunk.subarray(1);
        bom--;
      }
      if (chunk.length === 0) continue;
      parts.push(chunk);
      partBytes += chunk.length;
      if (partBytes < chunkBytes || chunk.lastIndexOf(10) < 0) continue; // a cut needs a line end
      cut('more');
      while (slots.length >= maxSlots) {
        const batch = await settle();
        if (batch.events.length > 0) yield batch;
      }
    }
    cut(readError === undefined ? 'end' : 'error');
    while (slots.length > 0) {
      const batch = await settle();
      if (batch.events.length > 0) yield batch;
    }
    for (const answer of taken) {
      try {
        await answer;
      } catch (error) {
        throw threadFailure(error);
      }
    }
    if (readError !== undefined) throw readError;
  } finally {
    pool.close();
    slots.length = 0;
    void chunks.return?.();
  }
}
