/** The append's array literals (src/store/pg-array-literal.ts) are what pg itself writes for the same arrays. */
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { arrayLiteral } from '../../../src/store/pg-array-literal.js';

/** pg's own conversion of a parameter (pg/lib/utils.js), the oracle. */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (value: unknown) => unknown };

describe('issue 27: array literals for an append', () => {
  it('writes text, number and null elements as pg does (property)', () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: fc.constantFrom('"', '\\', '\\"', ',', '{', '}', ' ', 'NULL', 'é', '\n', 'a') }));
    const element = fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null));
    fc.assert(
      fc.property(fc.array(element, { maxLength: 30 }), (values) => {
        expect(arrayLiteral(values)).toBe(prepareValue(values));
      }),
      { numRuns: 500 },
    );
  });
});
