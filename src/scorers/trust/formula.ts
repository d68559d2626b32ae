/**
 * The maths of `trust`, written to be read: PlayerRating's reputations as seen by a set of
 * observers, over plain lists and Maps keyed by player id, and the trust-flow defence. The
 * scorer computes the same thing fast (./community.ts builds an incoming CSR of the live ratings,
 * ./kernel.ts runs the iteration in WebAssembly, ./iterate.wat, on one thread or two, and ./flow.ts
 * the trust flow); tests hold the two equal, to the bit when given the ratings in the scorer's
 * order (test/unit/trust/formula.test.ts).
 *
 * Paper: Edward Kaiser and Wu-chang Feng, "PlayerRating: A Reputation System for Multiplayer
 * Online Games", NetGames 2009 (IEEE), DOI 10.1109/NETGAMES.2009.5446231. The project's copy is the
 * talk's slides: "ExpireRatings()" (the TTL), "CalculateReputations()" (Influence, Decay, and the
 * extra slide's pseudo-code, lines 1–11: an incremental weighted average), "Reputation
 * Convergence" (the RMSD) and "Observations" (weighting negative ratings heavier). docs/spec.md §4
 * is the normative reading, and its §6.2 names the defence (docs/trust.md#defences).
 *
 * One Jacobi step (spec §4), every R'_j from the previous iteration's R:
 *
 *     R'_j = Σ_i f_ij · Inf(R_i) · r_ij · Decay(TTL_ij) · R_i  /  Σ_i f_ij · Inf(R_i)
 *            over j's live ratings r_ij, with Inf(R_i) = max(Influence(R_i), 0);
 *            R'_j = 0 when the denominator is not > 0;  R'_s = 1 for an observer s
 *
 * f_ij = negativeWeight for a negative rating, else 1 (the paper's suggested hastening). The
 * paper's pseudo-code adds each rater in turn to a running weighted average (w_j += w_Δ;
 * R'_j += (x − R'_j) · w_Δ / w_j), which is this quotient.
 */
import { BLOCK } from './kernel/split.js';
import type { TrustParams } from './params.js';

/**
 * A rating in force: `rater`'s r_ij ∈ [−1, 1] (not 0) of `ratee`, with its TTL now, 1 … TTL_MAX:
 * TTL_MAX − ⌊(now − when it was set) / T_expire⌋ (spec §4; the slides' ExpireRatings()).
 */
export interface LiveRating {
  readonly rater: string;
  readonly ratee: string;
  readonly value: number;
  readonly ttl: number;
}

export type TrustFormulaParams = Pick<TrustParams, 'ttlMax' | 'negativeWeight' | 'maxIterations' | 'tolerance' | 'decay' | 'influence' | 'minFlow' | 'flowDamping'>;

/** What the formula gives: each player's reputation, and how the iteration went. */
export interface TrustReading {
  /** Every player's reputation (the observers at 1), after the trust-flow cut when minFlow > 0. */
  readonly reputation: Map<string, number>;
  /** The RMSD of each iteration. */
  readonly residuals: number[];
  readonly converged: boolean;
  /** With the trust-flow defence (minFlow > 0): the reputations before the cut, and the flows. */
  readonly iterated?: Map<string, number>;
  readonly flow?: Map<string, number>;
}

/** A live rating as the iteration reads it: its rater, and w_ij = r_ij · Decay(TTL_ij). */
export interface WeightedRating {
  readonly rater: string;
  readonly weight: number;
}

/** The live ratings of each player, by ratee, weighted by their age (each list in the order given). */
export function ratingsByRatee(ratings: readonly LiveRating[], p: Pick<TrustParams, 'decay' | 'ttlMax'>): Map<string, WeightedRating[]> {
  const incoming = new Map<string, WeightedRating[]>();
  for (const r of ratings) {
    const weighted = { rater: r.rater, weight: r.value * p.decay(r.ttl, p.ttlMax) };
    const list = incoming.get(r.ratee);
    if (list === undefined) incoming.set(r.ratee, [weighted]);
    else list.push(weighted);
  }
  return incoming;
}

/** One Jacobi step: R' from R (the header's equation). */
export function jacobiStep(
  players: readonly string[],
  incoming: ReadonlyMap<string, readonly WeightedRating[]>,
  observers: ReadonlySet<string>,
  current: ReadonlyMap<string, number>,
  p: Pick<TrustParams, 'negativeWeight' | 'influence'>,
): Map<string, number> {
  // Each rater's say, Inf(R_i) (the pseudo-code's w_Δ), and what it passes on, Inf(R_i) · R_i.
  const rater = new Map<string, { say: number; passes: number }>();
  for (const [i, Ri] of current) {
    const say = Math.max(p.influence(Ri), 0);
    rater.set(i, { say, passes: say * Ri });
  }
  const next = new Map<string, number>();
  for (const j of players) {
    if (observers.has(j)) {
      next.set(j, 1);
      continue;
    }
    let numerator = 0;
    let denominator = 0;
    for (const rating of incoming.get(j) ?? []) {
      const { say, passes } = rater.get(rating.rater)!;
      const f = rating.weight < 0 ? p.negativeWeight : 1;
      numerator += f * rating.weight * passes;
      denominator += f * say;
    }
    next.set(j, denominator > 0 ? numerator / denominator : 0);
  }
  return next;
}

/**
 * The RMSD between two iterations over the rated players (at least one live rating) who are not
 * observers. The squares are summed per block of BLOCK players, then the blocks in order, as the
 * kernel sums them (so that one and two threads agree): the same bits as the kernel's.
 */
export function rmsd(players: readonly string[], incoming: ReadonlyMap<string, readonly WeightedRating[]>, observers: ReadonlySet<string>, before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): number {
  const blocks: number[] = [];
  let rated = 0;
  players.forEach((j, index) => {
    if (index % BLOCK === 0) blocks.push(0);
    if (observers.has(j) || (incoming.get(j) ?? []).length === 0) return;
    const d = after.get(j)! - before.get(j)!;
    blocks[blocks.length - 1]! += d * d;
    rated++;
  });
  return rated === 0 ? 0 : Math.sqrt(blocks.reduce((sum, x) => sum + x, 0) / rated);
}

/**
 * The trust flow of each player (./flow.ts, docs/trust.md#defences, after SybilRank): from F = 0,
 *
 *     F_j = [j ∈ S] + damping · Σ_{i → j, w_ij > 0} F_i · w_ij / Σ_{i → k, w_ik > 0} w_ik
 *
 * with w_ij = r_ij · Decay(TTL_ij), until no flow changes by more than 1e-12 of the average
 * |S| / ((1 − damping) · players) (or after 10,000 steps); then divided by the mean flow of the
 * rated players who are not observers (when that is positive).
 */
export function trustFlowOf(players: readonly string[], ratings: readonly LiveRating[], observers: ReadonlySet<string>, damping: number, p: Pick<TrustParams, 'decay' | 'ttlMax'>): Map<string, number> {
  const incoming = new Map<string, WeightedRating[]>(); // the positive ratings only
  const out = new Map<string, number>(); // Σ_k w_ik over them: what each rater's flow is split over
  for (const [j, list] of ratingsByRatee(ratings, p)) {
    incoming.set(j, list.filter((r) => r.weight > 0));
    for (const r of incoming.get(j)!) out.set(r.rater, (out.get(r.rater) ?? 0) + r.weight);
  }
  const average = observers.size / ((1 - damping) * Math.max(players.length, 1));
  let flow = new Map(players.map((j) => [j, 0]));
  for (let step = 0; step < 10_000; step++) {
    const next = new Map<string, number>();
    let largest = 0;
    for (const j of players) {
      let sum = observers.has(j) ? 1 : 0;
      for (const r of incoming.get(j) ?? []) sum += ((damping * flow.get(r.rater)!) / out.get(r.rater)!) * r.weight;
      next.set(j, sum);
      largest = Math.max(largest, Math.abs(sum - flow.get(j)!));
    }
    flow = next;
    if (largest <= 1e-12 * average) break;
  }
  const normal = players.filter((j) => incoming.has(j) && !observers.has(j)); // rated, not observers
  const mean = normal.length > 0 ? normal.reduce((sum, j) => sum + flow.get(j)!, 0) / normal.length : 0;
  if (mean > 0) for (const j of players) flow.set(j, flow.get(j)! / mean);
  return flow;
}

/**
 * Reputations as `observerIds` see them (docs/spec.md §4): R = 1 on the observers and 0
 * elsewhere, then Jacobi steps until the RMSD is below the tolerance or after maxIterations.
 * With the trust-flow defence (minFlow > 0), a player whose flow is below minFlow then shows
 * min(R, 0). Observers that are not players are left out. The ratings of each ratee are summed
 * in the order given, and the RMSD in the order of `players`.
 */
export function trustReputations(players: readonly string[], ratings: readonly LiveRating[], observerIds: readonly string[], p: TrustFormulaParams): TrustReading {
  const known = new Set(players);
  const observers = new Set(observerIds.filter((id) => known.has(id)));
  const incoming = ratingsByRatee(ratings, p);
  let current = new Map(players.map((j) => [j, observers.has(j) ? 1 : 0]));
  const residuals: number[] = [];
  for (let iteration = 0; iteration < p.maxIterations; iteration++) {
    const next = jacobiStep(players, incoming, observers, current, p);
    const residual = rmsd(players, incoming, observers, current, next);
    residuals.push(residual);
    current = next;
    if (residual < p.tolerance) break;
  }
  const converged = residuals.length > 0 && residuals.at(-1)! < p.tolerance;
  if (p.minFlow === 0) return { reputation: current, residuals, converged };
  const flow = trustFlowOf(players, ratings, observers, p.flowDamping, p);
  const reputation = new Map([...current].map(([j, R]) => [j, flow.get(j)! < p.minFlow && R > 0 ? 0 : R]));
  return { reputation, residuals, converged, iterated: current, flow };
}
