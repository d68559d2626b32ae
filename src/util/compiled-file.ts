/**
 * Where a compiled file is. A worker thread cannot load a .ts file, so when the code runs from
 * the TypeScript sources (the test runner) a worker's script, like the built dashboard, is taken
 * from its twin in dist/.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * `file` when it exists (the code runs from dist/), else the same path under dist/ instead of
 * src/ (the code runs from the sources).
 */
export function compiledFile(file: URL): URL {
  if (existsSync(fileURLToPath(file))) return file;
  const href = file.href;
  const at = href.lastIndexOf('/src/');
  return at < 0 ? file : new URL(`${href.slice(0, at)}/dist/${href.slice(at + '/src/'.length)}`);
}
