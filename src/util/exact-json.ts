/**
 * JSON for checkpoints that keeps every number exact: finite doubles already round-trip through
 * JSON text, but −0 would come back as 0, and a zero's sign can reach a score (docs/spec.md §1: a
 * restored state must replay exactly like the live one). −0 is written as the object {"-0":1},
 * which no state holds otherwise (states hold only ids, numbers and arrays or objects of them).
 */
const NEGATIVE_ZERO = Object.freeze({ '-0': 1 });

/** Whether `value` holds a −0 anywhere (a plain walk: far cheaper than a replacer per value). */
function hasNegativeZero(value: unknown): boolean {
  if (typeof value === 'number') return Object.is(value, -0);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'string' && hasNegativeZero(item)) return true;
    }
    return false;
  }
  for (const key in value) if (hasNegativeZero((value as Record<string, unknown>)[key])) return true;
  return false;
}

export function stringifyExact(value: unknown): string {
  if (!hasNegativeZero(value)) return JSON.stringify(value);
  return JSON.stringify(value, (_key, v: unknown) => (Object.is(v, -0) ? NEGATIVE_ZERO : v));
}

export function parseExact<T>(text: string): T {
  // Without the marker's text no value is revived: a plain parse is the same, and far cheaper.
  if (!text.includes('"-0":1')) return JSON.parse(text) as T;
  return JSON.parse(text, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) && (v as Record<string, unknown>)['-0'] === 1 && Object.keys(v).length === 1 ? -0 : v,
  ) as T;
}
