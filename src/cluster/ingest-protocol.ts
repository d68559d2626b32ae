/**
 * How a batch sent to a gateway is answered only once it has taken effect (docs/deploy.md, "The
 * ingest contract"). The gateway publishes each partition's part of the batch as one message with
 * two headers: the batch's id (`Standing-Batch`) and the subject the gateway hears outcomes on
 * (`Standing-Outcome-To`, `<stream>-outcome.<gateway>`). The owning worker applies the message as
 * `standing serve` applies a batch — stored and applied whole, or refused whole — and publishes
 * the part's outcome there. A batch over more than one partition whose parts could be refused by
 * the state (domain actions, appeal openings) is first checked by each part's owner on
 * `<stream>-check.<partition>` against its state (a stale owner's answer passed over, as for a
 * read), so the batch is refused whole, as serve refuses it, before anything is published.
 * An erase command (./erase.ts) carries the same two headers, and its owner reports what the
 * erasure changed the same way, once it has recorded the command.
 */
import type { BatchProblem } from '../errors.js';
import type { ClusterConfig } from './nats.js';

export const BATCH_HEADER = 'Standing-Batch';
export const OUTCOME_HEADER = 'Standing-Outcome-To';

/** The subject a gateway hears the outcomes of its batches on. */
export function outcomeSubject(config: Pick<ClusterConfig, 'stream'>, gateway: string): string {
  return `${config.stream}-outcome.${gateway}`;
}

/** The subject a partition's owner checks parts of batches on. */
export function checkSubject(config: Pick<ClusterConfig, 'stream'>, partition: number): string {
  return `${config.stream}-check.${partition}`;
}

/** What became of one partition's part of a batch, or of its erase command. */
export type PartOutcome =
  /** Stored and applied (events whose id the community held are counted, not applied). */
  | { readonly kind: 'applied'; readonly accepted: number; readonly duplicates: number; readonly sequences: Readonly<Record<string, number>> }
  /** Refused whole, nothing stored: each problem's index counts in the part's events. */
  | { readonly kind: 'refused'; readonly problems: readonly BatchProblem[] }
  /** Stored, but a scorer failed on an event of it (APPLY_FAILED, as serve answers). */
  | { readonly kind: 'failed'; readonly message: string }
  /**
   * An erase command applied (./erase.ts): what the erasure changed in the partition's
   * communities, as `standing serve`'s erasure counts it (none when the partition held nothing
   * of the player, or when an owner that took over after a crash erased again).
   */
  | { readonly kind: 'erased'; readonly communities: readonly string[]; readonly removed: number; readonly rewritten: number };

/** What a worker publishes on a batch's outcome subject. */
export interface OutcomeMessage {
  readonly batch: string;
  readonly partition: number;
  readonly streamSequence: number;
  readonly outcome: PartOutcome;
}

/** A check of a part, as a gateway asks it. */
export interface CheckRequest {
  readonly events: readonly unknown[];
}

/**
 * What the owner would refuse of the part now: appeals against a sanction their player does not
 * have and second open appeals (checked first, as serve checks them) and, when there are none, the problems of ingesting it; indices count in the part.
 * It carries the owner's lease epoch, as a read's answer does (./ask-owner.ts).
 */
export type CheckAnswer = ({ readonly appeals: readonly BatchProblem[]; readonly problems: readonly BatchProblem[] } | { readonly error: string }) & { readonly epoch: number };
