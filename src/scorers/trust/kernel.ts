/**
 * The PlayerRating iteration (docs/spec.md §4) over a node range of an incoming CSR, on the arrays of
 * ./kernel/memory.ts. It runs on one thread, or on the main thread and a worker in lockstep
 * (./worker.ts, meeting at ./kernel/barrier.ts).
 * The arrays live in one shared WebAssembly memory, and each iteration's sums run in WebAssembly
 * (./iterate.wat), as do the default Influence's rater terms (any other Influence function runs
 * in JavaScript, on one thread: the helper knows only the default). Each node's
 * value is computed the same way whatever the split (./kernel/split.ts), and the RMSD is summed per block of BLOCK
 * nodes in block order, so one and two threads give bit-identical results.
 *
 * Two barriers per iteration, none to agree on stopping: both threads compute the same RMSD. Once
 * they stop, the main thread returns only after the helper has left the memory (which its next
 * computation reuses): ./kernel/barrier.ts, leave and awaitLeaving.
 */
import { ITERATE_WASM } from './iterate-wasm.js';
import { awaitLeaving, barrier, leave } from './kernel/barrier.js';
import type { KernelArrays } from './kernel/memory.js';
import { BLOCK } from './kernel/split.js';
import { positiveInfluence, type InfluenceFunction } from './params.js';
import { unreachable } from '../../errors.js';

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
  /** The compiled iteration (iterationModule() when not given). */
  readonly module?: WebAssembly.Module;
}

/** rater[2i] = Inf(R_i) where positive (else 0), rater[2i + 1] = that · R_i (any Influence; the default's is in ./iterate.wat). */
function raterTerms(influence: InfluenceFunction, values: Float64Array, rater: Float64Array, lo: number, hi: number): void {
  for (let i = lo; i < hi; i++) {
    const r = values[i]!;
    const inf = influence(r);
    const weight = inf > 0 ? inf : 0;
    rater[2 * i] = weight;
    rater[2 * i + 1] = weight * r;
  }
}

/** The iteration's exports over one computation's memory. */
interface Iteration {
  positiveRaterTerms(values: number, rater: number, lo: number, hi: number): void;
  iterate(offsets: number, sources: number, weights: number, factor: number, weighted: number, pinned: number, rater: number, current: number, next: number, blockSquares: number, lo: number, hi: number, block: number, plain: number, positive: number): void;
}

/**
 * ./iterate.wat, compiled once per process: the main thread compiles it and hands the module to
 * the helper with each job, so the helper compiles nothing itself.
 */
let compiled: WebAssembly.Module | undefined;

export function iterationModule(): WebAssembly.Module {
  compiled ??= new WebAssembly.Module(Buffer.from(ITERATE_WASM, 'base64'));
  return compiled;
}

function iteration(memory: WebAssembly.Memory, module: WebAssembly.Module): Iteration {
  return new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as Iteration;
}

/**
 * One iteration over nodes [lo, hi), after every node's rater terms are in `rater` (as pairs, or
 * R⁺ alone when `positive`: ./iterate.wat): their next values and the squared changes per block.
 */
function iterate(run: Iteration, arrays: KernelArrays, current: Float64Array, next: Float64Array, lo: number, hi: number, positive: boolean): void {
  const { offsets, sources, weights, factor, weighted, pinned, rater, blockSquares } = arrays;
  run.iterate(
    offsets.byteOffset,
    sources.byteOffset,
    weights.byteOffset,
    factor.byteOffset,
    weighted.byteOffset,
    pinned.byteOffset,
    rater.byteOffset,
    current.byteOffset,
    next.byteOffset,
    blockSquares.byteOffset,
    lo,
    hi,
    BLOCK,
    factor.length === 0 ? 1 : 0,
    positive ? 1 : 0,
  );
}

/**
 * Runs the iterations on [lo, hi); returns the residual of each iteration (the leader's; both
 * agree). Per iteration: rater terms of this thread's nodes, barrier, next values, barrier; then
 * both threads sum the same block squares in the same order and so stop together. The next rater
 * pass cannot overwrite what the other thread still reads: that thread has passed the barrier.
 * After the last iteration the helper leaves, and the main thread waits for that before it
 * returns.
 */
export function runKernel(run: KernelRun): number[] {
  const { arrays, lo, hi, parties, influence } = run;
  const { ctrl, blockSquares } = arrays;
  const compiledRun = iteration(arrays.memory, run.module ?? iterationModule());
  const positive = influence === positiveInfluence;
  // The helper always assumes the default's layout of rater terms (a function cannot cross threads).
  if (parties > 1 && !positive) unreachable('trust: two threads need the default Influence');
  const residuals: number[] = [];
  for (let it = 0; it < run.maxIterations; it++) {
    const current = it % 2 === 0 ? arrays.a : arrays.b;
    const next = it % 2 === 0 ? arrays.b : arrays.a;
    if (positive) compiledRun.positiveRaterTerms(current.byteOffset, arrays.rater.byteOffset, lo, hi);
    else raterTerms(influence, current, arrays.rater, lo, hi);
    barrier(ctrl, parties);
    iterate(compiledRun, arrays, current, next, lo, hi, positive);
    barrier(ctrl, parties);
    let squares = 0;
    for (let k = 0; k < blockSquares.length; k++) squares += blockSquares[k]!;
    const rmsd = run.rated === 0 ? 0 : Math.sqrt(squares / run.rated);
    if (run.leader) residuals.push(rmsd);
    if (rmsd < run.tolerance) break;
  }
  if (parties > 1) {
    if (run.leader) awaitLeaving(ctrl);
    else leave(ctrl);
  }
  return residuals;
}
