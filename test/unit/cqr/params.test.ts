/** The cqr parameter resolver: frozen defaults, typed values, unknown keys and bad values rejected. */
import { describe, expect, it } from 'vitest';
import { cqr, ParameterError } from '../../../src/index.js';

describe('cqr parameters', () => {
  it('defaults are T = 8, x = 10, k = 4, frozen', () => {
    expect(cqr.params.defaults).toEqual({ T: 8, x: 10, k: 4 });
    expect(Object.isFrozen(cqr.params.defaults)).toBe(true);
    expect(Object.isFrozen(cqr.params.resolve({ T: 9 }))).toBe(true);
  });

  it('reads numbers and numeric strings, Infinity spelled several ways', () => {
    expect(cqr.params.resolve({ T: '16', x: '2.5', k: '3' })).toEqual({ T: 16, x: 2.5, k: 3 });
    for (const spelling of ['Infinity', 'inf', '∞']) {
      expect(cqr.params.resolve({ T: spelling, k: spelling })).toEqual({ T: Infinity, x: 10, k: Infinity });
    }
  });

  const rejected: [Record<string, unknown>, string, RegExp][] = [
    [{ t: 8 }, 't', /is not a parameter of cqr \(known: T, x, k\)/],
    [{ T: 0 }, 'T', /integer ≥ 1 or Infinity/],
    [{ T: 2.5 }, 'T', /integer ≥ 1/],
    [{ T: -Infinity }, 'T', /integer ≥ 1/],
    [{ T: 'eight' }, 'T', /integer ≥ 1/],
    [{ x: -1 }, 'x', /finite number ≥ 0/],
    [{ x: Infinity }, 'x', /finite number ≥ 0/],
    [{ x: NaN }, 'x', /finite number ≥ 0/],
    [{ x: '' }, 'x', /finite number ≥ 0/],
    [{ k: 0 }, 'k', /integer ≥ 1/],
    [{ T: 4, k: 5 }, 'k', /must be ≤ T/],
    [{ T: 8, k: Infinity }, 'k', /must be ≤ T/],
  ];
  it.each(rejected)('rejects %j naming %s', (input, key, message) => {
    let caught: unknown;
    try {
      cqr.params.resolve(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ParameterError);
    expect((caught as ParameterError).key).toBe(key);
    expect((caught as ParameterError).code).toBe('PARAMETER_INVALID');
    expect((caught as Error).message).toMatch(message);
  });
});
