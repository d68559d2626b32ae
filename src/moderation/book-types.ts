/**
 * What the moderation book (the in-memory record of moderator events per community and player)
 * tells the queue and the case: a player's sanctions, appeals, notes and verdicts, and the facts
 * the queue weighs. The book itself (./book.ts) defines the views; the queue only reads
 * through `ModerationFacts`, so it stays pure.
 */
import type { PlayerRecord, QueueFacts } from './book.js';

export type { AppealView, NoteView, OpenProposal, PlayerRecord, QueueFacts, SanctionView, SecondOpinion, VerdictView } from './book.js';

/** The part of the moderation book the queue and the case read. */
export interface ModerationFacts {
  record(community: string, player: string, now: number): Promise<PlayerRecord>;
  facts(community: string, player: string, now: number): QueueFacts;
  /** The community's clock: the latest event time seen, never going back. */
  clock(community: string): number;
  /** Counts the changes of the community's records (a cache built on them is current while it is equal). */
  version(community: string): number;
  /** Players of the community with any open appeal (the queue lists them even with good scores). */
  withOpenAppeals(community: string): string[];
  /** Players of the community with a rule's proposal no handling came after (the queue lists them). */
  withOpenProposals(community: string): string[];
}

/** No moderation book: nobody handled, no appeals, no sanctions. */
export const NO_FACTS: QueueFacts = Object.freeze({ openAppeals: 0, activeSanctions: Object.freeze([]) as readonly string[] });
export const EMPTY_RECORD = (): PlayerRecord => ({ sanctions: [], appeals: [], notes: [], verdicts: [] });
