/**
 * Numbers and durations in words a moderator reads: sensible rounding (never an exponent, never
 * floating-point noise), ordinals, plurals, and spans of event time ("3 days").
 */

const FORMATS = [0, 1, 2].map((digits) => new Intl.NumberFormat('en-US', { maximumFractionDigits: digits, useGrouping: true }));

/**
 * `value` rounded for reading: whole numbers from 100 up, one decimal from 10, two below; a value
 * that rounds to 0 reads "0" (no "-0"), and a non-finite one "none".
 */
export function num(value: number): string {
  if (!Number.isFinite(value)) return 'none';
  const magnitude = Math.abs(value);
  const format = FORMATS[magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2]!;
  const text = format.format(value);
  return /^-?0$/.test(text) ? '0' : text;
}

/** `value` with a sign when positive (+0.5, -1, 0). */
export function signed(value: number): string {
  const text = num(value);
  return value > 0 && text !== '0' ? `+${text}` : text;
}

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st… */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** "1 match", "3 matches": `plural` defaults to `singular` + "s". */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${num(n)} ${n === 1 ? singular : plural}`;
}

/** A player's place counted from the worst end: "the worst of 20", "2nd worst of 20". */
export function worstPlace(worstFirst: number, of: number): string {
  return worstFirst === 1 ? `the worst of ${of}` : `${ordinal(worstFirst)} worst of ${of}`;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A span of event time in the largest whole unit: "less than a minute", "5 minutes", "3 hours", "12 days". */
export function span(ms: number): string {
  const m = Math.max(0, ms);
  if (m < MINUTE) return 'less than a minute';
  if (m < HOUR) return count(Math.floor(m / MINUTE), 'minute');
  if (m < 2 * DAY) return count(Math.floor(m / HOUR), 'hour');
  return count(Math.floor(m / DAY), 'day');
}

/** When `time` was, seen from `now` (the community's latest event time): "2 hours ago", "just now". */
export function ago(time: number, now: number): string {
  return now - time < MINUTE ? 'just now' : `${span(now - time)} ago`;
}
