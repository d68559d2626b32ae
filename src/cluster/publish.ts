/**
 * The gateway's half of ingest: a validated batch cut into one message per community (the
 * community's events in batch order), each published to its partition's subject and acknowledged
 * by JetStream before the batch is answered.
 *
 * Atomicity: one community's part of a batch is one message, stored whole or not at all, and
 * applied whole or refused whole by the worker. A batch over several communities is several
 * messages: if the gateway stops between them, some may be in the log and others not. A client
 * that got no answer sends the batch again: a message whose events all carry ids has a message id
 * made of them (Nats-Msg-Id), so JetStream drops a repeat within its duplicate window, and the
 * worker drops every event whose id its community already holds at any later time; the retry
 * therefore completes the batch and applies nothing twice.
 */
import { createHash } from 'node:crypto';
import type { JetStreamClient } from '@nats-io/jetstream';
import type { StandingEvent } from '../events/types.js';
import { partitionSubject, type ClusterConfig } from './nats.js';
import { partitionOf } from './partition.js';

/** One community's part of a batch, as published. */
export interface CommunityMessage {
  readonly community: string;
  readonly partition: number;
  readonly events: readonly StandingEvent[];
  /** Set when every event has an id: the same ids in the same order give the same message id. */
  readonly messageId: string | undefined;
}

/** The batch's events by community, in order of each community's first event; each group in batch order. */
export function communityMessages(events: readonly StandingEvent[], partitions: number): CommunityMessage[] {
  const groups = new Map<string, StandingEvent[]>();
  for (const event of events) {
    const group = groups.get(event.community);
    if (group === undefined) groups.set(event.community, [event]);
    else group.push(event);
  }
  return [...groups].map(([community, group]) => ({ community, partition: partitionOf(community, partitions), events: group, messageId: messageId(community, group) }));
}

/** SHA-256 over the community and the events' ids (each length-prefixed), or undefined when an event has no id. */
function messageId(community: string, events: readonly StandingEvent[]): string | undefined {
  const hash = createHash('sha256');
  for (const text of [community, ...events.map((e) => e.id)]) {
    if (text === undefined) return undefined;
    hash.update(`${text.length}:${text}`);
  }
  return hash.digest('base64url');
}

/**
 * The bytes `message` takes against the NATS servers' max_payload, as publishBatch sends it: its
 * body and its headers (the message id, about 70 bytes, when it has one).
 */
export function messageBytes(message: CommunityMessage): number {
  return Buffer.byteLength(JSON.stringify(message.events)) + (message.messageId === undefined ? 0 : headerBytes([['Nats-Msg-Id', message.messageId]]));
}

/** The bytes of a NATS header block: `NATS/1.0\r\n`, a `Key: value\r\n` line each, then `\r\n`. */
export function headerBytes(entries: readonly (readonly [string, string])[]): number {
  return entries.length === 0 ? 0 : Buffer.byteLength('NATS/1.0\r\n\r\n') + entries.reduce((sum, [key, value]) => sum + Buffer.byteLength(`${key}: ${value}\r\n`), 0);
}

/** Whether `error` is the client's refusal of a message over the server's max_payload. */
export function isOverMaxPayload(error: unknown): boolean {
  return error instanceof Error && /max_payload/i.test(error.message);
}

/** What JetStream said of a published batch. */
export interface PublishOutcome {
  /** Events in messages JetStream stored. */
  readonly published: number;
  /** Events in messages JetStream dropped as repeats of one it holds (same message id within the window). */
  readonly repeated: number;
  /** Per community, the stream sequence of its message. */
  readonly streamSequences: Readonly<Record<string, number>>;
}

/** Publishes every message at once and resolves when JetStream has acknowledged them all. */
export async function publishBatch(js: JetStreamClient, config: Pick<ClusterConfig, 'stream' | 'partitions'>, events: readonly StandingEvent[]): Promise<PublishOutcome> {
  const messages = communityMessages(events, config.partitions);
  const acks = await Promise.all(
    messages.map((m) => js.publish(partitionSubject(config, m.partition), JSON.stringify(m.events), m.messageId === undefined ? {} : { msgID: m.messageId })),
  );
  let published = 0;
  let repeated = 0;
  // Community names are any strings, "__proto__" included: no prototype.
  const streamSequences = Object.create(null) as Record<string, number>;
  acks.forEach((ack, i) => {
    const message = messages[i]!;
    if (ack.duplicate) repeated += message.events.length;
    else published += message.events.length;
    streamSequences[message.community] = ack.seq;
  });
  return { published, repeated, streamSequences };
}
