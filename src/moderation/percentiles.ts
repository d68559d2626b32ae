/**
 * Where each player of one ranking stands, read worst first whatever the scorer's direction
 * (docs/moderation.md#percentile-and-tail): the percentile (the share of the ranked players this
 * player is worse than or equal to, 1 = the worst) and the depth (1 + the players strictly
 * better, over all), which differ only for ties: a crowd tied at one score shares the percentile
 * of its worst member and the depth of its best, so a large tie (players nobody reported) never
 * reads as a tail.
 */
import type { RankRow } from '../scorers/scorer.js';
import type { Standing } from '../scorers/words.js';

export type { Standing };


/**
 * Standings of every row of one ranking, in the rows' order: O(n), as the rows come sorted by
 * score (ties adjacent). `rankOneIsWorst` is the scorer's direction.
 */
export function standingsOf(rows: readonly RankRow[], rankOneIsWorst: boolean): Standing[] {
  const n = rows.length;
  const out = new Array<Standing>(n);
  // Walk groups of equal scores; with rank 1 the best, the players worse than or equal to a row
  // are those from its group's start to the end: n - groupStart; strictly better: groupStart.
  let start = 0;
  while (start < n) {
    let end = start + 1;
    while (end < n && rows[end]!.score === rows[start]!.score) end++;
    for (let i = start; i < end; i++) {
      const row = rows[i]!;
      const better = rankOneIsWorst ? n - end : start; // players strictly better than the row
      const atOrBetter = rankOneIsWorst ? n - start : end; // … or tied with it
      out[i] = {
        score: row.score,
        rank: row.rank,
        of: n,
        worstFirst: rankOneIsWorst ? i + 1 : n - i,
        percentile: atOrBetter / n,
        depth: (better + 1) / n,
      };
    }
    start = end;
  }
  return out;
}

/**
 * The standing of row `index` alone, equal to `standingsOf(rows, rankOneIsWorst)[index]`: its tie
 * group found by binary search over the sorted scores, O(log n).
 */
export function standingAt(rows: readonly RankRow[], index: number, rankOneIsWorst: boolean): Standing {
  const n = rows.length;
  const row = rows[index]!;
  const descending = rows[0]!.score >= rows[n - 1]!.score;
  // Whether row i comes strictly before the row's tie group in the rows' order.
  const before = (i: number) => (descending ? rows[i]!.score > row.score : rows[i]!.score < row.score);
  const after = (i: number) => (descending ? rows[i]!.score < row.score : rows[i]!.score > row.score);
  let lo = 0;
  let hi = index;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  const start = lo;
  lo = index + 1;
  hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (after(mid)) hi = mid;
    else lo = mid + 1;
  }
  const end = lo;
  const better = rankOneIsWorst ? n - end : start;
  const atOrBetter = rankOneIsWorst ? n - start : end;
  return { score: row.score, rank: row.rank, of: n, worstFirst: rankOneIsWorst ? index + 1 : n - index, percentile: atOrBetter / n, depth: (better + 1) / n };
}

/** How many of the other ranked players stand strictly better than this one (so it is worse than them): depth·n − 1. */
export function worseThan(standing: Pick<Standing, 'depth' | 'of'>): number {
  return Math.max(0, Math.round(standing.depth * standing.of) - 1);
}

/**
 * How far into the bad tail (the worst `share` of the community) a standing is: with b the other
 * players it is not strictly worse than (n − depth·n), 1 − b / (share·n), 0 when that is not
 * positive (below 10⁻¹² counts as 0, floating-point noise at the tail's edge): 1 for the very
 * worst, 0 from the tail's edge on.
 */
export function tailOf(standing: Pick<Standing, 'depth' | 'of'>, share: number): number {
  const others = Math.round(standing.of - standing.depth * standing.of);
  const tail = 1 - others / (share * standing.of);
  return tail < 1e-12 ? 0 : tail;
}
