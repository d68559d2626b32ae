/**
 * The helper thread of two-thread trust computations (./kernel.ts): it stays up between
 * computations (started once per process, see ./helper.ts), so its start-up is paid for once.
 * Each message is one computation's second half, with the main thread's compiled iteration.
 */
import { parentPort } from 'node:worker_threads';
import { runKernel, type KernelRun } from './kernel.js';
import { failureSignalled, signalFailure } from './kernel/barrier.js';
import { positiveInfluence } from './params.js';

parentPort!.on('message', (run: Omit<KernelRun, 'influence' | 'leader'>) => {
  try {
    runKernel({ ...run, influence: positiveInfluence, leader: false });
  } catch (error) {
    // The main thread, waiting at a barrier, throws on seeing the flag (and, in a computation,
    // discards this thread). When the flag is already up, the main thread failed and knows why.
    if (failureSignalled(run.arrays.ctrl)) return;
    signalFailure(run.arrays.ctrl);
    console.error(error);
  }
});
