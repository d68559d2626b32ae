/** The command line's program: a named subcommand alone is loaded; help and the rest get every one. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';

const ALL = ['rank', 'explain', 'evaluate', 'tune', 'simulate', 'backtest', 'import', 'demo', 'serve', 'keys', 'erase', 'ingest', 'gateway', 'worker', 'cluster-local'];
const names = async (...args: string[]) => (await buildProgram('0.0.0', ['node', 'standing', ...args])).commands.map((command) => command.name());

describe('buildProgram', () => {
  it('registers only the subcommand the command line names', async () => {
    expect(await names('rank', 'cqr', 'log.ndjson')).toEqual(['rank']);
    expect(await names('simulate', 'chat-balance')).toEqual(['simulate']);
    expect(await names('serve', '--demo')).toEqual(['serve']);
  });

  it('registers every subcommand, in help order, for help, --version, no arguments or an unknown name', async () => {
    for (const args of [['help'], ['--help'], ['--version'], [], ['ranks']]) expect(await names(...args)).toEqual(ALL);
  });
});

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const COMMANDS = join(SRC, 'cli', 'commands');

/**
 * The module specifiers `text` loads when it is loaded: its static imports and re-exports, but
 * not `import type`, `export type` or an import of type-only names (erased), nor `import('…')`.
 */
function staticImports(text: string, file = 'module.ts'): string[] {
  const found: string[] = [];
  for (const node of ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS).statements) {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const typesOnly = clause !== undefined && (clause.isTypeOnly || (clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.every((e) => e.isTypeOnly)));
      if (!typesOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    }
  }
  return found;
}

/** Every module `file` (under src/) loads, at any depth, statically: paths under src/ and packages' names. */
function staticClosure(file: string): Set<string> {
  const reached = new Set<string>();
  const pending = [file];
  for (let at = pending.pop(); at !== undefined; at = pending.pop()) {
    for (const specifier of staticImports(readFileSync(at, 'utf8'), at)) {
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(at), specifier).replace(/\.js$/, '.ts');
        const name = relative(SRC, target);
        if (!reached.has(name)) pending.push(target);
        reached.add(name);
      } else if (!specifier.startsWith('node:')) {
        reached.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);
      }
    }
  }
  return reached;
}

/** The service stack: what `serve`, `keys`, `erase` and the cluster's roles load when they run. */
const HEAVY_FOLDERS = ['store/', 'service/', 'http/', 'cluster/', 'app/'];
const HEAVY_PACKAGES = /^(fastify|@fastify\/.*|pg|better-sqlite3|nats|@nats-io\/.*|pino|prom-client)$/;

/** Modules of those folders a command loads to register itself, each a leaf of plain values. */
const LIGHT: ReadonlyMap<string, string> = new Map([
  ['service/keys.ts', "the scopes and the demo keys' labels, which `keys create` checks its options against (node:crypto only)"],
  ['cluster/local-schema.ts', 'the schema-name pattern `cluster-local --schema` is checked against (a module of its own for this)'],
]);

const heavy = (module: string) => HEAVY_PACKAGES.test(module) || (HEAVY_FOLDERS.some((folder) => module.startsWith(folder)) && !LIGHT.has(module));

describe('issue 26: registering every command (help) loads none of the service stack', () => {
  it('reads static imports and re-exports, not type-only ones nor dynamic imports', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "import { type C, type D } from './c.js';",
      "import { type E, f } from './e.js';",
      "export { g } from './g.js';",
      "export type { H } from './h.js';",
      "import './i.js';",
      "import fastify from 'fastify';",
      'async function run() {',
      "  const j = await import('./j.js');",
      '}',
    ].join('\n');
    expect(staticImports(text)).toEqual(['./a.js', './e.js', './g.js', './i.js', 'fastify']);
  });

  it('finds the service stack behind the modules a command imports when it runs', () => {
    expect([...staticClosure(join(SRC, 'app', 'serve.ts'))].filter(heavy)).toEqual(expect.arrayContaining(['fastify', 'store/open.ts', 'http/log-redaction.ts']));
  });

  it('no command file reaches the store, the service, HTTP, the cluster, the composition roots or their packages by a static import', () => {
    const files = readdirSync(COMMANDS).filter((name) => name.endsWith('.ts'));
    expect(files).toEqual(expect.arrayContaining(['serve.ts', 'keys.ts', 'erase.ts', 'cluster.ts', 'cluster-local.ts']));
    const reached = new Set<string>();
    const found = files.flatMap((name) => {
      const closure = staticClosure(join(COMMANDS, name));
      for (const module of closure) reached.add(module);
      return [...closure].filter(heavy).map((module) => `cli/commands/${name} -> ${module}`);
    });
    expect(found).toEqual([]);
    // Each light module named is reached still (one no longer needed goes from the list).
    expect([...LIGHT.keys()].filter((module) => !reached.has(module))).toEqual([]);
  });
});
