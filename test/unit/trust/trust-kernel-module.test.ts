/**
 * The trust iteration ships as WebAssembly compiled ahead of time from iterate.wat (so the
 * library needs neither a .wasm file nor a compiler at run time): the committed module must be
 * what the text compiles to now (`npm run generate` rewrites it). Its arrays share one
 * WebAssembly memory per thread, kept between computations, which cannot pass 4 GiB.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { wasmModuleSource } from '../../../scripts/wasm-module-source.mjs';
import { trust } from '../../../src/index.js';
import { allocateKernel, loadKernel } from '../../../src/scorers/trust/kernel/memory.js';
import { balancedSplit, BLOCK } from '../../../src/scorers/trust/kernel/split.js';

describe('the trust kernel', () => {
  it('is iterate.wat as compiled now', async () => {
    const wat = new URL('../../../src/scorers/trust/iterate.wat', import.meta.url);
    const committed = readFileSync(new URL('../../../src/scorers/trust/iterate-wasm.ts', import.meta.url), 'utf8');
    expect(committed).toBe(await wasmModuleSource(wat, 'ITERATE_WASM'));
  });

  it('refuses a graph whose arrays would not fit in one memory, saying why', () => {
    expect(() => allocateKernel(10, 400_000_000, 1)).toThrow(RangeError);
    expect(() => allocateKernel(10, 400_000_000, 1)).toThrow(
      'trust: a computation over 10 players and 400,000,000 ratings in the log needs 4.5 GiB, over the 4 GiB a WebAssembly memory holds',
    );
    // A negative-rating weight needs two more arrays per rating.
    expect(() => allocateKernel(10, 200_000_000, 2)).toThrow(RangeError);
    expect(allocateKernel(10, 200_000_000 / 100, 2).factor.length).toBe(2_000_000);
    // A graph of the same players with 100 ratings fits, its observer pinned at 1, the views cut to
    // its ratings.
    const csr = { nodes: 10, offsets: new Int32Array(11).fill(100, 5), sources: new Int32Array(100), weights: new Float64Array(100).fill(-0.5) };
    const arrays = loadKernel(allocateKernel(10, 150, 2), csr, [3], 2);
    expect([arrays.sources.length, arrays.a[3], arrays.pinned[3], arrays.factor[0], arrays.weighted[99]]).toEqual([100, 1, 1, 2, -1]);
  });

  it('keeps one memory per thread, grown as needed, with the per-node arrays zeroed for each computation', () => {
    const first = allocateKernel(10, 100, 1);
    first.a[3] = 5;
    first.ctrl[0] = 7;
    const larger = allocateKernel(100_000, 1_000_000, 2);
    expect(larger.memory).toBe(first.memory);
    expect([larger.a[3], larger.ctrl[0]]).toEqual([0, 0]);
    expect(larger.memory.buffer.byteLength).toBeGreaterThanOrEqual(28 * 1_000_000);
  });

  it('gives results that later computations on the same thread leave alone', () => {
    const rate = (from: string, to: string, value: number) => ({ type: 'rating' as const, time: 0, community: 'c', from, to, value });
    const build = (events: ReturnType<typeof rate>[]) => {
      const state = trust.initialState(trust.params.resolve({ observers: 'o' }));
      for (const e of events) trust.evolve(state, e);
      return state.communities.get('c')!;
    };
    const one = build([rate('o', 'a', 1), rate('a', 'b', 0.5), rate('o', 'b', -0.5)]);
    const result = one.compute();
    const before = structuredClone({ reputation: result.reputation, offsets: result.csr.offsets, entries: result.entries });
    // A larger computation runs in the same memory afterwards.
    build(Array.from({ length: 500 }, (_, i) => rate(i === 0 ? 'o' : `p${i % 97}`, `p${(i * 7 + 1) % 97}`, ((i % 9) - 4) / 4 || 0.5))).compute();
    expect({ reputation: result.reputation, offsets: result.csr.offsets, entries: result.entries }).toEqual(before);
    expect(one.compute()).toBe(result); // still the cached result
  });

  it('splits the nodes between two threads at a block boundary near half the work (a node counting as 4 edges)', () => {
    const n = 10 * BLOCK;
    // Every rating goes to the first block's nodes: the split is one block in, after half the edges.
    const front = Int32Array.from({ length: n + 1 }, (_, j) => Math.min(j, BLOCK) * 1_000);
    expect(balancedSplit(front, n)).toBe(BLOCK);
    // No ratings at all: the nodes alone decide, half of them on each side.
    expect(balancedSplit(new Int32Array(n + 1), n)).toBe(5 * BLOCK);
    // Two ratings per node: edges and nodes both split in the middle.
    expect(balancedSplit(Int32Array.from({ length: n + 1 }, (_, j) => 2 * j), n)).toBe(5 * BLOCK);
    // A graph smaller than a block is not split.
    expect(balancedSplit(Int32Array.from([0, 5, 9]), 2)).toBe(2);
  });
});
