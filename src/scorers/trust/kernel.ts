/**
 * The PlayerRating iteration (SPEC §4) over a node range of an incoming CSR, and the arrays it
 * runs on. It runs on one thread, or on the main thread and a worker in lockstep (./worker.ts)
 * over shared memory. Each node's value is computed the same way whatever the split, and the
 * RMSD is summed per block of BLOCK nodes in block order, so one and two threads give
 * bit-identical results.
 *
 * Two barriers per iteration, none to agree on stopping: both threads compute the same RMSD.
 */
import type { IncomingCsr } from '../../graph/csr.js';
import { allocate, withLength } from '../../util/typed-arrays.js';
import type { InfluenceFunction } from './params.js';

export const BLOCK = 1024;

/** ctrl slots: barrier generation and arrivals, and a flag either thread sets when it fails. */
const GENERATION = 0;
const ARRIVED = 1;
const FAILED = 2;
export const CONTROL_SLOTS = 3;

export interface KernelArrays {
  readonly offsets: Int32Array;
  readonly sources: Int32Array;
  /** r_ij · Decay(TTL_ij) per edge. */
  readonly weights: Float64Array;
  /** negativeWeight (or 1) per edge, and weights × it; empty when negativeWeight is 1. */
  readonly factor: Float64Array;
  readonly weighted: Float64Array;
  readonly pinned: Uint8Array;
  /** Reputations, alternating as current and next by iteration parity (a holds the start). */
  readonly a: Float64Array;
  readonly b: Float64Array;
  /** Inf(R_i) and Inf(R_i)·R_i side by side, for the current values. */
  readonly rater: Float64Array;
  /** Σ of squared changes of rated nodes, per block. */
  readonly blockSquares: Float64Array;
  readonly ctrl: Int32Array;
}

export interface KernelRun {
  readonly arrays: KernelArrays;
  readonly lo: number;
  readonly hi: number;
  readonly parties: number;
  readonly maxIterations: number;
  readonly tolerance: number;
  /** Rated, unpinned nodes: the RMSD's denominator. */
  readonly rated: number;
  readonly influence: InfluenceFunction;
  /** The main thread (party 0) keeps the residuals. */
  readonly leader: boolean;
}

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

function barrier(ctrl: Int32Array, parties: number): void {
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

/** rater[2i] = Inf(R_i) where positive (else 0), rater[2i + 1] = that · R_i. */
function raterTerms(influence: InfluenceFunction, values: Float64Array, rater: Float64Array, lo: number, hi: number): void {
  for (let i = lo; i < hi; i++) {
    const r = values[i]!;
    const inf = influence(r);
    const weight = inf > 0 ? inf : 0;
    rater[2 * i] = weight;
    rater[2 * i + 1] = weight * r;
  }
}

/**
 * One iteration over nodes [lo, hi), after every node's rater terms are in `rater`: their next
 * values and the squared changes per block. A function per iteration, not a loop inside
 * runKernel, so it is compiled after the first iterations of a process and stays compiled for
 * later computations (a loop compiled on the stack is not).
 */
function iterate(arrays: KernelArrays, current: Float64Array, next: Float64Array, lo: number, hi: number): void {
  const { offsets, sources, weights, factor, weighted, pinned, rater, blockSquares } = arrays;
  const plain = factor.length === 0;
  for (let block = lo; block < hi; block += BLOCK) {
    let squares = 0;
    for (let j = block, last = Math.min(block + BLOCK, hi); j < last; j++) {
      if (pinned[j] === 1) {
        next[j] = 1;
        continue;
      }
      const begin = offsets[j]!;
      const end = offsets[j + 1]!;
      let num = 0;
      let den = 0;
      if (plain) {
        for (let e = begin; e < end; e++) {
          const at = 2 * sources[e]!;
          num += weights[e]! * rater[at + 1]!;
          den += rater[at]!;
        }
      } else {
        for (let e = begin; e < end; e++) {
          const at = 2 * sources[e]!;
          num += weighted[e]! * rater[at + 1]!;
          den += factor[e]! * rater[at]!;
        }
      }
      const value = den > 0 ? num / den : 0;
      next[j] = value;
      if (end > begin) {
        const d = value - current[j]!;
        squares += d * d;
      }
    }
    blockSquares[block / BLOCK] = squares;
  }
}

/**
 * Runs the iterations on [lo, hi); returns the residual of each iteration (the leader's; both
 * agree). Per iteration: rater terms of this thread's nodes, barrier, next values, barrier; then
 * both threads sum the same block squares in the same order and so stop together. The next rater
 * pass cannot overwrite what the other thread still reads: that thread has passed the barrier.
 */
export function runKernel(run: KernelRun): number[] {
  const { arrays, lo, hi, parties, influence } = run;
  const { ctrl, blockSquares } = arrays;
  const residuals: number[] = [];
  for (let it = 0; it < run.maxIterations; it++) {
    const current = it % 2 === 0 ? arrays.a : arrays.b;
    const next = it % 2 === 0 ? arrays.b : arrays.a;
    raterTerms(influence, current, arrays.rater, lo, hi);
    barrier(ctrl, parties);
    iterate(arrays, current, next, lo, hi);
    barrier(ctrl, parties);
    let squares = 0;
    for (let k = 0; k < blockSquares.length; k++) squares += blockSquares[k]!;
    const rmsd = run.rated === 0 ? 0 : Math.sqrt(squares / run.rated);
    if (run.leader) residuals.push(rmsd);
    if (rmsd < run.tolerance) break;
  }
  return residuals;
}

/** The kernel's arrays, on shared memory when two threads will use them. */
export function kernelArrays(csr: IncomingCsr, observers: readonly number[], negativeWeight: number, shared: boolean): KernelArrays {
  const n = csr.nodes;
  const m = csr.sources.length;
  // The CSR is used as it is unless a second thread needs it on shared memory and it is not.
  const copy = <A extends Int32Array | Float64Array>(source: A): A =>
    !shared || source.buffer instanceof SharedArrayBuffer ? source : withLength(source, source.length, source.length, true);
  const plain = negativeWeight === 1;
  const factor = allocate(Float64Array, plain ? 0 : m, shared);
  const weighted = allocate(Float64Array, plain ? 0 : m, shared);
  for (let e = 0; e < factor.length; e++) {
    const f = csr.weights[e]! < 0 ? negativeWeight : 1;
    factor[e] = f;
    weighted[e] = f * csr.weights[e]!;
  }
  const pinned = allocate(Uint8Array, n, shared);
  const a = allocate(Float64Array, n, shared);
  for (const s of observers) {
    pinned[s] = 1;
    a[s] = 1;
  }
  return {
    offsets: copy(csr.offsets),
    sources: copy(csr.sources),
    weights: copy(csr.weights),
    factor,
    weighted,
    pinned,
    a,
    b: allocate(Float64Array, n, shared),
    rater: allocate(Float64Array, 2 * n, shared),
    blockSquares: allocate(Float64Array, Math.ceil(n / BLOCK), shared),
    ctrl: allocate(Int32Array, CONTROL_SLOTS, shared),
  };
}

/** A block boundary near half of the edges, so both threads get about the same work. */
export function balancedSplit(offsets: Int32Array, n: number): number {
  const half = offsets[n]! / 2;
  let split = 0;
  while (split < n && offsets[split]! < half) split += BLOCK;
  return Math.min(split, n);
}
