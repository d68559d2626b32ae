/**
 * How well a ranking separates labelled players: the paper's class-to-quartile correspondence
 * score (Quesada & Villacorta Tables 3–4, docs/spec.md §2.1) and ROC AUC (docs/spec.md §2.4).
 */
import { isFair, type Label, type PlayerClass } from './labels.js';

/** Table 3: value of a player of class c landing in quartile I..IV. */
export const CORRESPONDENCE: Readonly<Record<PlayerClass, readonly [number, number, number, number]>> = Object.freeze({
  F: [6, 4, -10, -25],
  f: [4, 6, -4, -10],
  d: [-10, -4, 6, 4],
  D: [-25, -10, 4, 6],
});

/**
 * Quartile (0 = I … 3 = IV) of 1-based `rank` among `n` ranked players: ranks are cut into four
 * equal runs, ⌊(rank − 1)·4 / n⌋ (with 20 players: 1–5, 6–10, 11–15, 16–20).
 */
export function quartileOf(rank: number, n: number): 0 | 1 | 2 | 3 {
  return Math.min(3, Math.floor(((rank - 1) * 4) / n)) as 0 | 1 | 2 | 3;
}

export interface RankedPlayer {
  readonly player: string;
  readonly rank: number;
  readonly score: number;
}

/**
 * Σ over labelled players of CORRESPONDENCE[class][quartile]; the ranking is cut into quartiles
 * over all its players. Null unless every label is one of F, f, d, D.
 */
export function correspondenceScore(ranking: readonly RankedPlayer[], labels: ReadonlyMap<string, Label>): number | null {
  for (const label of labels.values()) if (label === 'fair' || label === 'disruptive') return null;
  let total = 0;
  for (const row of ranking) {
    const label = labels.get(row.player) as PlayerClass | undefined;
    if (label !== undefined) total += CORRESPONDENCE[label][quartileOf(row.rank, ranking.length)];
  }
  return total;
}

/**
 * ROC AUC of the score as a detector of fair players: the probability that a random fair player
 * scores above a random disruptive one, ties counting one half. Null without both kinds.
 */
export function rocAuc(ranking: readonly RankedPlayer[], labels: ReadonlyMap<string, Label>): number | null {
  const scored = ranking.filter((row) => labels.has(row.player));
  const fair = scored.filter((row) => isFair(labels.get(row.player)!)).map((row) => row.score);
  const bad = scored.filter((row) => !isFair(labels.get(row.player)!)).map((row) => row.score);
  if (fair.length === 0 || bad.length === 0) return null;
  return aucOf(fair, bad);
}

/**
 * P(a random score of `higher` lies above a random score of `lower`), ties counting one half: the
 * Mann–Whitney U through one sort, O(n log n). Null when either list is empty.
 */
export function aucOf(higher: readonly number[], lower: readonly number[]): number | null {
  if (higher.length === 0 || lower.length === 0) return null;
  const all = [...higher.map((s) => ({ s, higher: true })), ...lower.map((s) => ({ s, higher: false }))].sort((a, b) => a.s - b.s);
  let rankSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j]!.s === all[i]!.s) j++;
    const midRank = (i + 1 + j) / 2; // average 1-based rank of the tie group
    for (let t = i; t < j; t++) if (all[t]!.higher) rankSum += midRank;
    i = j;
  }
  const u = rankSum - (higher.length * (higher.length + 1)) / 2;
  return u / (higher.length * lower.length);
}

export interface Evaluation {
  readonly players: number;
  readonly labelled: number;
  readonly score: number | null;
  readonly auc: number | null;
}

export function evaluateRanking(ranking: readonly RankedPlayer[], labels: ReadonlyMap<string, Label>): Evaluation {
  return {
    players: ranking.length,
    labelled: ranking.filter((row) => labels.has(row.player)).length,
    score: correspondenceScore(ranking, labels),
    auc: rocAuc(ranking, labels),
  };
}
