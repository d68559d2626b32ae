/** The worker thread's half of a two-thread trust computation (./kernel.ts). */
import { workerData } from 'node:worker_threads';
import { FAILED, runKernel, type KernelRun } from './kernel.js';
import { positiveInfluence } from './params.js';

const run = workerData as Omit<KernelRun, 'influence' | 'leader'>;
try {
  runKernel({ ...run, influence: positiveInfluence, leader: false });
} catch (error) {
  Atomics.store(run.arrays.ctrl, FAILED, 1);
  Atomics.notify(run.arrays.ctrl, 0);
  throw error;
}
