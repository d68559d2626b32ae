/**
 * The barrier the two threads of a trust computation meet at (../kernel.ts), on the `ctrl`
 * slots of the computation's shared memory (./memory.ts), the flag either thread sets when it
 * fails, so the other stops waiting, and the flag the helper sets when it has left the
 * computation's memory, which the main thread's next computation reuses.
 */
import { InternalError } from '../../../errors.js';

/** ctrl slots: barrier generation and arrivals, a flag either thread sets when it fails, and the helper's "left". */
const GENERATION = 0;
const ARRIVED = 1;
const FAILED = 2;
const LEFT = 3;
export const CONTROL_SLOTS = 4;

const WAIT_MS = 30_000;
/** Checks of a slot before sleeping: iterations are short, and waking a sleeper is not. */
const SPINS = 2_000;

/** Tells the other thread, at or on its way to a barrier, that this one failed. */
export function signalFailure(ctrl: Int32Array): void {
  Atomics.store(ctrl, FAILED, 1);
  Atomics.notify(ctrl, GENERATION);
  Atomics.notify(ctrl, LEFT);
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
  waitWhile(ctrl, GENERATION, generation);
}

/**
 * The helper's last touch of a computation's memory, once it has decided to stop: after it, the
 * main thread may reuse the memory for its next computation (see awaitLeaving).
 */
export function leave(ctrl: Int32Array): void {
  Atomics.store(ctrl, LEFT, 1);
  Atomics.notify(ctrl, LEFT);
}

/**
 * Returns once the helper has left the computation's memory (leave). After the last barrier the
 * helper still reads the block sums to decide that it stops, and waits at the barrier until it
 * sees the generation change: a next computation laid out over the same memory would feed it
 * other numbers, and it would go on iterating over that computation's arrays. Throws as the
 * barrier does.
 */
export function awaitLeaving(ctrl: Int32Array): void {
  waitWhile(ctrl, LEFT, 0);
}

/** Waits while ctrl[slot] holds `value`: spinning a while, then sleeping; throws on a failure or after 30 s. */
function waitWhile(ctrl: Int32Array, slot: number, value: number): void {
  for (let spin = 0; spin < SPINS; spin++) if (Atomics.load(ctrl, slot) !== value) return;
  const started = Date.now();
  while (Atomics.load(ctrl, slot) === value) {
    if (failureSignalled(ctrl)) throw new InternalError('the other trust thread failed');
    if (Date.now() - started > WAIT_MS) throw new InternalError('the other trust thread did not answer within 30 s');
    Atomics.wait(ctrl, slot, value, 100);
  }
}
