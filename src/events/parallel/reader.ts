/**
 * NDJSON parsed on worker threads: the main thread cuts the input into chunks of whole lines;
 * parse threads parse and validate some of them (./parse-chunk.ts) and send back columns
 * (./columns.ts), the main thread parses the others itself, and the events come out in input
 * order, as the serial reader (../ndjson.ts) gives them. A bad line stops the run with the serial reader's
 * error: the main thread parses that one line again, with its line number in the whole input.
 */
import { Buffer } from 'node:buffer';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EventSource, EventBatch } from '../ndjson.js';
import { parseEventLine, readFailure } from '../ndjson.js';
import type { StandingEvent } from '../types.js';
import { BatchDecoder, type EncodedBatch } from './columns.js';
import { parseChunkHere, type ParsedChunk } from './parse-chunk.js';

/** Bytes per chunk posted to a parse thread (whole lines: a longer line makes a longer chunk). */
export const PARALLEL_CHUNK_BYTES = 1 << 20;

/**
 * The compiled worker script. Run from TypeScript sources (the test runner), the compiled one in
 * dist/ is used: a worker thread cannot load a .ts file.
 */
function workerScript(): URL {
  const here = new URL('./parse-worker.js', import.meta.url);
  return existsSync(fileURLToPath(here)) ? here : new URL('../../../dist/events/parallel/parse-worker.js', import.meta.url);
}

/** Parse threads, each answering its chunks in order; chunks go round the pool. */
class ParsePool {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, { resolve(batch: EncodedBatch): void; reject(error: Error): void }>();
  private next = 0;
  private closed = false;

  constructor(threads: number) {
    for (let i = 0; i < threads; i++) {
      const worker = new Worker(workerScript());
      worker.on('message', ({ seq, batch }: { seq: number; batch: EncodedBatch }) => {
        const waiter = this.waiting.get(seq)!;
        this.waiting.delete(seq);
        waiter.resolve(batch);
      });
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => this.fail(new Error(`a parse thread exited (${code})`)));
      this.workers.push(worker);
    }
  }

  parse(bytes: Uint8Array): Promise<EncodedBatch> {
    const seq = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      this.workers[seq % this.workers.length]!.postMessage({ seq, bytes }, [bytes.buffer as ArrayBuffer]);
    });
  }

  private fail(error: Error): void {
    if (this.closed) return;
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }

  close(): void {
    this.closed = true;
    for (const worker of this.workers) void worker.terminate();
  }
}

/** `bytes` on an ArrayBuffer that holds nothing else, to transfer: itself when it already is. */
function own(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength && !(bytes.buffer instanceof SharedArrayBuffer)
    ? bytes
    : new Uint8Array(bytes);
}

/** A chunk of whole lines: parsed on a parse thread (`remote`) or, from `bytes`, on the main thread. */
interface Slot {
  parsed: ParsedChunk | EncodedBatch | undefined;
  bytes: Uint8Array | undefined;
  remote: Promise<void> | undefined;
}

/** Lets posted messages in (a macrotask turn), so finished parse threads are seen. */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Validated events of `source` in batches (one per chunk), parsed by `threads` parse threads
 * and by the main thread itself: a chunk goes to a thread while the threads hold fewer than two
 * each, else it stays for the main thread, which parses it while waiting for a thread's batch
 * (and without the columns' cost). Batches are yielded in input order.
 */
export async function* readEventBatchesParallel(source: EventSource, threads: number, chunkBytes = PARALLEL_CHUNK_BYTES): AsyncGenerator<EventBatch> {
  const pool = new ParsePool(threads);
  const decoder = new BatchDecoder();
  const slots: Slot[] = [];
  const maxRemote = 2 * threads;
  const maxSlots = maxRemote + 2;
  let remote = 0;
  let nextLine = 1;

  const add = (bytes: Uint8Array): void => {
    const slot: Slot = { parsed: undefined, bytes: undefined, remote: undefined };
    if (remote < maxRemote) {
      remote++;
      slot.remote = pool.parse(bytes).then((batch) => {
        remote--;
        slot.parsed = batch;
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

  /** The oldest chunk's events, or the error of its bad line. */
  const settle = async (): Promise<EventBatch> => {
    const head = slots[0]!;
    while (head.parsed === undefined) {
      if (head.bytes !== undefined) {
        parseHere(head);
        break;
      }
      const ahead = slots.find((slot) => slot.bytes !== undefined);
      if (ahead === undefined) {
        await head.remote;
      } else {
        parseHere(ahead);
        await turn();
      }
    }
    slots.shift();
    const parsed = head.parsed!;
    if (parsed.failure !== undefined) {
      parseEventLine(parsed.failure.text, source.name, nextLine + parsed.failure.line);
      throw new Error(`line ${nextLine + parsed.failure.line} failed to parse once but not twice`);
    }
    const events = 'events' in parsed ? parsed.events : (decoder.decode(parsed) as StandingEvent[]);
    const lines = new Array<number>(events.length);
    for (let i = 0; i < lines.length; i++) lines[i] = nextLine + parsed.eventLines[i]!;
    nextLine += parsed.lines;
    return { events, lines };
  };

  const chunks = (source.stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const nextChunk = async (): Promise<Buffer | undefined> => {
    try {
      const { done, value } = await chunks.next();
      return done === true ? undefined : value;
    } catch (error) {
      throw readFailure(error, source.name);
    }
  };

  try {
    let carry: Buffer = Buffer.alloc(0);
    for (let chunk = await nextChunk(); chunk !== undefined; chunk = await nextChunk()) {
      carry = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
      if (carry.length < chunkBytes) continue;
      const cut = carry.lastIndexOf(10);
      if (cut < 0) continue;
      const whole = own(carry);
      carry = Buffer.from(whole.subarray(cut + 1)); // a copy: `whole` may go to another thread
      add(whole.subarray(0, cut + 1));
      while (slots.length >= maxSlots) {
        const batch = await settle();
        if (batch.events.length > 0) yield batch;
      }
    }
    if (carry.length > 0) add(own(carry));
    while (slots.length > 0) {
      const batch = await settle();
      if (batch.events.length > 0) yield batch;
    }
  } finally {
    pool.close();
    slots.length = 0;
    void chunks.return?.();
  }
}
