/** Allocating and growing the typed arrays that per-player and per-edge state lives in. */

type NumberArray = Int32Array | Float64Array | Uint8Array;
type NumberArrayConstructor<A extends NumberArray> = new (buffer: ArrayBufferLike) => A;

/**
 * A zeroed array of `length` elements, on a SharedArrayBuffer when `shared` (for a computation
 * that a worker thread joins), else on an ordinary ArrayBuffer.
 */
export function allocate<A extends NumberArray>(Kind: NumberArrayConstructor<A> & { BYTES_PER_ELEMENT: number }, length: number, shared = false): A {
  const bytes = length * Kind.BYTES_PER_ELEMENT;
  return new Kind(shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
}

/**
 * A copy of the first `used` elements of `array` (all of them by default) in a new array of the
 * same kind and `length` elements, zeros after: growing state, or cutting it to size. The copy is
 * on shared memory when `shared`.
 */
export function withLength<A extends NumberArray>(array: A, length: number, used = array.length, shared = false): A {
  const Kind = array.constructor as NumberArrayConstructor<A> & { BYTES_PER_ELEMENT: number };
  const next = allocate(Kind, length, shared);
  next.set(array.subarray(0, Math.min(used, length)) as never);
  return next;
}
