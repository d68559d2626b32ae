/**
 * `import 'standing'` is the pure core (issue 15): neither what its modules import statically,
 * nor what loading it brings in at run time, includes the service stack. The store and the
 * service are `standing/store` and `standing/service`. It reads the package as built (dist/),
 * so it is no unit test: `npm run test:unit` runs without a build.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER_STACK = ['fastify', '@fastify/', 'pg', 'better-sqlite3', 'pino', 'prom-client', '@resvg/resvg-js', '@sinclair/typebox'];
const STATIC_IMPORT = /(?:^|[;\n])\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[;\n])\s*import\s*['"]([^'"]+)['"]/g;

/** The packages the compiled modules reachable from `entry` by static imports name. */
function packagesReachedFrom(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const specifier = match[1] ?? match[2]!;
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else if (!specifier.startsWith('node:')) packages.add(specifier);
    }
  };
  visit(resolve(ROOT, entry));
  return packages;
}

const isServerStack = (name: string) => SERVER_STACK.some((p) => name === p || name.startsWith(p.endsWith('/') ? p : `${p}/`));

describe('the light core', () => {
  it('reaches none of the service stack by static imports, while standing/store and standing/service do', () => {
    const core = [...packagesReachedFrom('dist/index.js')];
    expect(core.filter(isServerStack)).toEqual([]);
    expect([...packagesReachedFrom('dist/store/index.js')].filter(isServerStack)).toEqual(expect.arrayContaining(['better-sqlite3', 'pg']));
    expect([...packagesReachedFrom('dist/app/index.js')].filter(isServerStack)).toEqual(expect.arrayContaining(['fastify', 'pino', 'prom-client', '@sinclair/typebox']));
  });

  it('loads none of it at run time, and exports no internals', () => {
    const script = `import('standing').then((core) => {
      const loaded = Object.keys(require.cache).filter((k) => k.includes('node_modules'));
      console.log(JSON.stringify({ loaded, names: Object.keys(core) }));
    })`;
    const child = spawnSync(process.execPath, ['--input-type=commonjs', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(child.stderr).toBe('');
    const { loaded, names } = JSON.parse(child.stdout) as { loaded: string[]; names: string[] };
    expect(loaded).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['validateEvent', 'cqr', 'trust', 'Engine', 'replay', 'SCORERS', 'evaluateRanking']));
    for (const internal of ['Interner', 'MIGRATIONS', 'eraseRewrite', 'demoEvents', 'startService', 'openStore', 'buildHttpServer']) expect(names).not.toContain(internal);
  });

  it('serves the store, the service and the testing checks from their subpaths', () => {
    const script = `Promise.all([import('standing/store'), import('standing/service'), import('standing/testing')]).then((all) => console.log(JSON.stringify(all.map((m) => Object.keys(m).sort()))))`;
    const child = spawnSync(process.execPath, ['--input-type=commonjs', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    const [store, service, testing] = JSON.parse(child.stdout) as [string[], string[], string[]];
    expect(testing).toEqual(['alertStoreSuite', 'checkpointSuite', 'claimStoreSuite', 'erasureSuite', 'eventLogSuite', 'eventStoreConformance', 'keyStoreSuite', 'moderationIndexSuite', 'reporterIndexSuite', 'restoresCommunityAlone', 'restoresExactly', 'scorerView', 'secretStoreSuite', 'snapshotsRoundTrip', 'storeLifecycleSuite']);
    expect(store).toEqual(['LATEST_VERSION', 'StoreHeldError', 'openPostgresStore', 'openSqliteStore', 'openStore']);
    expect(service).toEqual(expect.arrayContaining(['startService', 'LiveEngine', 'loadConfig', 'createKey', 'buildHttpServer']));
  });

  it('serves the client from standing/client, which reaches and loads no package at all', () => {
    expect([...packagesReachedFrom('dist/client/index.js')]).toEqual([]);
    const script = `import('standing/client').then((client) => {
      const loaded = Object.keys(require.cache).filter((k) => k.includes('node_modules'));
      console.log(JSON.stringify({ loaded, names: Object.keys(client).sort() }));
    })`;
    const child = spawnSync(process.execPath, ['--input-type=commonjs', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual({ loaded: [], names: ['StandingApiError', 'StandingClient', 'retryAfterSeconds'] });
  });
});
