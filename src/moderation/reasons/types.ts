/** What a scorer's words are made from, and what they give: the queue's reason, the case's summary and evidence. */
import type { Standing } from '../percentiles.js';

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
