/**
 * The trust iteration ships as WebAssembly compiled ahead of time from iterate.wat (so the
 * library needs neither a .wasm file nor a compiler at run time): the committed module must be
 * what the text compiles to now. `npm run generate` rewrites it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { wasmModuleSource } from '../../../scripts/wasm-module-source.mjs';

describe('the trust kernel module', () => {
  it('is iterate.wat as compiled now', async () => {
    const wat = new URL('../../../src/scorers/trust/iterate.wat', import.meta.url);
    const committed = readFileSync(new URL('../../../src/scorers/trust/iterate-wasm.ts', import.meta.url), 'utf8');
    expect(committed).toBe(await wasmModuleSource(wat, 'ITERATE_WASM'));
  });
});
