/**
 * PlayerRating's convergence experiment (Kaiser & Feng, "Reputation Convergence"; docs/spec.md §4): the
 * RMSD between successive iterations over players with at least one rating, on a real signed
 * network, computed by the `trust` scorer itself.
 */
import type { RatingEvent } from '../events/types.js';
import { trust } from '../scorers/trust/scorer.js';

export interface TrustConvergenceOptions {
  readonly observers: readonly string[];
  readonly iterations: number;
  /** Other trust parameters (ttlMax, negativeWeight, …). */
  readonly params?: Readonly<Record<string, unknown>>;
}

export interface TrustConvergenceResult {
  readonly ratings: number;
  readonly players: number;
  /** RMSD after each iteration. */
  readonly rmsd: readonly number[];
  readonly milliseconds: number;
}

export function simulateTrustConvergence(events: readonly RatingEvent[], options: TrustConvergenceOptions): TrustConvergenceResult {
  const state = trust.initialState(
    trust.params.resolve({ ...options.params, observers: options.observers, maxIterations: options.iterations, tolerance: 0 }),
  );
  for (const event of events) trust.evolve(state, event);
  const community = state.communities.values().next().value;
  if (community === undefined) return { ratings: 0, players: 0, rmsd: [], milliseconds: 0 };
  const result = community.compute();
  return { ratings: result.entries.length, players: community.ratings.players.size, rmsd: result.residuals, milliseconds: result.milliseconds };
}

/** The `count` players with the most positive ratings received: a default observer set. */
export function mostTrusted(events: readonly RatingEvent[], count: number): string[] {
  const positive = new Map<string, number>();
  for (const e of events) if (e.value > 0) positive.set(e.to, (positive.get(e.to) ?? 0) + 1);
  return [...positive].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, count).map(([p]) => p);
}
