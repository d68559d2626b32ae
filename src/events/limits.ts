/**
 * What an event may hold: limits every backend can store and every route can address. One walk
 * over the decoded value checks its nesting depth, its keys and every string in it (values and
 * keys, extra fields included): a NUL character (PostgreSQL refuses it in text) and a lone UTF-16
 * surrogate (not Unicode: both stores would write U+FFFD in its place, so names change or
 * collide) cannot be stored, and a `__proto__` key is refused so no copy of an event can ever
 * change an object's prototype. A number too large for a double (JSON text such as 1e999 reads
 * as infinity) is refused too: stored and sent on as JSON it would become null, so what is
 * checked and applied would differ from what is kept. The walk is recursive but stops at the
 * depth limit.
 */

/** Longest player, match or domain id, event `id` and community name, in UTF-16 code units. */
export const MAX_ID_LENGTH = 128;

/** Longest free text of a moderator event (a note's or appeal's `text`, a `reason`), in UTF-16 code units. */
export const MAX_MODERATOR_TEXT_LENGTH = 4_000;

/** Deepest nesting of objects and arrays in an event by default; the event object is level 1. */
export const DEFAULT_MAX_EVENT_DEPTH = 32;

// Node 20 has String.prototype.isWellFormed (ES2024); the project's lib is ES2023.
declare global {
  interface String {
    isWellFormed(): boolean;
  }
}

/** Why an id is refused for its length. */
export const ID_TOO_LONG = `is longer than ${MAX_ID_LENGTH} characters (UTF-16 code units), the most an id or community name may have`;

interface Found {
  /** Keys from the offending place up to the event (reversed at the end). */
  readonly path: string[];
  readonly reason: string;
}

/** Why `text` cannot be stored, or undefined when it can. */
export function unstorableText(text: string): string | undefined {
  if (text.isWellFormed() && !text.includes('\u0000')) return undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return `contains a NUL character (U+0000) at position ${i}: the stores cannot keep it`;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) return `contains a lone UTF-16 surrogate (U+${c.toString(16).toUpperCase()}) at position ${i}: it is not Unicode text and cannot be stored`;
  }
  return undefined;
}

/** A NUL, or a surrogate that is not half of a pair. */
const UNSTORABLE_UNIT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A key as a JSON pointer segment, with NUL and lone surrogates shown as escapes. */
function segment(key: string): string {
  const shown = key.replace(/~/g, '~0').replace(/\//g, '~1');
  return shown.replace(UNSTORABLE_UNIT, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Why a number JSON text overflowed (1e999) is refused: it cannot be stored as it was read. */
export const NOT_FINITE = 'is not a finite number (JSON text such as 1e999 reads as infinity): JSON cannot carry it, and a store would keep null in its place';

/** A value inside an event at `depth`: strings (when `strings`), numbers and containers need a look. */
function visit(value: unknown, depth: number, maxDepth: number, strings: boolean): Found | undefined {
  if (typeof value === 'object') return value === null ? undefined : visitContainer(value, depth, maxDepth, strings);
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : { path: [], reason: NOT_FINITE };
  if (strings && typeof value === 'string') {
    const reason = unstorableText(value);
    return reason === undefined ? undefined : { path: [], reason };
  }
  return undefined;
}

function visitContainer(value: object, depth: number, maxDepth: number, strings: boolean): Found | undefined {
  if (depth > maxDepth) return { path: [], reason: `nests objects and arrays deeper than the limit of ${maxDepth} levels (maxEventDepth)` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = visit(value[i], depth + 1, maxDepth, strings);
      if (found !== undefined) {
        found.path.push(String(i));
        return found;
      }
    }
    return undefined;
  }
  const record = value as Record<string, unknown>;
  // for-in: a decoded JSON object has only own enumerable keys, and V8 enumerates them from a cache.
  for (const key in record) {
    if (key === '__proto__') return { path: [key], reason: 'is a reserved key: "__proto__" is refused anywhere in an event' };
    const reason = strings ? unstorableText(key) : undefined;
    if (reason !== undefined) return { path: [key], reason: `is a key that ${reason}` };
    const found = visit(record[key], depth + 1, maxDepth, strings);
    if (found !== undefined) {
      found.path.push(key);
      return found;
    }
  }
  return undefined;
}

/**
 * Text that may hold a number too large for a double: a three-digit exponent, or 300 digits in a
 * row (or a false alarm in a string). Two expressions, the second tried only on text long enough:
 * one alternation of both costs about four times as much on an event's line.
 */
const LARGE_EXPONENT = /[eE]\+?\d{3}/;
const LONG_DIGITS = /\d{300}/;
const LONG_DIGITS_LENGTH = 300;

function mayOverflow(text: string): boolean {
  return LARGE_EXPONENT.test(text) || (text.length >= LONG_DIGITS_LENGTH && LONG_DIGITS.test(text));
}

/** A `\u` escape of a NUL or of a surrogate, in JSON text (or a false alarm: an escaped backslash). */
const UNSTORABLE_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

/**
 * What the JSON text of an event already shows about the value JSON.parse makes of it: `all`
 * when nothing is left to check (every string is storable, no key can be `__proto__`, and it
 * nests at most 2 levels, and no number can overflow), `strings` when every string is storable,
 * `none` otherwise. JSON text
 * cannot hold a raw NUL, so a NUL or a surrogate comes from a lone surrogate in the text or a
 * `\u` escape; without escapes a `__proto__` key is spelled out, and nesting takes brackets.
 * Lets a reader of JSON lines skip most of the walk; brackets and names inside strings only
 * make it walk.
 */
export function checkedByText(text: string): TextCheck {
  if (!text.isWellFormed() || mayOverflow(text)) return 'none';
  if (text.includes('\\u')) return UNSTORABLE_ESCAPE.test(text) ? 'none' : 'strings';
  const bracket = text.indexOf('[');
  const flat = text.indexOf('{', 1) < 0 && (bracket < 0 || text.indexOf('[', bracket + 1) < 0);
  return flat && !text.includes('__proto__') ? 'all' : 'strings';
}

export type TextCheck = 'none' | 'strings' | 'all';

/**
 * The first place in `event` (a decoded JSON object) that nests deeper than `maxDepth`, holds a
 * `__proto__` key, or holds a string (value or key) with a NUL or a lone surrogate, as a field
 * (a JSON pointer without the leading slash) and a reason; undefined when there is none.
 * `strings: false` skips the strings, for an event whose text checkedByText found storable.
 */
export function unstorable(event: object, maxDepth: number = DEFAULT_MAX_EVENT_DEPTH, strings = true): [field: string, reason: string] | undefined {
  const found = visitContainer(event, 1, maxDepth, strings);
  if (found === undefined) return undefined;
  return [found.path.reverse().map(segment).join('/'), found.reason];
}
