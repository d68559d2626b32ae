/** Typed arrays as base64 text, for checkpoints (exact bytes, so restored state is bit-identical). */
import { SnapshotError } from '../errors.js';

export function encodeArray(array: Float64Array | Int32Array | Uint8Array): string {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');
}

function bytes(text: string, width: number): ArrayBuffer {
  const raw = Buffer.from(text, 'base64');
  if (raw.length % width !== 0) throw new SnapshotError(`snapshot array of ${raw.length} bytes is not a multiple of ${width}`);
  const out = new ArrayBuffer(raw.length); // a fresh, aligned buffer
  new Uint8Array(out).set(raw);
  return out;
}

export const decodeFloat64 = (text: string): Float64Array<ArrayBuffer> => new Float64Array(bytes(text, 8));
export const decodeInt32 = (text: string): Int32Array<ArrayBuffer> => new Int32Array(bytes(text, 4));
export const decodeUint8 = (text: string): Uint8Array<ArrayBuffer> => new Uint8Array(bytes(text, 1));
