/**
 * How a partition a worker holds is put together, said by the worker's composition root
 * (../app/worker.ts): its live engine's options over the partition's view of the store, and the
 * read side that answers the requests gateways forward (./partition-services.ts). The partition's
 * mechanisms (./partition-runner.ts: the claim, the stream, the fence) stay here.
 */
import type { FastifyInstance } from 'fastify';
import type { ModerationBook } from '../moderation/book.js';
import type { AlertMonitor } from '../service/alerts.js';
import type { LiveEngine, LiveEngineOptions } from '../service/live-engine.js';
import type { EventStore } from '../store/types.js';

/** What a partition answers reads with: the single-node routes over its engine, and what they keep. */
export interface PartitionReads {
  /** The single-node API over the partition, never listening: forwarded requests are injected into it. */
  readonly api: FastifyInstance;
  /** Raises the partition's alerts (stopped with the partition). */
  readonly alerts: AlertMonitor;
  /** Sanctions and appeals of the partition's communities, following every commit. */
  readonly moderation: ModerationBook;
  /** The ranking views kept per community: an erasure drops the communities it changed. */
  readonly views: { forget(community: string): void };
  /** The history replays kept per community: an erasure or a hand-over drops them. */
  readonly history: { forget(community: string): void };
}

export interface PartitionAssembly {
  /** The options of partition `partition`'s live engine over `store`, the partition's view of the store. */
  engineOptions(store: EventStore, partition: number): LiveEngineOptions;
  /** The read side of partition `partition` over its engine; its alert monitor and API run until the partition stops. */
  openReads(store: EventStore, live: LiveEngine, partition: number): Promise<PartitionReads>;
}
