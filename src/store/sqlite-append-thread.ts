/** The main thread's side of ./sqlite-append-worker.ts: one worker, requests answered in order. */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../util/start-worker.js';
import type { AppendMessage } from './sqlite-append-worker.js';
import { busyAsTyped } from './sqlite-write.js';

const WORKER = new URL('./sqlite-append-worker.js', import.meta.url);

export class AppendThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(sequences: ArrayLike<number>): void; reject(error: Error): void }>();
  private nextId = 0;
  private failure: Error | undefined;

  constructor(path: string) {
    this.worker = startWorker(WORKER, { workerData: { path } });
    this.worker.on('message', ({ id, sequences, error, code }: { id: number; sequences?: Float64Array; error?: string; code?: unknown }) => {
      const waiting = this.pending.get(id)!;
      this.pending.delete(id);
      if (this.pending.size === 0) this.worker.unref();
      if (error === undefined) waiting.resolve(sequences!);
      else waiting.reject(busyAsTyped(Object.assign(new Error(`SQLite append failed: ${error}`), { code })) as Error);
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`the SQLite append thread exited (${code})`)));
    this.worker.unref();
  }

  /** Appends the events whose JSON text (JSON.stringify of the array) is `text`; each one's sequence, 0 for a repeated id. */
  append(text: string): Promise<ArrayLike<number>> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref(); // keep the process alive while a commit is due
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, text } satisfies AppendMessage);
    });
  }

  async close(): Promise<void> {
    this.failure ??= new Error('the store is closed');
    await this.worker.terminate();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
