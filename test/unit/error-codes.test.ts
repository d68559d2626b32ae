/**
 * The codes of standing's errors (src/errors.ts) and the API's list of error codes
 * (src/http/schemas/errors.ts) agree: a code of standing's errors either answers a request as
 * itself, and is in the API's list with its meaning, or is named, with the reason, among those
 * that never do (src/http/errors.ts). docs/service.md lists the same codes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errors.js';
import { NOT_ANSWERED } from '../../src/http/errors.js';
import { ERROR_MEANINGS } from '../../src/http/schemas/errors.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');
const API_LIST = join(SRC, 'http/schemas/errors.ts');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const apiCodes = new Set(Object.keys(ERROR_MEANINGS));
const standingCodes = new Set<string>(ERROR_CODES);
const notAnswered = new Set(Object.keys(NOT_ANSWERED));
const sorted = (codes: Iterable<string>) => [...new Set(codes)].sort();

/** Every code an error class of src/ declares (`readonly code = 'X' as const`). */
function classCodes(): Set<string> {
  return new Set(sourceFiles(SRC).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\breadonly code = '(\w+)' as const/g)].map((m) => m[1]!)));
}

/** The backquoted codes (`UPPER_CASE`) of a piece of markdown. */
function codesIn(text: string): string[] {
  return [...text.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{4,})`/g)].map((m) => m[1]!);
}

/** The cells of column `column` (0-based) of the markdown table that starts with `header`. */
function tableColumn(markdown: string, header: string, column: number): string[] {
  const start = markdown.indexOf(header);
  expect(start).toBeGreaterThanOrEqual(0);
  const rows: string[] = [];
  for (const line of markdown.slice(start).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|')[column + 1]!);
  }
  return rows;
}

describe('issue 26: the codes of standing’s errors and the API’s list of error codes agree', () => {
  it('lists every code an error class declares, and declares every code it lists', () => {
    expect(sorted(classCodes())).toEqual(sorted(ERROR_CODES));
  });

  it('has every code of standing’s errors either in the API’s list or among those that never answer a request, never both', () => {
    const both = ERROR_CODES.filter((code) => apiCodes.has(code) && notAnswered.has(code));
    const neither = ERROR_CODES.filter((code) => !apiCodes.has(code) && !notAnswered.has(code));
    expect({ both, neither }).toEqual({ both: [], neither: [] });
    expect(sorted(ERROR_CODES.filter((code) => apiCodes.has(code)))).toEqual(['APPLY_FAILED', 'BATCH_REJECTED', 'BATCH_TOO_LARGE', 'HISTORY_BUSY', 'INTERNAL', 'PARAMETER_INVALID', 'SERVICE_STOPPING', 'STORE_BUSY']);
  });

  it('names only codes of standing’s errors among those that never answer a request, each with its reason', () => {
    expect([...notAnswered].filter((code) => !standingCodes.has(code))).toEqual([]);
    for (const [code, reason] of Object.entries(NOT_ANSWERED)) expect({ code, reason: reason.length > 10 }).toEqual({ code, reason: true });
  });

  it('gives every code of the API’s list a meaning, and each one not of standing’s errors is answered somewhere in src/', () => {
    for (const [code, meaning] of Object.entries(ERROR_MEANINGS)) expect({ code, meaning: meaning.length > 10 }).toEqual({ code, meaning: true });
    // Named outside the API's list and outside the routes' OpenAPI tables (`404: ['NOT_FOUND']`).
    const named = new Set(
      sourceFiles(SRC)
        .filter((file) => file !== API_LIST)
        .flatMap((file) => [...readFileSync(file, 'utf8').replace(/\b\d{3}: \[[^\]]*\]/g, '').matchAll(/'([A-Z][A-Z_]+)'/g)].map((m) => m[1]!)),
    );
    expect([...apiCodes].filter((code) => !standingCodes.has(code) && !named.has(code))).toEqual([]);
  });
});

describe('issue 26: docs/service.md lists the error codes the API answers with', () => {
  const page = readFileSync(join(ROOT, 'docs/service.md'), 'utf8');
  const errors = page.slice(page.indexOf('\n## Errors\n'), page.indexOf('\n## ', page.indexOf('\n## Errors\n') + 1));

  it('names only codes of the API’s list in its tables of answers', () => {
    const answers = [...tableColumn(page, '| code | status | when |', 0), ...tableColumn(errors, '| status | `error` | when |', 1)].flatMap(codesIn);
    expect(answers.length).toBeGreaterThan(20);
    expect(sorted(answers.filter((code) => !apiCodes.has(code)))).toEqual([]);
  });

  it('names every code of the API’s list in its section Errors', () => {
    const named = new Set(codesIn(errors));
    expect([...apiCodes].filter((code) => !named.has(code))).toEqual([]);
  });

  it('answers, in its table of the section Errors, with exactly the codes of standing’s errors in the API’s list', () => {
    const answered = tableColumn(errors, '| status | `error` | when |', 1).flatMap(codesIn).filter((code) => standingCodes.has(code));
    expect(sorted(answered)).toEqual(sorted(ERROR_CODES.filter((code) => apiCodes.has(code))));
  });

  it('names every code of standing’s errors, and says of each one that never answers a request why', () => {
    const typed = errors.slice(errors.indexOf('The command line and the library name the same problems'));
    const listed = typed.slice(0, typed.indexOf('\n\n'));
    const never = typed.slice(typed.indexOf('the others never do'));
    expect(sorted(codesIn(listed))).toEqual(sorted(ERROR_CODES));
    expect([...notAnswered].filter((code) => !codesIn(never).includes(code))).toEqual([]);
  });
});
