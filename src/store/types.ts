/**
 * The event store behind the service: an append-only log per community with a gapless
 * sequence, idempotency by event `id`, and scorer checkpoints. One interface, two backends
 * (./sqlite.ts, the embedded default, and ./postgres.ts), one conformance suite.
 */
import type { StandingEvent } from '../events/types.js';

export interface StoredEvent {
  readonly community: string;
  /** 1, 2, 3, … within the community, in the order events were accepted. */
  readonly sequence: number;
  readonly event: StandingEvent;
}

export interface AppendOutcome {
  /** The events stored by this call, with their sequences, in input order. */
  readonly appended: readonly StoredEvent[];
  /** Events ignored because their `id` was already accepted (or repeated in the batch). */
  readonly duplicates: number;
}

export interface Checkpoint {
  /** The last sequence the saved state includes. */
  readonly sequence: number;
  /** The scorer state, serialized by the caller. */
  readonly state: string;
}

export interface EventStore {
  readonly kind: 'sqlite' | 'postgres';
  /** Stores a validated batch atomically: all of it (less duplicates) or, on error, none of it. */
  append(events: readonly StandingEvent[]): Promise<AppendOutcome>;
  /** Events of `community` with sequence > `after`, in order, at most `limit`. */
  read(community: string, after?: number, limit?: number): Promise<StoredEvent[]>;
  /** Communities with at least one event, by name. */
  communities(): Promise<string[]>;
  saveCheckpoint(scorer: string, community: string, checkpoint: Checkpoint): Promise<void>;
  loadCheckpoint(scorer: string, community: string): Promise<Checkpoint | undefined>;
  /** The schema version the store is migrated to. */
  schemaVersion(): Promise<number>;
  /** Releases the store; closing twice is harmless. */
  close(): Promise<void>;
}
