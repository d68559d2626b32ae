/**
 * The trust-flow defence of `trust` (docs/trust.md#defences), after SybilRank: trust flows from
 * the observers along positive live ratings, each player passing on `damping` of what reaches it,
 * split over its positive ratings in proportion to their weights, so it halves (with damping ½)
 * at every hop away from the observers. However densely a ring of fake accounts rates itself, the
 * flow that enters it is what its attack edges carry: a few honest players' shares.
 *
 *   F_j = [j ∈ S] + damping · Σ_{i → j, w_ij > 0} F_i · w_ij / Σ_{i → k, w_ik > 0} w_ik
 *
 * iterated from F = 0 (a monotone, geometric convergence), then divided by the mean flow of the
 * rated players who are not observers, so 1 is an average rated player's share whatever the
 * size of the community and however much flow is lost at players who rate nobody.
 */
import type { IncomingCsr } from '../../graph/csr.js';

/** Stop when no player's flow changes by more than this share of the average. */
const TOLERANCE = 1e-12;
const MAX_ITERATIONS = 10_000;

export function trustFlow(csr: Pick<IncomingCsr, 'nodes' | 'offsets' | 'sources' | 'weights'>, observers: readonly number[], damping: number): Float64Array {
  const { nodes: n, offsets, sources, weights } = csr;
  const out = new Float64Array(n);
  const m = offsets[n]!;
  for (let e = 0; e < m; e++) if (weights[e]! > 0) out[sources[e]!]! += weights[e]!;
  const source = new Float64Array(n);
  for (const s of observers) source[s] = 1;
  const average = observers.length / ((1 - damping) * Math.max(n, 1));
  let flow = new Float64Array(n);
  let next = new Float64Array(n);
  const passed = new Float64Array(n);
  for (let it = 0; it < MAX_ITERATIONS; it++) {
    for (let i = 0; i < n; i++) passed[i] = out[i]! > 0 ? (damping * flow[i]!) / out[i]! : 0;
    let largest = 0;
    for (let j = 0; j < n; j++) {
      let sum = source[j]!;
      for (let e = offsets[j]!, end = offsets[j + 1]!; e < end; e++) if (weights[e]! > 0) sum += passed[sources[e]!]! * weights[e]!;
      next[j] = sum;
      const change = Math.abs(sum - flow[j]!);
      if (change > largest) largest = change;
    }
    [flow, next] = [next, flow];
    if (largest <= TOLERANCE * average) break;
  }
  let total = 0;
  let rated = 0;
  for (let j = 0; j < n; j++) {
    if (source[j] !== 0 || offsets[j + 1] === offsets[j]) continue;
    total += flow[j]!;
    rated++;
  }
  const mean = rated > 0 ? total / rated : 0;
  if (mean > 0) for (let j = 0; j < n; j++) flow[j]! /= mean;
  return flow;
}
