/** What `standing rank` says on standard error: why a ranking is empty, and how its computations ended. */
import type { AnyScorer, ComputationStats } from '../../scorers/scorer.js';

/**
 * Why a ranking came out empty, for people: the community is not in the log, nothing in it is
 * this scorer's, or the scorer's events in it rank no player yet. `used` counts the events of
 * each type the scorer uses (in `community` when given); `usedIn` holds communities with such
 * events (the first ten found: nine are listed, and "…" says there are more).
 */
export function emptyRankingHint(scorer: AnyScorer, file: string, community: string | undefined, used: ReadonlyMap<string, number>, usedIn: ReadonlySet<string>): string {
  const total = [...used.values()].reduce((sum, n) => sum + n, 0);
  if (total === 0) {
    if (community !== undefined) {
      const known = [...usedIn].sort();
      const listed = known.length === 0 ? 'none' : `${known.slice(0, 9).join(', ')}${known.length > 9 ? ', …' : ''}`;
      return `no community "${community}" has ${scorer.id} events in ${file} (communities that do: ${listed})`;
    }
    return `no player to rank: ${file} has no event ${scorer.id} uses (${scorer.uses.join(', ')})`;
  }
  const where = community === undefined ? file : `community "${community}" of ${file}`;
  const counts = scorer.uses.filter((type) => used.has(type)).map((type) => `${type}: ${used.get(type)}`).join(', ');
  return `no player to rank: ${where} has ${total} event${total === 1 ? '' : 's'} ${scorer.id} uses (${counts}), but ${whyUnranked(scorer.id)}`;
}

/** Why a scorer's events rank no player, by scorer (the events it uses are there). */
function whyUnranked(scorer: string): string {
  switch (scorer) {
    case 'reliability':
      return 'none gives a player a score yet: a match scores its players at its end, at a disconnect or at a resume';
    case 'reports':
      return 'no player has played, reported or been reported yet: a match counts its games at its end';
    case 'trust':
      return 'none ranks a player: every player rated is an observer (observers are pinned, not ranked), or each rating withdraws one never made';
    default:
      return 'none gives a player a score';
  }
}

/** `--stats`' line for one computation (`label` names the scorer, parameters and community). */
export function computationSummary(label: string, stats: ComputationStats): string {
  return `${label}: ${stats.iterations} iterations, final residual ${stats.residual.toExponential(3)}${stats.converged ? '' : ' (not converged)'}, ${stats.milliseconds.toFixed(1)} ms`;
}

/** A computation's warning (every reputation 0, no report, …), with what to try when something can be (trust's expiry). */
export function computationWarning(scorer: AnyScorer, label: string, warning: string): string {
  const tryThis = scorer.id === 'trust' ? '; try --now with a time inside the log, or ratings that live longer (--set expireHours=…)' : '';
  return `${label}: ${warning}${tryThis}`;
}
