/** Event times: the canonical fast path agrees with Date.parse, and impossible dates are rejected. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTime } from '../../../src/index.js';

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

describe('parseTime', () => {
  it('reads canonical UTC times exactly as Date.parse does, and rejects days past the month end', () => {
    const parts = fc.record({
      y: fc.integer({ min: 0, max: 9999 }),
      mo: fc.integer({ min: 0, max: 13 }),
      d: fc.integer({ min: 0, max: 32 }),
      h: fc.integer({ min: 0, max: 24 }),
      mi: fc.integer({ min: 0, max: 60 }),
      s: fc.integer({ min: 0, max: 60 }),
      ms: fc.option(fc.integer({ min: 0, max: 999 })),
    });
    fc.assert(
      fc.property(parts, ({ y, mo, d, h, mi, s, ms }) => {
        const text = `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${ms === null ? '' : `.${pad(ms, 3)}`}Z`;
        const got = parseTime(text);
        const real = mo >= 1 && mo <= 12 && d >= 1 && d <= daysIn(y, mo) && !Number.isNaN(Date.parse(text));
        return real ? got === Date.parse(text) : typeof got === 'string';
      }),
      { seed: 42, numRuns: 5000 },
    );
  });

  it('reads other ISO-8601 forms through Date.parse', () => {
    expect(parseTime('2024-05-01T20:00:00+02:00')).toBe(Date.UTC(2024, 4, 1, 18));
    expect(parseTime('2024-05-01 18:00Z')).toBe(Date.UTC(2024, 4, 1, 18));
    expect(parseTime('2024-05-01T18:00:00.123456Z')).toBe(Date.UTC(2024, 4, 1, 18, 0, 0, 123));
    expect(parseTime('2024-01-01T24:00:00Z')).toBe(Date.UTC(2024, 0, 2));
    expect(parseTime('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
  });

  it('rejects impossible and zoneless times with a reason', () => {
    expect(parseTime('2023-02-29T00:00:00Z')).toBe('is not a real date: "2023-02-29T00:00:00Z"');
    expect(parseTime('2024-04-31T10:00:00+01:00')).toMatch(/not a real date/);
    expect(parseTime('2024-05-01T18:00:00')).toMatch(/with a zone/);
    expect(parseTime(Infinity)).toMatch(/finite number/);
  });
});
