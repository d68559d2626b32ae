/**
 * startWorker: a worker on a script's compiled file when it exists, on its twin under dist/
 * when the code runs from src/, and on its TypeScript source through tsx with no build at all.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { startWorker } from '../../src/util/start-worker.js';

/** A project folder with `files` written under it (and package.json saying ESM). */
function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'standing-start-worker-'));
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** The first message `worker` posts; its failure as a rejection. */
function firstMessage(worker: Worker): Promise<unknown> {
  return new Promise((resolve, reject) => {
    worker.once('message', (message: unknown) => {
      resolve(message);
      void worker.terminate(); // the answer is in; how the thread ends does not matter here
    });
    worker.once('error', reject);
  });
}

const answering = (text: string, typed = false) =>
  `import { parentPort, workerData } from 'node:worker_threads';\nconst answer${typed ? ': string' : ''} = ${JSON.stringify(text)} + workerData.suffix;\nparentPort${typed ? '!' : '?'}.postMessage(answer);\n`;

describe('startWorker', () => {
  it('runs the compiled file when it exists, with the options given', async () => {
    const root = project({ 'src/echo.js': answering('compiled') });
    const worker = startWorker(pathToFileURL(join(root, 'src/echo.js')), { workerData: { suffix: '!' } });
    expect(await firstMessage(worker)).toBe('compiled!');
  });

  it('runs the twin under dist/ of a script missing under src/', async () => {
    const root = project({ 'dist/echo.js': answering('from dist'), 'src/echo.ts': answering('from source', true) });
    const worker = startWorker(pathToFileURL(join(root, 'src/echo.js')), { workerData: { suffix: '' } });
    expect(await firstMessage(worker)).toBe('from dist');
  });

  it('runs the TypeScript source through tsx when nothing is compiled, relative imports included', async () => {
    const root = project({
      'src/echo.ts': `import { parentPort, workerData } from 'node:worker_threads';\nimport { prefix } from './prefix.js';\nconst answer: string = prefix + 'source' + workerData.suffix;\nparentPort!.postMessage(answer);\n`,
      'src/prefix.ts': `export const prefix: string = 'typescript ';\n`,
    });
    const worker = startWorker(pathToFileURL(join(root, 'src/echo.js')), { workerData: { suffix: '?' } });
    expect(await firstMessage(worker)).toBe('typescript source?');
  });

  it('fails naming the compiled file when there is neither it nor a source', async () => {
    const root = project({});
    const worker = startWorker(pathToFileURL(join(root, 'src/missing.js')));
    await expect(firstMessage(worker)).rejects.toThrow(/dist\/missing\.js/);
  });
});
