/**
 * Event time (SPEC §1): an ISO-8601 string or epoch milliseconds. A date-time string must name
 * its zone (`Z` or `±hh:mm`): a zoneless time would mean a different instant on every machine,
 * and a replay must give the same answer everywhere.
 */

const ISO_8601 =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|z|[+-]\d{2}:?\d{2}))?$/;

/** Epoch milliseconds of `value`, or a reason it is not a time. */
export function parseTime(value: unknown): number | string {
  if (typeof value === 'number') {
    return Number.isFinite(value) ? value : 'must be a finite number of epoch milliseconds';
  }
  if (typeof value !== 'string') {
    return 'must be an ISO-8601 string or epoch milliseconds';
  }
  if (!ISO_8601.test(value)) {
    return `must be ISO-8601 with a zone (like 2024-05-01T12:00:00Z), got "${value.slice(0, 40)}"`;
  }
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? `is not a real date: "${value}"` : ms;
}
