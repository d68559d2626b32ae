/**
 * The maths of `cqr`, written to be read: CQR_{T,x,k} taken literally from docs/spec.md §2.1 over
 * a player's whole delta history, O(n) per query. It explains a score delta by delta (`standing
 * explain`), and tests use it as the oracle for the O(1) store (./store.ts).
 *
 * Paper: Luis Quesada and Pablo J. Villacorta, "Community-Quality-Based Player Ranking in
 * Collaborative Games with no Explicit Objectives", arXiv:1205.3180 (2012), §III.1 "Contribution
 * Quality Rating": CQR(Δ) = Σ Δ_i (eq. 2), the window CQR_T (eq. 3), the filter f_x (eq. 4) and
 * the filter g_k (eq. 5: CQR_{T,x,k}(Δ) = Σ_{i=n−T+1}^{n} g_k(f_x(Δ_i))). docs/spec.md §2.1 fixes
 * the reading of g_k that reproduces the paper's Table 1 (it applies to the whole filtered
 * history, not only to the window).
 */
import type { CqrParams } from './params.js';
import type { CqrFilter } from './store.js';

/** Why a delta does or does not count. */
export type DeltaFate =
  | 'counted'
  | 'below-x' // removed by f_x: |Δ| < x
  | 'opposite-sign' // removed by g_k: the last k filtered deltas all have the other sign
  | 'outside-window'; // older than the last T remaining deltas

export interface AnnotatedDelta {
  readonly delta: number;
  readonly fate: DeltaFate;
}

export interface CqrReading {
  readonly score: number;
  readonly filter: CqrFilter;
  readonly deltas: readonly AnnotatedDelta[];
}

export function readCqr(params: CqrParams, deltas: readonly number[]): CqrReading {
  const { T, x, k } = params;
  const fates: DeltaFate[] = deltas.map((d) => (Math.abs(d) >= x ? 'counted' : 'below-x'));
  // Step 1: F, the filtered deltas (as indices into `deltas`), oldest first.
  let kept = deltas.flatMap((d, i) => (fates[i] === 'counted' ? [i] : []));
  // Step 2: g_k, over the whole filtered history.
  let filter: CqrFilter = 'none';
  if (k < T && kept.length >= k) {
    const last = kept.slice(-k).map((i) => deltas[i]!);
    if (last.every((d) => d > 0)) filter = 'positive';
    else if (last.every((d) => d < 0)) filter = 'negative';
  }
  if (filter !== 'none') {
    const keep = filter === 'positive' ? (d: number) => d > 0 : (d: number) => d < 0;
    for (const i of kept) if (!keep(deltas[i]!)) fates[i] = 'opposite-sign';
    kept = kept.filter((i) => keep(deltas[i]!));
  }
  // Step 3: the last T of what remains.
  const cut = T === Infinity ? 0 : Math.max(0, kept.length - T);
  for (const i of kept.slice(0, cut)) fates[i] = 'outside-window';
  let score = 0;
  for (const i of kept.slice(cut)) score += deltas[i]!;
  return { score, filter, deltas: deltas.map((delta, i) => ({ delta, fate: fates[i]! })) };
}
