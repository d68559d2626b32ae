/**
 * A group of events serialized once for SQLite: one JSON.stringify of the whole array, and each
 * event's row read back from that text alone. An element of an array is written exactly as the
 * same value alone would be, so the text cut out for each event is JSON.stringify of it: the body
 * the store keeps. The SQLite append thread gets the one text and reads its rows from it
 * (./sqlite-append-worker.ts): a string crosses to a thread as one copy, where objects are cloned
 * field by field. (PostgreSQL keeps pages, each one JSON.stringify of its events: ./event-pages.ts.)
 *
 * The text is JSON.stringify's, not any JSON: an array of objects, no whitespace outside strings,
 * no key repeated. Only the top-level fields a row needs are decoded (`community`, `id`, `type`,
 * `time`); everything else is skipped over, so reading the rows costs less than JSON.parse.
 */
import type { AppendRow } from './sqlite-append.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Where the string opened by the quote at `open` ends: the next quote not escaped by a backslash. */
function closingQuote(text: string, open: number): number {
  let quote = text.indexOf('"', open + 1);
  for (;;) {
    if (quote < 0) return text.length; // not JSON.stringify's text: no string is left open past the end
    // A quote after an odd run of backslashes is escaped (an even run escapes the backslashes only).
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
}

/** Where the value starting at `at` ends (the index after it): a string, an object or array, or a number or literal. */
function valueEnd(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return closingQuote(text, at) + 1;
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let i = at;
    for (let c = text.charCodeAt(i); i < text.length && c !== COMMA && c !== CLOSE_BRACE && c !== CLOSE_BRACKET; c = text.charCodeAt(++i));
    return i;
  }
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = closingQuote(text, i);
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i + 1;
  }
  return text.length;
}

/** The value of a field's JSON text: a string without escapes and a number are read directly. */
function decoded(raw: string): unknown {
  const first = raw.charCodeAt(0);
  if (first === QUOTE) return raw.includes('\\') ? JSON.parse(raw) : raw.slice(1, -1);
  if (first === 0x2d || (first >= 0x30 && first <= 0x39)) return Number(raw); // JSON's numbers are Number's, read alike
  return JSON.parse(raw);
}

const OTHER = 0;
const COMMUNITY = 1;
const ID = 2;
const TYPE = 3;
const TIME = 4;

/**
 * Which field of a row the key from `from` to `to` (its text, unquoted) names, without cutting
 * it out. JSON.stringify escapes no letter: these keys are written as they are.
 */
function rowField(text: string, from: number, to: number): number {
  switch (to - from) {
    case 2:
      return text.startsWith('id', from) ? ID : OTHER;
    case 4:
      return text.startsWith('type', from) ? TYPE : text.startsWith('time', from) ? TIME : OTHER;
    case 9:
      return text.startsWith('community', from) ? COMMUNITY : OTHER;
    default:
      return OTHER;
  }
}

/** Each object of `text` (JSON.stringify of an array of events) as its row: its top-level fields and its own text. */
export function appendRowsOfText(text: string): AppendRow[] {
  const rows: AppendRow[] = [];
  const end = text.length - 1; // the closing bracket
  let i = 1;
  while (i < end) {
    const start = i;
    let community: unknown;
    let id: unknown = null;
    let type: unknown;
    let time: unknown;
    i++; // the opening brace
    while (text.charCodeAt(i) !== CLOSE_BRACE && i < end) {
      const keyEnd = closingQuote(text, i);
      const field = rowField(text, i + 1, keyEnd);
      const at = keyEnd + 2; // past the quote and the colon
      i = valueEnd(text, at);
      if (field === COMMUNITY) community = decoded(text.slice(at, i));
      else if (field === ID) id = decoded(text.slice(at, i));
      else if (field === TYPE) type = decoded(text.slice(at, i));
      else if (field === TIME) time = decoded(text.slice(at, i));
      if (text.charCodeAt(i) === COMMA) i++;
    }
    i++; // the closing brace
    rows.push([community as string, id as string | null, type as string, time as number, text.slice(start, i)]);
    i++; // the comma before the next event
  }
  return rows;
}
