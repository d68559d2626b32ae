/**
 * The barrier the two threads of a trust computation meet at (../kernel.ts), on the `ctrl`
 * slots of the computation's shared memory (./memory.ts), and the flag either thread sets when it
 * fails, so the other stops waiting.
 */

/** ctrl slots: barrier generation and arrivals, and a flag either thread sets when it fails. */
const GENERATION = 0;
const ARRIVED = 1;
const FAILED = 2;
export const CONTROL_SLOTS = 3;

const WAIT_MS = 30_000;
/** Checks of the generation before sleeping: iterations are short, and waking a sleeper is not. */
const SPINS = 2_000;

/** Tells the other thread, at or on its way to a barrier, that this one failed. */
export function signalFailure(ctrl: Int32Array): void {
  Atomics.store(ctrl, FAILED, 1);
  Atomics.notify(ctrl, GENERATION);
}

/** Whether a thread has signalled a failure. */
export function failureSignalled(ctrl: Int32Array): boolean {
  return Atomics.load(ctrl, FAILED) !== 0;
}

/**
 * Returns once all `parties` threads have arrived (at once when there is one); throws when the
 * other thread has signalled a failure, or has not arrived within 30 s.
 */
export function barrier(ctrl: Int32Array, parties: number): void {
  if (parties === 1) return;
  const generation = Atomics.load(ctrl, GENERATION);
  if (Atomics.add(ctrl, ARRIVED, 1) === parties - 1) {
    Atomics.store(ctrl, ARRIVED, 0);
    Atomics.add(ctrl, GENERATION, 1);
    Atomics.notify(ctrl, GENERATION);
    return;
  }
  for (let spin = 0; spin < SPINS; spin++) if (Atomics.load(ctrl, GENERATION) !== generation) return;
  const started = Date.now();
  while (Atomics.load(ctrl, GENERATION) === generation) {
    if (failureSignalled(ctrl)) throw new Error('the other trust thread failed');
    if (Date.now() - started > WAIT_MS) throw new Error('the other trust thread did not answer within 30 s');
    Atomics.wait(ctrl, GENERATION, generation, 100);
  }
}
