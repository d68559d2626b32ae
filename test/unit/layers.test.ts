/**
 * The layers of src/, bottom to top: a folder imports only from its own layer or lower ones, so no
 * import runs back up (docs/architecture.md, "Source layout"). Every relative import of every
 * file is read from its syntax tree (TypeScript's parser): `import … from`, `export … from`, a
 * bare `import '…'` and `import('…')`, type-only ones included.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** Bottom first; the entries of one layer may import one another. */
const LAYERS: readonly (readonly string[])[] = [
  ['util', 'errors.ts', 'types'],
  ['events', 'params'],
  ['graph', 'quality', 'evaluation'],
  ['scorers'],
  ['engine'],
  ['importers', 'plots', 'simulations'],
  // `standing`, the core: nothing of the store or the service.
  ['index.ts'],
  ['store'],
  // The attention queue, cases and the moderation record, over the scorers and the store's moderator events.
  ['moderation'],
  // `standing/testing`: the properties a scorer or a store of one's own must keep.
  ['testing'],
  ['service'],
  ['http'],
  // `standing/client`: the API's types are the HTTP schemas'.
  ['client'],
  ['cluster'],
  // The composition roots of `standing serve`, `standing gateway` and `standing worker`.
  ['app'],
  ['cli'],
];

/**
 * Imports allowed to run up, each named (`from -> to`, paths under src/): none. One that must be
 * made goes here with its reason (a listed import no longer made fails the test).
 */
const EXCEPTIONS: ReadonlySet<string> = new Set<string>([]);

/** Every relative module specifier `text` imports or re-exports, statically or dynamically. */
function relativeImports(text: string, file = 'module.ts'): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] !== undefined && ts.isStringLiteralLike(node.arguments[0])) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  return found.filter((specifier) => specifier.startsWith('.'));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The entry of src/ a path under it belongs to: its first folder, or the file itself. */
const entryOf = (path: string): string => path.split('/')[0]!;

const layerOf = (entry: string): number => LAYERS.findIndex((layer) => layer.includes(entry));

interface Import {
  /** `from -> to`, paths under src/. */
  readonly edge: string;
  readonly from: string;
  readonly to: string;
}

function importsOfSrc(): Import[] {
  return sourceFiles(SRC).flatMap((file) => {
    const from = relative(SRC, file);
    return relativeImports(readFileSync(file, 'utf8'), file).map((specifier) => {
      const to = relative(SRC, resolve(dirname(file), specifier)).replace(/\.js$/, '.ts');
      return { edge: `${from} -> ${to}`, from, to };
    });
  });
}

describe('issue 26: no import runs back up the layers', () => {
  it('reads static imports, re-exports, bare imports and dynamic imports, relative ones only', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b/b.js';",
      "export { c } from './c.js';",
      "export * from '../d.js';",
      "import './e.js';",
      "import { readFileSync } from 'node:fs';",
      "const f = await import('../f/f.js');",
      "// import { g } from './g.js';",
      "const h = 'import(\"./h.js\")';",
    ].join('\n');
    expect(relativeImports(text)).toEqual(['./a.js', '../b/b.js', './c.js', '../d.js', './e.js', '../f/f.js']);
  });

  it('places every folder and file of src/ in exactly one layer', () => {
    const entries = readdirSync(SRC).sort();
    const placed = LAYERS.flat();
    expect(entries.filter((entry) => layerOf(entry) < 0)).toEqual([]);
    expect(placed.filter((entry) => !entries.includes(entry))).toEqual([]);
    expect(new Set(placed).size).toBe(placed.length);
  });

  it('finds every import within src/ and none running up, but the named exceptions', () => {
    const imports = importsOfSrc();
    // The composition roots are reached by the command line's dynamic imports too.
    expect(imports.map((i) => i.edge)).toEqual(expect.arrayContaining(['cli/commands/cluster.ts -> app/gateway.ts', 'cli/commands/cluster.ts -> app/worker.ts']));
    expect(imports.filter((i) => i.to.startsWith('..'))).toEqual([]);
    const upward = imports.filter((i) => layerOf(entryOf(i.to)) > layerOf(entryOf(i.from))).map((i) => i.edge);
    expect(upward.filter((edge) => !EXCEPTIONS.has(edge))).toEqual([]);
    expect([...EXCEPTIONS].filter((edge) => !upward.includes(edge))).toEqual([]);
  });
});
