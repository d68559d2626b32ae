/**
 * Event time (docs/spec.md §1): an ISO-8601 string or epoch milliseconds. A date-time string must name
 * its zone (`Z` or `±hh:mm`): a zoneless time would mean a different instant on every machine,
 * and a replay must give the same answer everywhere. A day past the end of its month is
 * rejected (V8's Date.parse would roll "02-30" over into March).
 *
 * Epoch milliseconds must lie within what a JavaScript Date represents (±8.64e15, about
 * ±273,790 years): a time beyond it could be stored but never shown (`toISOString` throws).
 *
 * The canonical form `YYYY-MM-DDTHH:MM:SS[.sss]Z` is read digit by digit (it is most of every
 * real log, and Date.parse was a third of validation time); every other form goes through a
 * strict pattern and Date.parse.
 */

import { MAX_TIME_MS } from './bounds.js';

const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|z|[+-]\d{2}:?\d{2}))?$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return leap ? 29 : DAYS_IN_MONTH[month - 1]!;
}

/** The two-digit number at `text[at]`, or a negative number if either is not a digit. */
function two(text: string, at: number): number {
  const a = text.charCodeAt(at) - 48;
  const b = text.charCodeAt(at + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

const DASH = 45;
const COLON = 58;
const DOT = 46;
const T = 84;
const Z = 90;

/** Epoch ms of a canonical UTC time, or undefined when `text` is not exactly that form. */
function parseCanonical(text: string): number | undefined {
  const length = text.length;
  if ((length !== 20 && length !== 24) || text.charCodeAt(length - 1) !== Z) return undefined;
  if (text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH || text.charCodeAt(10) !== T) return undefined;
  if (text.charCodeAt(13) !== COLON || text.charCodeAt(16) !== COLON) return undefined;
  if (length === 24 && text.charCodeAt(19) !== DOT) return undefined;
  const century = two(text, 0);
  const yy = two(text, 2);
  const year = century < 0 || yy < 0 ? -1 : century * 100 + yy;
  const month = two(text, 5);
  const day = two(text, 8);
  const hour = two(text, 11);
  const minute = two(text, 14);
  const second = two(text, 17);
  let ms = 0;
  if (length === 24) {
    const hundreds = text.charCodeAt(20) - 48;
    const rest = two(text, 21);
    ms = hundreds < 0 || hundreds > 9 || rest < 0 ? -1 : hundreds * 100 + rest;
  }
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59) return undefined;
  if (second < 0 || second > 59 || ms < 0) return undefined;
  const date = (year * 100 + month) * 100 + day;
  if (date !== lastDate) {
    if (day > daysIn(year, month)) return undefined;
    lastDays = daysFromCivil(year, month, day);
    lastDate = date;
  }
  return ((lastDays * 24 + hour) * 60 + minute) * 60000 + second * 1000 + ms;
}

/** The last real date parseCanonical read (YYYYMMDD) and its days since 1970: a log's times mostly share their day. */
let lastDate = -1;
let lastDays = 0;

/** Epoch milliseconds of `value`, or a reason it is not a time. */
export function parseTime(value: unknown): number | string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'must be a finite number of epoch milliseconds';
    return Math.abs(value) <= MAX_TIME_MS ? value : `must be within ±${MAX_TIME_MS} epoch milliseconds (what a JavaScript Date can represent), got ${value}`;
  }
  if (typeof value !== 'string') {
    return 'must be an ISO-8601 string or epoch milliseconds';
  }
  const canonical = parseCanonical(value);
  if (canonical !== undefined) return canonical;
  const match = ISO_8601.exec(value);
  if (match === null) {
    return `must be ISO-8601 with a zone (like 2024-05-01T12:00:00Z), got "${value.slice(0, 40)}"`;
  }
  const [, year, month, day] = match;
  const ms = Date.parse(value);
  const realDay = Number(month) >= 1 && Number(month) <= 12 && Number(day) >= 1 && Number(day) <= daysIn(Number(year), Number(month));
  return Number.isNaN(ms) || !realDay ? `is not a real date: "${value}"` : ms;
}
