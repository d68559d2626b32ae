/** Growing the typed arrays that per-player and per-edge state lives in. */

type NumberArray = Int32Array | Float64Array | Uint8Array;

/**
 * A copy of the first `used` elements of `array` (all of them by default) in a new array of the
 * same kind and `length` elements, zeros after: growing state, or cutting it to size.
 */
export function withLength<A extends NumberArray>(array: A, length: number, used = array.length): A {
  const next = new (array.constructor as new (length: number) => A)(length);
  next.set(array.subarray(0, Math.min(used, length)) as never);
  return next;
}
