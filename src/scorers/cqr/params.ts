import { defineParams, readers } from '../../params/define.js';

/** CQR_{T,x,k} parameters (docs/spec.md §2.1). */
export interface CqrParams {
  /** Window: the last T filtered deltas are summed (Infinity: all). */
  readonly T: number;
  /** Filter f_x: deltas with |Δ| < x are ignored. */
  readonly x: number;
  /** Filter g_k: after k same-sign deltas in a row, the opposite sign is dropped (k = T: never). */
  readonly k: number;
}

export const cqrParams = defineParams<CqrParams>(
  'cqr',
  { T: 8, x: 10, k: 4 },
  { T: readers.integer(1, true), x: readers.number(0), k: readers.integer(1, true) },
  (p) => (p.k > p.T ? ['k', `must be ≤ T (1 ≤ k ≤ T), got k=${p.k} with T=${p.T}`] : undefined),
);

/** `T=8,x=10,k=4` */
export function formatCqrParams(p: CqrParams): string {
  return `T=${p.T},x=${p.x},k=${p.k}`;
}
