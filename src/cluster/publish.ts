/**
 * The gateway's half of ingest: a validated batch cut into one message per partition (the
 * partition's events in batch order), each published to its partition's subject and acknowledged
 * by JetStream. Each message is stored whole or not at all, and applied whole or refused whole by
 * the owning worker, as `standing serve` applies a batch (./ingest-protocol.ts).
 *
 * No message id is set: a message the worker refused, sent again corrected with the same event
 * ids, or events sent again after their player was erased, must reach the worker, as they reach
 * `standing serve`. A retry of a batch already applied is a new message whose events the worker
 * counts as duplicates by id, as serve does.
 */
import type { JetStreamClient, PubAck } from '@nats-io/jetstream';
import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
import type { StandingEvent } from '../events/types.js';
import { BATCH_HEADER, OUTCOME_HEADER } from './ingest-protocol.js';
import { partitionSubject, type ClusterConfig } from './nats.js';
import { partitionOf } from '../store/partitions.js';

/** One partition's part of a batch, as published. */
export interface PartitionPart {
  readonly partition: number;
  readonly events: readonly StandingEvent[];
  /** Each event's index in the batch. */
  readonly indices: readonly number[];
}

/** The batch's events by partition, in order of each partition's first event; each part in batch order. */
export function partitionParts(events: readonly StandingEvent[], partitions: number): PartitionPart[] {
  const parts = new Map<number, { partition: number; events: StandingEvent[]; indices: number[] }>();
  events.forEach((event, index) => {
    const partition = partitionOf(event.community, partitions);
    const part = parts.get(partition) ?? parts.set(partition, { partition, events: [], indices: [] }).get(partition)!;
    part.events.push(event);
    part.indices.push(index);
  });
  return [...parts.values()];
}

/** The headers every message of a batch, and every erase command, carries (./ingest-protocol.ts). */
export interface BatchHeaders {
  readonly batch: string;
  readonly outcomeTo: string;
}

const headerEntries = (h: BatchHeaders): [string, string][] => [
  [BATCH_HEADER, h.batch],
  [OUTCOME_HEADER, h.outcomeTo],
];

/** A message's NATS headers naming its batch and where its owner reports the outcome. */
export function batchHeaders(h: BatchHeaders): MsgHdrs {
  const headers = natsHeaders();
  for (const [key, value] of headerEntries(h)) headers.set(key, value);
  return headers;
}

/** The bytes `part` takes against the NATS servers' max_payload, as publishParts sends it: body and headers. */
export function messageBytes(part: PartitionPart, h: BatchHeaders): number {
  return Buffer.byteLength(JSON.stringify(part.events)) + headerBytes(headerEntries(h));
}

/** The bytes of a NATS header block: `NATS/1.0\r\n`, a `Key: value\r\n` line each, then `\r\n`. */
export function headerBytes(entries: readonly (readonly [string, string])[]): number {
  return entries.length === 0 ? 0 : Buffer.byteLength('NATS/1.0\r\n\r\n') + entries.reduce((sum, [key, value]) => sum + Buffer.byteLength(`${key}: ${value}\r\n`), 0);
}

/** Whether `error` is the client's refusal of a message over the server's max_payload. */
export function isOverMaxPayload(error: unknown): boolean {
  return error instanceof Error && /max_payload/i.test(error.message);
}

/** Publishes every part at once; resolves when JetStream has acknowledged them all (in `parts` order). */
export function publishParts(js: JetStreamClient, config: Pick<ClusterConfig, 'stream'>, parts: readonly PartitionPart[], h: BatchHeaders): Promise<PubAck[]> {
  return Promise.all(
    parts.map((part) => js.publish(partitionSubject(config, part.partition), JSON.stringify(part.events), { headers: batchHeaders(h) })),
  );
}
