/**
 * A worker thread on one of standing's own scripts, named by the compiled `.js` file beside the
 * module that starts it. From dist/ the file is there. From the TypeScript sources (the test
 * runner) a worker cannot load the `.ts` file by itself, so it runs the compiled twin in dist/
 * (./compiled-file.ts); with no build at all (`npm run test:unit`) it registers tsx, a development
 * dependency that the published package never reaches, and imports the `.ts` source through it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { compiledFile } from './compiled-file.js';

export function startWorker(script: URL, options: WorkerOptions = {}): Worker {
  const compiled = compiledFile(script);
  const source = existsSync(fileURLToPath(compiled)) ? undefined : typeScriptSource(script);
  if (source === undefined) return new Worker(compiled, options);
  // A loader given by --import does not reach a worker's own entry module on Node 20; one
  // registered from inside the thread does.
  const bootstrap = `import(${JSON.stringify(source.tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source.url.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** The `.ts` source of a missing `.js` script, and tsx's registration (its ESM API), when both exist. */
function typeScriptSource(script: URL): { url: URL; tsx: string } | undefined {
  if (!script.pathname.endsWith('.js')) return undefined;
  const url = new URL(script.href.replace(/\.js$/, '.ts'));
  if (!existsSync(fileURLToPath(url))) return undefined;
  try {
    // The API's ESM build, as an import finds it in tsx's export map (require.resolve would
    // give the CommonJS build, whose register() cannot run in a thread started this way).
    const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
    const exports = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports;
    return { url, tsx: new URL(exports['./esm/api']!.import.default, pathToFileURL(manifest)).href };
  } catch {
    return undefined; // no tsx: the worker fails naming the compiled file it lacks
  }
}
