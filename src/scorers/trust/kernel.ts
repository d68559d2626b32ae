/**
 * The PlayerRating iteration (SPEC §4) over a node range of an incoming CSR, and the arrays it
 * runs on. It runs on one thread, or on the main thread and a worker in lockstep (./worker.ts).
 * The arrays live in one shared WebAssembly memory, and each iteration's sums run in WebAssembly
 * (./iterate.wat), as do the default Influence's rater terms (any other Influence function runs
 * in JavaScript, on one thread: the helper knows only the default). Each node's
 * value is computed the same way whatever the split, and the RMSD is summed per block of BLOCK
 * nodes in block order, so one and two threads give bit-identical results.
 *
 * Two barriers per iteration, none to agree on stopping: both threads compute the same RMSD.
 */
import type { IncomingCsr } from '../../graph/csr.js';
import { ITERATE_WASM } from './iterate-wasm.js';
import { positiveInfluence, type InfluenceFunction } from './params.js';

export const BLOCK = 1024;

/** ctrl slots: barrier generation and arrivals, and a flag either thread sets when it fails. */
const GENERATION = 0;
const ARRIVED = 1;
const FAILED = 2;
export const CONTROL_SLOTS = 3;

export interface KernelArrays {
  /** The memory every array below is a view of. */
  readonly memory: WebAssembly.Memory;
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
  /**
   * Inf(R_i) and Inf(R_i)·R_i side by side for the current values (2n numbers); with the default
   * Influence R_i⁺ alone, in the first n (./iterate.wat).
   */
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
  /** The compiled iteration (iterationModule() when not given). */
  readonly module?: WebAssembly.Module;
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
 */
export function runKernel(run: KernelRun): number[] {
  const { arrays, lo, hi, parties, influence } = run;
  const { ctrl, blockSquares } = arrays;
  const compiledRun = iteration(arrays.memory, run.module ?? iterationModule());
  const positive = influence === positiveInfluence;
  // The helper always assumes the default's layout of rater terms (a function cannot cross threads).
  if (parties > 1 && !positive) throw new Error('trust: two threads need the default Influence');
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
  return residuals;
}

/** WebAssembly memories are counted in pages of 64 KiB, and hold at most 65,536 of them (4 GiB). */
const PAGE = 65_536;
const MAX_PAGES = 65_536;

type ViewKind = typeof Int32Array | typeof Float64Array | typeof Uint8Array;

/**
 * The memory this thread's computations run in, kept between them and grown when one needs
 * more (it never shrinks: it stays as large as the largest computation so far). One memory, not
 * one per computation: V8 reserves a large stretch of address space for each WebAssembly memory
 * (the 13,092nd live one failed to allocate on the project's VM), so some thousands kept alive,
 * say by cached results, would exhaust it. Computations on one thread never overlap, and their results copy out what they keep.
 */
let kernelMemory: WebAssembly.Memory | undefined;

/** Forgets the kept memory (after a failed computation, whose helper might still write to it). */
export function discardKernelMemory(): void {
  kernelMemory = undefined;
}

function memoryOf(pages: number): WebAssembly.Memory {
  if (kernelMemory === undefined) {
    kernelMemory = new WebAssembly.Memory({ initial: pages, maximum: MAX_PAGES, shared: true });
  } else {
    const have = kernelMemory.buffer.byteLength / PAGE;
    if (have < pages) kernelMemory.grow(pages - have);
  }
  return kernelMemory;
}

/**
 * Views of the given kinds and lengths laid out one after another (8-byte aligned) in this
 * thread's kernel memory (whatever the last computation left there). Throws a RangeError, naming
 * `what()`, when they need more than 4 GiB.
 */
function carve<P extends Record<string, readonly [ViewKind, number]>>(what: () => string, parts: P): { memory: WebAssembly.Memory; views: { [K in keyof P]: InstanceType<P[K][0]> } } {
  const at: Record<string, number> = {};
  let bytes = 0;
  for (const [name, [Kind, length]] of Object.entries(parts)) {
    at[name] = bytes;
    bytes += Math.ceil((length * Kind.BYTES_PER_ELEMENT) / 8) * 8;
  }
  const pages = Math.ceil(bytes / PAGE);
  if (pages > MAX_PAGES) throw new RangeError(`${what()} needs ${(bytes / 2 ** 30).toFixed(1)} GiB, over the 4 GiB a WebAssembly memory holds`);
  const memory = memoryOf(Math.max(pages, 1));
  const views: Record<string, Int32Array | Float64Array | Uint8Array> = {};
  for (const [name, [Kind, length]] of Object.entries(parts)) {
    views[name] = new (Kind as new (buffer: ArrayBufferLike, offset: number, length: number) => Int32Array | Float64Array | Uint8Array)(memory.buffer, at[name]!, length);
  }
  return { memory, views: views as { [K in keyof P]: InstanceType<P[K][0]> } };
}

/**
 * A computation's arrays in this thread's shared WebAssembly memory, with room for `capacity`
 * ratings (a computation gives the rating log's length: its live ratings and the superseded ones
 * not compacted yet). The per-node arrays are zeroed; the CSR is then built in place
 * (RatingLog.byRatee's `into`) or copied in by loadKernel, which also sets the negative-rating
 * factors. The arrays are valid until the thread's next computation. Throws a RangeError when they need more than the 4 GiB a memory holds (about
 * 350 million ratings, 150 million with a negativeWeight above 1).
 */
export function allocateKernel(nodes: number, capacity: number, negativeWeight: number): KernelArrays {
  const plain = negativeWeight === 1;
  const count = (n: number) => n.toLocaleString('en-US');
  const { memory, views } = carve(() => `trust: a computation over ${count(nodes)} players and ${count(capacity)} ratings in the log`, {
    offsets: [Int32Array, nodes + 1],
    sources: [Int32Array, capacity],
    weights: [Float64Array, capacity],
    factor: [Float64Array, plain ? 0 : capacity],
    weighted: [Float64Array, plain ? 0 : capacity],
    a: [Float64Array, nodes],
    b: [Float64Array, nodes],
    rater: [Float64Array, 2 * nodes],
    blockSquares: [Float64Array, Math.ceil(nodes / BLOCK)],
    pinned: [Uint8Array, nodes],
    ctrl: [Int32Array, CONTROL_SLOTS],
  });
  for (const perNode of [views.a, views.b, views.rater, views.blockSquares, views.pinned, views.ctrl]) perNode.fill(0);
  return { memory, ...views };
}

/**
 * `arrays` (from allocateKernel) ready to iterate over `csr`: the CSR copied in unless it was
 * built there, the views cut to its ratings, the negative-rating factors set (when
 * negativeWeight is not 1) and the observers pinned at 1.
 */
export function loadKernel(arrays: KernelArrays, csr: IncomingCsr, observers: readonly number[], negativeWeight: number): KernelArrays {
  const m = csr.sources.length;
  const inPlace = csr.sources.buffer === arrays.memory.buffer;
  if (!inPlace) {
    arrays.offsets.set(csr.offsets);
    arrays.sources.set(csr.sources);
    arrays.weights.set(csr.weights);
  }
  const loaded: KernelArrays = {
    ...arrays,
    sources: arrays.sources.subarray(0, m),
    weights: arrays.weights.subarray(0, m),
    factor: arrays.factor.subarray(0, Math.min(m, arrays.factor.length)),
    weighted: arrays.weighted.subarray(0, Math.min(m, arrays.weighted.length)),
  };
  const { weights, factor, weighted, pinned, a } = loaded;
  for (let e = 0; e < factor.length; e++) {
    const f = weights[e]! < 0 ? negativeWeight : 1;
    factor[e] = f;
    weighted[e] = f * weights[e]!;
  }
  for (const s of observers) {
    pinned[s] = 1;
    a[s] = 1;
  }
  return loaded;
}

/**
 * What a node costs an iteration beyond its edges (its rater terms, its row's setup and
 * division), in edges: about 3.5 when timing each thread's part on the bench graph.
 */
const NODE_COST_IN_EDGES = 4;

/** A block boundary near half of the work (edges, plus NODE_COST_IN_EDGES per node), so both threads take about as long. */
export function balancedSplit(offsets: Int32Array, n: number): number {
  const half = (offsets[n]! + NODE_COST_IN_EDGES * n) / 2;
  let split = 0;
  while (split < n && offsets[split]! + NODE_COST_IN_EDGES * split < half) split += BLOCK;
  return Math.min(split, n);
}
