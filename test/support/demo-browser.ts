/**
 * The browser tier's fixture: a real `standing serve --demo` on a fresh SQLite file (with, when
 * asked, a configuration file over the demo's) and a real headless Chromium (Debian's, driven by
 * playwright-core; never a downloaded browser). Screenshots go to a temporary folder, or to the
 * folder STANDING_SCREENSHOTS names (`npm run screenshots`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { contractFetch } from './contract.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
export const SHOTS = `${process.env.STANDING_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'standing-shots-'))}/`;
const CHROMIUM = process.env.STANDING_CHROMIUM ?? '/usr/bin/chromium';

export interface DemoBrowser {
  readonly url: string;
  /** The demo's SQLite file (for `standing keys create --db`). */
  readonly db: string;
  readonly readKey: string;
  readonly ingestKey: string;
  /** The demo's moderator key, when the service prints one. */
  readonly moderatorKey?: string;
  readonly browser: Browser;
  /** A new page holding `key` (default the read key), at `path` (a fragment such as `#/rankings/cqr`). */
  open(path: string, options?: { viewport?: { width: number; height: number }; key?: string; context?: BrowserContextOptions }): Promise<Page>;
  /** GET `path` from the API (checked against its OpenAPI document) with `key` (default the read key). */
  api<T>(path: string, key?: string): Promise<T>;
  close(): Promise<void>;
}

export interface DemoOptions {
  /**
   * Configuration over the demo's, passed as a `--config` file: the sections that merge key by
   * key (`rules`, `fourEyes`, …) keep the demo's other keys.
   */
  readonly config?: Record<string, unknown>;
}

export async function startDemoBrowser({ config }: DemoOptions = {}): Promise<DemoBrowser> {
  const folder = mkdtempSync(join(tmpdir(), 'standing-e2e-'));
  const db = join(folder, 'demo.sqlite');
  const configArgs: string[] = [];
  if (config !== undefined) {
    writeFileSync(join(folder, 'config.json'), JSON.stringify(config));
    configArgs.push('--config', join(folder, 'config.json'));
  }
  const server: ChildProcess = spawn(process.execPath, [MAIN, 'serve', '--demo', '--db', db, '--port', '0', ...configArgs], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on('data', (chunk) => {
      out += chunk;
      if (out.includes('API reference')) resolve();
    });
    server.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
  const url = /serves the demo at (\S+)/.exec(out)![1]!;
  const readKey = /read key:\s+(\S+)/.exec(out)![1]!;
  const ingestKey = /ingest key:\s+(\S+)/.exec(out)![1]!;
  const moderatorKey = /moderator key:\s+(\S+)/.exec(out)?.[1];
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  return {
    url,
    db,
    readKey,
    ingestKey,
    moderatorKey,
    browser,
    async open(path, { viewport = { width: 1280, height: 860 }, key = readKey, context = {} } = {}) {
      // The tests' own string predicates (waitForFunction) are evaluated as code in the page, which
      // the dashboard's policy forbids ('unsafe-eval'): their pages bypass it. The dashboard under
      // its policy is test/e2e/framing.test.ts's.
      const page = await (await browser.newContext({ viewport, bypassCSP: true, ...context })).newPage();
      await page.goto(`${url}/#key=${key}`);
      await page.waitForSelector('header nav a');
      await page.goto(`${url}/${path}`);
      return page;
    },
    async api<T>(path: string, key = readKey) {
      return (await (await contractFetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } })).json()) as T;
    },
    async close() {
      await browser.close();
      server.kill('SIGTERM');
    },
  };
}

/**
 * The demo and its browser for one test file: started before its tests, closed after them. `use`
 * gets the demo and its moderator key; a demo that prints none fails the file.
 */
export function demoForFile(use: (demo: DemoBrowser, moderatorKey: string) => void, options: DemoOptions = {}): void {
  let demo: DemoBrowser | undefined;
  beforeAll(async () => {
    demo = await startDemoBrowser(options);
    if (demo.moderatorKey === undefined) throw new Error('serve --demo printed no demo moderator key');
    use(demo, demo.moderatorKey);
  });
  afterAll(async () => {
    await demo?.close();
  });
}
