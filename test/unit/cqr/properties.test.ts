/** Invariants of CQR_{T,x,k} (docs/spec.md §2.1) over random histories (fast-check, fixed seed). */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { readCqr } from '../../../src/index.js';
import { storeExplanation, storeScore } from '../../support/cqr.js';

const RUNS = { seed: 20261121, numRuns: 300 };
const delta = fc.integer({ min: -60, max: 60 });
const deltas = fc.array(delta, { maxLength: 80 });
const realDeltas = fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { maxLength: 80 });
const window = fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constant(Infinity));
const params = window.chain((T) =>
  fc.record({
    T: fc.constant(T),
    x: fc.integer({ min: 0, max: 30 }),
    k: T === Infinity ? fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constant(Infinity)) : fc.integer({ min: 1, max: T }),
  }),
);

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

describe('CQR invariants', () => {
  it('the O(1) store equals the literal docs/spec.md §2.1 reading', () => {
    fc.assert(fc.property(params, deltas, (p, ds) => storeScore(p, ds) === readCqr(p, ds).score), RUNS);
  });

  it("explain's window is the deltas the reading counts, oldest first (zeros included when x = 0)", () => {
    fc.assert(
      fc.property(params, fc.oneof(deltas, realDeltas, fc.array(fc.integer({ min: -2, max: 2 }), { maxLength: 30 })), (p, ds) => {
        const window = storeExplanation(p, ds)?.window ?? [];
        const counted = readCqr(p, ds).deltas.filter((d) => d.fate === 'counted').map((d) => d.delta);
        return JSON.stringify(window) === JSON.stringify(p.T === Infinity ? [] : counted);
      }),
      RUNS,
    );
  });

  it('the O(1) store stays within rounding of the reading for real-valued deltas', () => {
    fc.assert(
      fc.property(params, realDeltas, (p, ds) => {
        const diff = Math.abs(storeScore(p, ds) - readCqr(p, ds).score);
        return diff <= 1e-9 * Math.max(1, sum(ds.map(Math.abs)));
      }),
      RUNS,
    );
  });

  it('k = T, x = 0 is equation 3: the sum of the last T deltas', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), deltas, (T, ds) => storeScore({ T, x: 0, k: T }, ds) === sum(ds.slice(-T))),
      RUNS,
    );
  });

  it('k = T is equation 4: the sum of the last T deltas with |Δ| ≥ x', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 30 }), deltas, (T, x, ds) => {
        const kept = ds.filter((d) => Math.abs(d) >= x);
        return storeScore({ T, x, k: T }, ds) === sum(kept.slice(-T));
      }),
      RUNS,
    );
  });

  it('T = ∞, x = 0, k = ∞ is equation 2: the sum of all deltas', () => {
    fc.assert(fc.property(deltas, (ds) => storeScore({ T: Infinity, x: 0, k: Infinity }, ds) === sum(ds)), RUNS);
  });

  it('appending a delta below x changes nothing', () => {
    fc.assert(
      fc.property(params, deltas, fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), (p, ds, share) => {
        fc.pre(p.x > 0);
        const small = (share * 2 - 1) * p.x * 0.999; // |small| < x
        return storeScore(p, [...ds, small]) === storeScore(p, ds);
      }),
      RUNS,
    );
  });

  it('the score is the sum of the deltas the reading marks counted', () => {
    fc.assert(
      fc.property(params, deltas, (p, ds) => {
        const reading = readCqr(p, ds);
        return reading.score === sum(reading.deltas.filter((d) => d.fate === 'counted').map((d) => d.delta));
      }),
      RUNS,
    );
  });
});
