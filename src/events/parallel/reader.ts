/**
 * NDJSON parsed on worker threads: the main thread cuts the input into chunks of whole lines,
 * parse threads parse and validate them (./parse-chunk.ts) and send back columns
 * (./columns.ts), and the main thread rebuilds the events and yields them in input order, as
 * the serial reader (../ndjson.ts) would. A bad line stops the run with the serial reader's
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

/** A copy of `bytes` in an ArrayBuffer of its own, to transfer. */
function own(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}

/** Validated events of `source` parsed on `threads` threads, in batches (one per chunk). */
export async function* readEventBatchesParallel(source: EventSource, threads: number, chunkBytes = PARALLEL_CHUNK_BYTES): AsyncGenerator<EventBatch> {
  const pool = new ParsePool(threads);
  const decoder = new BatchDecoder();
  const pending: Promise<EncodedBatch>[] = [];
  const inFlight = 2 * threads + 2;
  let nextLine = 1;

  /** Turns the oldest pending batch into events, or throws the error of its bad line. */
  const settle = async (): Promise<EventBatch> => {
    const batch = await pending.shift()!;
    if (batch.failure !== undefined) {
      parseEventLine(batch.failure.text, source.name, nextLine + batch.failure.line);
      throw new Error(`line ${nextLine + batch.failure.line} failed on a parse thread but not on the main thread`);
    }
    const events = decoder.decode(batch) as StandingEvent[];
    const lines = new Array<number>(events.length);
    for (let i = 0; i < lines.length; i++) lines[i] = nextLine + batch.eventLines[i]!;
    nextLine += batch.lines;
    return { events, lines };
  };

  const enqueue = (bytes: Uint8Array): void => {
    const batch = pool.parse(bytes);
    batch.catch(() => undefined); // awaited in turn; a batch dropped after an error must not go unhandled
    pending.push(batch);
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
      enqueue(own(carry.subarray(0, cut + 1)));
      carry = carry.subarray(cut + 1);
      while (pending.length >= inFlight) {
        const batch = await settle();
        if (batch.events.length > 0) yield batch;
      }
    }
    if (carry.length > 0) enqueue(own(carry));
    while (pending.length > 0) {
      const batch = await settle();
      if (batch.events.length > 0) yield batch;
    }
  } finally {
    pool.close();
    pending.length = 0;
    void chunks.return?.();
  }
}
