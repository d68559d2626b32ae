/**
 * Where a worker thread's script is. A worker thread cannot load a .ts file, so when the code
 * runs from the TypeScript sources (the test runner) the compiled script in dist/ is used.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `script` when it exists (the code runs from dist/), else `compiled`, its copy in dist/. */
export function compiledWorker(script: URL, compiled: URL): URL {
  return existsSync(fileURLToPath(script)) ? script : compiled;
}
