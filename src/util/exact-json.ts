/**
 * JSON for checkpoints that keeps every number exact: finite doubles already round-trip through
 * JSON text, but −0 would come back as 0, and a zero's sign can reach a score (SPEC §1: a
 * restored state must replay exactly like the live one). −0 is written as the object {"-0":1},
 * which no state holds otherwise (states hold only ids, numbers and arrays or objects of them).
 */
const NEGATIVE_ZERO = Object.freeze({ '-0': 1 });

export function stringifyExact(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (Object.is(v, -0) ? NEGATIVE_ZERO : v));
}

export function parseExact<T>(text: string): T {
  return JSON.parse(text, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) && (v as Record<string, unknown>)['-0'] === 1 && Object.keys(v).length === 1 ? -0 : v,
  ) as T;
}
