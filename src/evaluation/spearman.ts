/**
 * Spearman's rank correlation of two scorings of the same players: Pearson's correlation of their
 * ranks, tied scores sharing the mean of their ranks. 1 when the orders agree, −1 when reversed;
 * null with fewer than two players or when one scoring ranks every player alike.
 */

/** 1-based ranks of `scores` from the lowest, ties given their mean rank. */
export function averageRanks(scores: readonly number[]): Float64Array {
  const order = scores.map((_, i) => i).sort((a, b) => scores[a]! - scores[b]!);
  const ranks = new Float64Array(scores.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j < order.length && scores[order[j]!] === scores[order[i]!]) j++;
    const mean = (i + 1 + j) / 2;
    for (let t = i; t < j; t++) ranks[order[t]!] = mean;
    i = j;
  }
  return ranks;
}

/** Spearman's ρ between `a` and `b`, scores of the same players in the same order. */
export function spearman(a: readonly number[], b: readonly number[]): number | null {
  if (a.length !== b.length) throw new RangeError(`spearman: ${a.length} scores against ${b.length}`);
  const n = a.length;
  if (n < 2) return null;
  const ra = averageRanks(a);
  const rb = averageRanks(b);
  const mean = (n + 1) / 2;
  let cov = 0;
  let va = 0;
  let vb = 0;
  for (let i = 0; i < n; i++) {
    const da = ra[i]! - mean;
    const db = rb[i]! - mean;
    cov += da * db;
    va += da * da;
    vb += db * db;
  }
  return va === 0 || vb === 0 ? null : cov / Math.sqrt(va * vb);
}

/** Spearman's ρ between two rankings given as player → score, over the players both score. */
export function spearmanOfScores(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number | null {
  const players = [...a.keys()].filter((p) => b.has(p));
  return spearman(
    players.map((p) => a.get(p)!),
    players.map((p) => b.get(p)!),
  );
}
