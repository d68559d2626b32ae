/**
 * The parse threads of ./reader.ts: chunks go round the threads, each answers its own in order.
 * A thread that fails or exits fails every chunk still waiting and every later one, so a reader
 * never waits for a dead thread. A thread with no chunk to parse does not keep the process alive.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../util/start-worker.js';
import type { EncodedBatch } from './columns.js';

const WORKER = new URL('./parse-worker.js', import.meta.url);

interface Waiter {
  readonly worker: number;
  resolve(batch: EncodedBatch): void;
  reject(error: Error): void;
}

export class ParsePool {
  private readonly workers: Worker[] = [];
  /** Chunks posted to each thread and not answered yet. */
  private readonly busy: number[] = [];
  private readonly waiting = new Map<number, Waiter>();
  private next = 0;
  private failure: Error | undefined;
  private closed = false;

  /** `script` is for tests that need a thread that misbehaves. */
  constructor(threads: number, script: URL = WORKER) {
    for (let i = 0; i < threads; i++) {
      const worker = startWorker(script);
      worker.on('message', ({ seq, batch }: { seq: number; batch: EncodedBatch }) => {
        const waiter = this.waiting.get(seq);
        if (waiter === undefined) return; // the pool failed meanwhile: already rejected
        this.waiting.delete(seq);
        this.settled(waiter.worker);
        waiter.resolve(batch);
      });
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => this.fail(new Error(`a parse thread exited with code ${code}`)));
      worker.unref();
      this.workers.push(worker);
      this.busy.push(0);
    }
  }

  /** The chunk's events in columns; rejects once any thread has failed. */
  parse(bytes: Uint8Array): Promise<EncodedBatch> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const seq = this.next++;
    const index = seq % this.workers.length;
    const worker = this.workers[index]!;
    return new Promise((resolve, reject) => {
      this.waiting.set(seq, { worker: index, resolve, reject });
      if (this.busy[index]!++ === 0) worker.ref();
      worker.postMessage({ seq, bytes }, [bytes.buffer as ArrayBuffer]);
    });
  }

  close(): void {
    this.closed = true;
    for (const worker of this.workers) void worker.terminate();
  }

  private settled(index: number): void {
    if (--this.busy[index]! === 0) this.workers[index]!.unref();
  }

  private fail(error: Error): void {
    if (this.closed || this.failure !== undefined) return;
    this.failure = error;
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
    for (const worker of this.workers) void worker.terminate();
  }
}
