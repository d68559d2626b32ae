/**
 * The one helper thread per process that runs the second half of two-thread trust computations
 * (./worker.ts). Started by the first such computation (or warmed up ahead of it, before the
 * arrays are built, so that start-up overlaps the build) and kept for the next: a fresh thread
 * would pay its start-up (loading its modules, compiling their JavaScript) again. It does not keep the
 * process alive (unref). A computation that fails on either side discards it, so a stalled or
 * broken helper is never handed another job; one that dies is replaced by the next computation
 * once its exit has been seen.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../util/start-worker.js';

const WORKER = new URL('./worker.js', import.meta.url);

let helper: Worker | undefined;

export function trustHelper(): Worker {
  if (helper === undefined) {
    const started = startWorker(WORKER);
    started.unref();
    const forget = () => {
      if (helper === started) helper = undefined;
    };
    // An error (a failed load, running out of memory) ends the thread: the computation waiting on
    // it sees no answer and fails; the process itself must not crash for want of a listener.
    started.on('error', forget);
    started.once('exit', forget);
    helper = started;
  }
  return helper;
}

/** Stops the helper (after a failed computation): the next computation starts a fresh one. */
export function discardTrustHelper(): void {
  const current = helper;
  helper = undefined;
  void current?.terminate();
}
