/**
 * PostgreSQL array literals written in one pass, for the columns of an append (./event-pages.ts):
 * what pg writes for a JS array (every element in double quotes, a backslash or double quote
 * inside escaped with a backslash, NULL for null), without its two regular-expression
 * replacements per element when an element holds neither. PostgreSQL reads the literal as the
 * parameter's array type.
 */

const NEEDS_ESCAPE = /["\\]/;
const ESCAPED = /["\\]/g;

export function arrayLiteral(values: readonly (string | number | null)[]): string {
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) literal += ',';
    const value = values[i]!;
    if (value === null) literal += 'NULL';
    else if (typeof value === 'number') literal += `"${value}"`;
    else literal += NEEDS_ESCAPE.test(value) ? `"${value.replace(ESCAPED, '\\$&')}"` : `"${value}"`;
  }
  return `${literal}}`;
}
