/**
 * The one helper thread per process that runs the second half of two-thread trust computations
 * (./worker.ts). Started by the first such computation, before its arrays are built so that
 * start-up overlaps the build, and kept for the next: a fresh thread would compile the kernel
 * again and run its first iterations slowly. It does not keep the process alive (unref), and a
 * helper that exits is replaced by the next computation.
 */
import { Worker } from 'node:worker_threads';

let helper: Worker | undefined;

export function trustHelper(): Worker {
  if (helper === undefined) {
    const started = new Worker(new URL('./worker.js', import.meta.url));
    started.unref();
    started.once('exit', () => {
      if (helper === started) helper = undefined;
    });
    helper = started;
  }
  return helper;
}
