/** What `standing rank` says on standard error: why a ranking is empty, and how its computations ended. */
import type { AnyScorer, ComputationStats } from '../../scorers/scorer.js';

/** Why a ranking came out empty, for people: the community is not in the log, or nothing in it is this scorer's. */
export function emptyRankingHint(scorer: AnyScorer, states: unknown, file: string, community: string | undefined): string {
  const known = scorer.communities(states);
  if (community !== undefined && !known.includes(community)) {
    const listed = known.length === 0 ? 'none' : `${known.slice(0, 10).join(', ')}${known.length > 10 ? `, … (${known.length})` : ''}`;
    return `no community "${community}" has ${scorer.id} events in ${file} (communities that do: ${listed})`;
  }
  return `no player to rank: ${file} has no event ${scorer.id} uses (${scorer.uses.join(', ')})`;
}

/** `--stats`' line for one computation (`label` names the scorer, parameters and community). */
export function computationSummary(label: string, stats: ComputationStats): string {
  return `${label}: ${stats.iterations} iterations, final residual ${stats.residual.toExponential(3)}${stats.converged ? '' : ' (not converged)'}, ${stats.milliseconds.toFixed(1)} ms`;
}

/** A computation's warning (every reputation 0, …), with what to try. */
export function computationWarning(label: string, warning: string): string {
  return `${label}: ${warning}; try --now with a time inside the log, or ratings that live longer (--set expireHours=…)`;
}
