/**
 * `npm run generate`: rewrites src/scorers/trust/iterate-wasm.ts from iterate.wat. Writes a
 * temporary file and renames it, so a failure leaves the old file whole.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { wasmModuleSource } from './wasm-module-source.mjs';

const target = fileURLToPath(new URL('../src/scorers/trust/iterate-wasm.ts', import.meta.url));
const source = await wasmModuleSource(new URL('../src/scorers/trust/iterate.wat', import.meta.url), 'ITERATE_WASM');
writeFileSync(`${target}.tmp`, source);
renameSync(`${target}.tmp`, target);
console.log(`wrote ${target}`);
