/**
 * The trust iteration ships as WebAssembly compiled ahead of time from iterate.wat (so the
 * library needs neither a .wasm file nor a compiler at run time): the committed module must be
 * what the text compiles to now (`npm run generate` rewrites it). Its arrays share one
 * WebAssembly memory, which cannot pass 4 GiB.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { wasmModuleSource } from '../../../scripts/wasm-module-source.mjs';
import { kernelArrays } from '../../../src/scorers/trust/kernel.js';

describe('the trust kernel', () => {
  it('is iterate.wat as compiled now', async () => {
    const wat = new URL('../../../src/scorers/trust/iterate.wat', import.meta.url);
    const committed = readFileSync(new URL('../../../src/scorers/trust/iterate-wasm.ts', import.meta.url), 'utf8');
    expect(committed).toBe(await wasmModuleSource(wat, 'ITERATE_WASM'));
  });

  it('refuses a graph whose arrays would not fit in one memory, saying why', () => {
    // Only the lengths are read before the memory is sized, so the graph can be a pretence.
    const huge = { nodes: 10, offsets: new Int32Array(11), sources: { length: 400_000_000 } as Int32Array, weights: new Float64Array(0) };
    expect(() => kernelArrays(huge, [], 1)).toThrow(RangeError);
    expect(() => kernelArrays(huge, [], 1)).toThrow(/10 players and 400000000 live ratings needs 4\.5 GiB, over the 4 GiB a WebAssembly memory holds/);
    // A graph of the same players with 100 ratings fits, its observer pinned at 1.
    const arrays = kernelArrays({ ...huge, sources: new Int32Array(100), weights: new Float64Array(100) }, [3], 1);
    expect([arrays.sources.length, arrays.a[3], arrays.pinned[3]]).toEqual([100, 1, 1]);
  });
});
