/**
 * A trust computation's arrays (../kernel.ts), laid out one after another in one shared
 * WebAssembly memory per thread, kept between computations: the memory the iteration
 * (../iterate.wat) runs in and the helper thread shares.
 */
import type { IncomingCsr } from '../../../graph/csr.js';
import { CONTROL_SLOTS } from './barrier.js';
import { BLOCK } from './split.js';

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
   * Influence R_i⁺ alone, in the first n (../iterate.wat).
   */
  readonly rater: Float64Array;
  /** Σ of squared changes of rated nodes, per block. */
  readonly blockSquares: Float64Array;
  readonly ctrl: Int32Array;
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
