/**
 * Everything standing knows about one scorer, beyond the algorithm (`Scorer`): what its scores
 * mean and how it speaks to moderators, the range a score bar spans, the fields its rows carry in
 * the API, its `standing explain` text, and the defence settings the attack suite runs it under.
 * Each scorer's folder exports one (`src/scorers/<id>/index.ts`); the registry (`index.ts`)
 * holds them, and every part of standing that differs by scorer asks the registry.
 */
import type { StandingEvent } from '../events/types.js';
import type { RankRow, Scorer } from './scorer.js';
import type { ScorerWords } from './words.js';

/**
 * The range a score bar spans, for the dashboard: `signed` draws from a middle line at 0 over
 * `span` (over the community's largest magnitude when absent); `floor` fills from the floor
 * towards the ceiling, coloured by the row's band when the scorer has `bands` (reliability),
 * which read the last `windowDays` days; `harm` fills from 0 towards the community's largest
 * score, all of it the harmful side.
 */
export type BarSpec =
  | { readonly kind: 'signed'; readonly span?: number }
  | { readonly kind: 'floor'; readonly floor: number; readonly ceiling: number; readonly bands?: readonly BarBand[]; readonly windowDays?: number }
  | { readonly kind: 'harm' };

/** One band of a banded score, best first: a score from `from` up (below the previous band's `from`) is in it; the last band has no `from`. */
export interface BarBand {
  readonly band: string;
  readonly from?: number;
}

/** One field of a scorer's rows beyond rank, player, score and community, as the API documents it. */
export interface RowField {
  readonly type: 'integer' | 'number' | 'string';
  readonly description: string;
  readonly minimum?: number;
  readonly maximum?: number;
  /** The values a string field takes. */
  readonly enum?: readonly string[];
  /** Whether the field may be null. */
  readonly nullable?: boolean;
}

/** An event of the log an explanation lists, with its line in the file. */
export interface ObservedEvent {
  readonly event: StandingEvent;
  readonly line: number | undefined;
}

/** `standing explain SCORER`: the explanation of one player's score, for people and as JSON. */
export interface ExplainText<E = any> {
  /** What a player the scorer has no explanation for has none of ("actions", "ratings"), for the message. */
  readonly nothing: string;
  /** Events of the log to list beside the explanation (cqr: the player's actions), kept as the log is read. */
  observes?(event: StandingEvent, player: string, community: string): boolean;
  describe(explanation: E, observed: readonly ObservedEvent[]): { readonly json: unknown; readonly text: string };
}

/** A set of parameters the attack suite runs a scorer's scenarios under. */
export interface DefenceSetting {
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** Every defence off: the paper's method exactly. */
export const PUBLISHED: DefenceSetting = { name: 'published', params: {} };

export interface ScorerModule<P extends object = any, S = any, R extends RankRow = RankRow, E = any> {
  readonly scorer: Scorer<P, S, R, E>;
  /** What its scores mean (direction, a good and a bad score) and its words in the queue and cases. */
  readonly words: ScorerWords<E, P>;
  /** The range a score bar spans under `params`. */
  bar(params: Readonly<P>): BarSpec;
  /** The fields its rows carry beyond rank, player, score and community, by name. */
  readonly rowFields: Readonly<Record<string, RowField>>;
  /** Its `standing explain` text; the command refuses a scorer without one. */
  readonly explainText?: ExplainText<E>;
  /**
   * The settings the attack suite runs this scorer's scenarios under: `published` first, each
   * defence alone, and `recommended` (the settings the docs advise) last; empty when no scenario
   * attacks it.
   */
  readonly defences: readonly DefenceSetting[];
}
