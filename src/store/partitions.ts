/**
 * What the cluster's workers (../cluster/) ask of the PostgreSQL store beyond an EventStore:
 * partitions claimed by lease epoch, and appends and checkpoints fenced by that epoch, so a
 * worker whose lease was taken over cannot write again (migration 7, ./migrations.ts). Partitions
 * are kept per event stream, and a claim checks that the stream is the one the stored sequences
 * count in. A fenced write also names only communities of the fence's own partition (by
 * partitionOf, over the stream's number of partitions, which the claim carries):
 * one naming another partition's community is refused whole (CommunityOutsidePartitionError), so
 * a worker can never write state, events or alerts of a community it does not lease.
 */
import { StandingError } from '../errors.js';
import { fnv1a32 } from '../util/fnv1a.js';
import type { NewRefusal, StoredRefusal } from './refusals.js';
import type { AppendOutcome, CheckpointSet, ErasureOutcome, EventRewrite, EventStore, NewAlert, StoredAlert } from './types.js';

/**
 * The partition (0 … partitions − 1) of the event stream `community`'s events go to: FNV-1a (32
 * bits) of the community name's UTF-8 bytes, modulo the number of partitions. The same on every
 * gateway and every version, so a community's events always share one subject and keep their order.
 */
export function partitionOf(community: string, partitions: number): number {
  return fnv1a32(community) % partitions;
}

/** A worker's right to write a partition of a stream: the epoch its claim got. */
export interface Fence {
  /** The event stream's name. */
  readonly stream: string;
  readonly partition: number;
  /** The stream's number of partitions: a community belongs to partitionOf(community, partitions). */
  readonly partitions: number;
  readonly epoch: number;
}

/** What a claim finds: the new epoch, and the last stream sequence the partition's stored events include. */
export interface PartitionClaim extends Fence {
  readonly streamSequence: number;
}

/**
 * An event stream: its name, the identity of this instance of it, and its number of partitions
 * (fixed when the instance was made: ../cluster/nats.ts).
 */
export interface StreamIdentity {
  readonly name: string;
  readonly id: string;
  readonly partitions: number;
}

export interface PartitionWrites {
  /**
   * Raises the partition's epoch by one (the first claim gets 1) and answers it with the stream
   * sequence stored so far; every write fenced by an older epoch fails from then on. Throws
   * StreamMismatchError, changing nothing, when the partition's stored sequences count in
   * another instance of the stream (deleted and made again since).
   */
  claimPartition(stream: StreamIdentity, partition: number): Promise<PartitionClaim>;
  /**
   * Stores `events` (as `append` does) and records that the partition's events include stream
   * sequence `streamSequence`, in one statement; throws PartitionFencedError, storing nothing,
   * when the partition was claimed since `fence`. With no events it records the sequence alone.
   * Every fenced write throws CommunityOutsidePartitionError, writing nothing, when it names a
   * community of another partition than the fence's.
   */
  appendFenced(events: Parameters<EventStore['append']>[0], fence: Fence, streamSequence: number): Promise<AppendOutcome>;
  /**
   * As `erase`, over `communities` only (the partition's), in a transaction that first checks
   * `fence` (PartitionFencedError, nothing changed), even when `communities` is empty.
   */
  eraseFenced(player: string, rewrite: EventRewrite, fence: Fence, communities: readonly string[]): Promise<ErasureOutcome>;
  /** Each claimed partition of `stream`'s stream sequence: its stored events include every message up to it. */
  streamSequences(stream: string): Promise<Map<number, number>>;
  /** As `saveCheckpointSets`, in a transaction that first checks `fence` (PartitionFencedError). */
  saveCheckpointSetsFenced(checkpoints: ReadonlyMap<string, CheckpointSet>, fence: Fence): Promise<void>;
  /**
   * Records a refused message of the partition and that its events include stream sequence
   * `refusal.streamSequence`, in one transaction that first checks `fence` (PartitionFencedError).
   */
  recordRefusalFenced(refusal: NewRefusal, fence: Fence): Promise<void>;
  /** Refused messages after id `after`, in order, at most `limit` (./refusals.ts). */
  refusals(after: number, limit: number): Promise<StoredRefusal[]>;
  /** Refused events by problem code. */
  refusedByCode(): Promise<Map<string, number>>;
  /** As `appendAlerts`, in a transaction that first checks `fence` (PartitionFencedError): a worker that lost its lease raises no alert. */
  appendAlertsFenced(alerts: readonly NewAlert[], fence: Fence): Promise<StoredAlert[]>;
}

/** The partition was claimed by a newer lease: this writer's writes are refused. */
export class PartitionFencedError extends StandingError {
  readonly code = 'PARTITION_FENCED' as const;
}

/** A fenced write named a community another partition holds: nothing of it was written. */
export class CommunityOutsidePartitionError extends StandingError {
  readonly code = 'COMMUNITY_OUTSIDE_PARTITION' as const;

  constructor(
    readonly community: string,
    /** The partition the community belongs to. */
    readonly belongsTo: number,
    readonly fence: Fence,
  ) {
    super(
      `community ${JSON.stringify(community)} belongs to partition ${belongsTo} of stream "${fence.stream}" (${fence.partitions} partitions), ` +
        `and this write is fenced by partition ${fence.partition} (epoch ${fence.epoch}): a worker writes only the communities of the partitions it leases; nothing was written`,
    );
  }
}

/** Throws CommunityOutsidePartitionError for the first of `communities` that is not in `fence`'s partition. */
export function requireOwnCommunities(communities: Iterable<string>, fence: Fence): void {
  for (const community of communities) {
    const belongsTo = partitionOf(community, fence.partitions);
    if (belongsTo !== fence.partition) throw new CommunityOutsidePartitionError(community, belongsTo, fence);
  }
}

/**
 * The stream's stored sequences count in another instance of it: the stream was deleted and made
 * again (its sequences restart at 1), or PostgreSQL is not the one that stream's workers wrote.
 * Consuming from the stored sequence would skip the new stream's messages, so nothing is claimed.
 */
export class StreamMismatchError extends StandingError {
  readonly code = 'STREAM_MISMATCH' as const;

  constructor(
    readonly stream: string,
    readonly partition: number,
    readonly stored: string,
    readonly found: string,
  ) {
    super(
      `partition ${partition} of NATS stream "${stream}": PostgreSQL holds the sequences of stream instance ${stored}, the stream now is instance ${found} ` +
        '(it was deleted and made again, so its sequences restart at 1): refusing to consume it from the stored sequence. ' +
        `If its events are to be applied from its start, delete the stream's rows from PostgreSQL first: DELETE FROM partitions WHERE stream = '${stream}' (events already stored are dropped again by id)`,
    );
  }
}

/** The SQLSTATE standing_fence raises (./migrations.ts). */
export const FENCED_SQLSTATE = 'SF001';

/**
 * The stream holds fewer messages than the partition's stored events include: its last sequence
 * is below the stream sequence PostgreSQL recorded (the servers lost acknowledged messages, e.g. a
 * power cut of a majority with lazy fsync, and numbered new ones again from there). Consuming from
 * the stored sequence would pass over the new messages up to it as if applied, so nothing is
 * consumed until an operator decides (docs/deploy.md, Durability).
 */
export class StreamBehindError extends StandingError {
  readonly code = 'STREAM_BEHIND' as const;

  constructor(
    readonly stream: string,
    readonly partition: number,
    readonly stored: number,
    readonly last: number,
  ) {
    super(
      `partition ${partition} of NATS stream "${stream}": PostgreSQL records its events through stream sequence ${stored}, but the stream's last sequence is ${last} ` +
        '(the NATS servers lost messages they had acknowledged, and number new ones from there): refusing to consume it, which would pass over the new messages up to the stored sequence. ' +
        'Make a new stream (another cluster.stream name) and send the events since the loss again (events with ids apply once)',
    );
  }
}

