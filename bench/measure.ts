/** Small timing helpers: medians, a monotonic clock, and a full GC when node runs with --expose-gc. */
import { performance } from 'node:perf_hooks';

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Seconds since an arbitrary origin (monotonic). */
export function now(): number {
  return performance.now() / 1000;
}

/** A full collection, twice (the second sweeps what finalization of the first freed). */
export function collectGarbage(): void {
  const gc = globalThis.gc;
  if (gc === undefined) throw new Error('run node with --expose-gc (npm run bench does)');
  gc();
  gc();
}

export function canCollectGarbage(): boolean {
  return globalThis.gc !== undefined;
}
