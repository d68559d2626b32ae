/** withLength: copies of typed arrays, grown or cut, of the same kind. */
import { describe, expect, it } from 'vitest';
import { withLength } from '../../src/util/typed-arrays.js';

describe('typed arrays', () => {
  it('copies the used elements into a longer or shorter array of the same kind', () => {
    const source = Int32Array.from([1, 2, 3, 4]);
    expect(Array.from(withLength(source, 6))).toEqual([1, 2, 3, 4, 0, 0]); // grown, zeros after
    expect(Array.from(withLength(source, 6, 2))).toEqual([1, 2, 0, 0, 0, 0]); // only the used part
    expect(Array.from(withLength(source, 3))).toEqual([1, 2, 3]); // cut
    const doubles = withLength(Float64Array.from([0.5, -0]), 3);
    expect(doubles).toBeInstanceOf(Float64Array);
    expect(Object.is(doubles[1], -0)).toBe(true);
    expect(withLength(Uint8Array.from([7]), 2)).toEqual(Uint8Array.from([7, 0]));
    expect(source).toEqual(Int32Array.from([1, 2, 3, 4])); // the source is left alone
  });
});
