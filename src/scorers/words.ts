/**
 * How a scorer speaks to moderators: what its words are made from, and what they give (the
 * queue's reason, the case's summary and evidence); and the plain words a scorer without its own
 * get.
 */
import { num, worstPlace } from '../util/words.js';

/** Where a player stands in one ranking, read worst first whatever the scorer's direction (src/moderation/percentiles.ts computes it). */
export interface Standing {
  readonly score: number;
  /** 1-based rank as the scorer gives it. */
  readonly rank: number;
  /** Players ranked in the community. */
  readonly of: number;
  /** Position counted from the worst end (1 = the worst); ties keep the scorer's order. */
  readonly worstFirst: number;
  readonly percentile: number;
  readonly depth: number;
}

export interface WordsInput<E = unknown, P = Record<string, unknown>> {
  /** The scorer instance name. */
  readonly scorer: string;
  readonly params: Readonly<P>;
  readonly standing: Standing;
  /** The scorer's explanation of the player's score. */
  readonly explanation: E;
  /** The community's latest event time (epoch ms): "ago" counts from it. */
  readonly now: number;
}

/** One dated piece of evidence, in words. */
export interface EvidenceItem {
  /** The event's own time, epoch ms. */
  readonly time: number;
  /** The scorer instance name. */
  readonly scorer: string;
  readonly kind: string;
  readonly text: string;
  /** The other player it involves (the rater). */
  readonly other?: string;
  /** Whether it counts against the player (a drop, a negative rating): what "new evidence" looks for. */
  readonly bad: boolean;
}

export interface ScorerWords<E = any, P = any> {
  /** What a high score means, for the direction line. */
  readonly direction: 'higher is better' | 'higher is worse';
  /** What a good and a bad score mean for this scorer. */
  readonly good: string;
  readonly bad: string;
  /** One line for the queue: why this scorer points at the player. */
  reason(input: WordsInput<E, P>): string;
  /** The case's summary of the score: a few sentences. */
  summary(input: WordsInput<E, P>): string;
  /** Dated evidence, newest first (empty for scorers whose explanation holds no dates). */
  evidence(input: Omit<WordsInput<E, P>, 'standing'>): EvidenceItem[];
}

/** Plain words for a scorer without its own: its id, its score and the player's place. */
export function genericWords(id: string, rankOneIsWorst: boolean): ScorerWords {
  const direction = rankOneIsWorst ? 'higher is worse' : 'higher is better';
  return {
    direction,
    good: rankOneIsWorst ? 'a low score' : 'a high score',
    bad: rankOneIsWorst ? 'a high score' : 'a low score',
    reason: (i) => `${id} ${num(i.standing.score)}, ${worstPlace(i.standing.worstFirst, i.standing.of)}`,
    summary: (i) => `${id} ${num(i.standing.score)} (${worstPlace(i.standing.worstFirst, i.standing.of)}; ${direction}).`,
    evidence: () => [],
  };
}
