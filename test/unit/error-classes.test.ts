/**
 * Every error class of src/ is a StandingError, with a code the command line and the HTTP layer
 * map (src/cli/main.ts, src/http/errors.ts): a new class outside it fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { StandingApiError } from '../../src/client/error.js';
import { StandingError } from '../../src/errors.js';
import { HttpProblem } from '../../src/http/errors.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** The error classes that are not StandingErrors (nor are their subclasses), and why. */
const OUTSIDE: readonly (readonly [new (...args: never[]) => Error, string])[] = [
  [HttpProblem, 'the HTTP answer itself (its status and API code), thrown by a route for src/http/errors.ts to answer as it is'],
  [StandingApiError, "the client's view of a service's error answer: its code is the API's (NOT_FOUND, …) or `HTTP <status>`, not one of standing's own"],
];
const OUTSIDE_NAMES = new Set(OUTSIDE.map(([type]) => type.name));

const BUILT_IN_ERRORS = new Set(['Error', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError', 'AggregateError']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

interface DeclaredClass {
  readonly name: string;
  readonly parent: string;
  readonly file: string;
}

/** Every `class A extends B` of src/, exported or not. */
function declaredClasses(): DeclaredClass[] {
  return sourceFiles(SRC).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/\bclass\s+(\w+)(?:<[^>{]*>)?\s+extends\s+([\w.]+)/g)].map(([, name, parent]) => ({ name: name!, parent: parent!, file: relative(SRC, file) })),
  );
}

describe('issue 26: every error class standing throws is a StandingError with a code', () => {
  const classes = declaredClasses();
  const byName = new Map(classes.map((c) => [c.name, c]));
  /** `name` and its parents, as far as src/ declares them (the last one src/ does not declare). */
  const chain = (name: string): string[] => {
    const names = [name];
    for (let at = byName.get(name); at !== undefined && !names.includes(at.parent); at = byName.get(at.parent)) names.push(at.parent);
    return names;
  };
  const errorClasses = classes.filter((c) => chain(c.name).some((name) => BUILT_IN_ERRORS.has(name) || name.endsWith('Error')));

  it('declares no error class, exported or private, outside StandingError, but the ones named with their reason', () => {
    expect(errorClasses.length).toBeGreaterThan(20);
    const outside = errorClasses.filter((c) => !chain(c.name).some((name) => name === 'StandingError' || OUTSIDE_NAMES.has(name)));
    expect(outside.map((c) => `${c.file}: ${c.name} extends ${c.parent}`)).toEqual([]);
  });

  it('exports no error class whose prototype is not a StandingError, but the ones named with their reason', async () => {
    const exported = new Map<string, string>();
    const outside: string[] = [];
    for (const file of new Set(classes.map((c) => c.file))) {
      const module = (await import(pathToFileURL(join(SRC, file)).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        if (typeof value !== 'function' || !(value.prototype instanceof Error)) continue;
        exported.set(name, file);
        const exempt = OUTSIDE.some(([type]) => value === type || value.prototype instanceof type);
        if (value !== StandingError && !(value.prototype instanceof StandingError) && !exempt) outside.push(`${file}: ${name}`);
      }
    }
    expect(outside).toEqual([]);
    // The text scan of the other test sees every exported error class.
    expect([...exported.keys()].filter((name) => !errorClasses.some((c) => c.name === name))).toEqual([]);
  });
});
