/** allocate and withLength: zeroed arrays of a kind, on shared memory when asked; copies grown or cut. */
import { describe, expect, it } from 'vitest';
import { allocate, withLength } from '../../src/util/typed-arrays.js';

describe('typed arrays', () => {
  it('allocates zeroed arrays of the kind asked, shared or not', () => {
    const plain = allocate(Float64Array, 3);
    const shared = allocate(Int32Array, 2, true);
    expect(plain).toBeInstanceOf(Float64Array);
    expect(Array.from(plain)).toEqual([0, 0, 0]);
    expect(plain.buffer).toBeInstanceOf(ArrayBuffer);
    expect(shared).toBeInstanceOf(Int32Array);
    expect(shared.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it('copies the used elements into a longer or shorter array of the same kind', () => {
    const source = Int32Array.from([1, 2, 3, 4]);
    expect(Array.from(withLength(source, 6))).toEqual([1, 2, 3, 4, 0, 0]); // grown, zeros after
    expect(Array.from(withLength(source, 6, 2))).toEqual([1, 2, 0, 0, 0, 0]); // only the used part
    expect(Array.from(withLength(source, 3))).toEqual([1, 2, 3]); // cut
    const shared = withLength(Float64Array.from([0.5, -0]), 2, 2, true);
    expect(shared).toBeInstanceOf(Float64Array);
    expect(shared.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Object.is(shared[1], -0)).toBe(true);
    expect(source).toEqual(Int32Array.from([1, 2, 3, 4])); // the source is left alone
  });
});
