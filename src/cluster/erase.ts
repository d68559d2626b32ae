/**
 * Erasure in the cluster. A player's events may be in any community, so any partition: the
 * gateway publishes one erase command to every partition's subject (a message with the
 * `Standing-Command: erase` header and `{"player": …}` as its body), in order with that
 * partition's events. The owning worker, reaching it, erases the player from the partition's
 * communities in PostgreSQL (the same erasure as `standing erase`, fenced by its epoch), rebuilds
 * their states, then removes the player from the log (eraseFromLog): every message of the
 * partition up to and including the command that names the player — their events, and the
 * command itself — is deleted with JetStream's erasing delete (its bytes overwritten on every
 * replica, ./erasing-delete.ts), and the partition's other messages up to the command are
 * purged; every one of them is stored in PostgreSQL by then. Only then does it record the
 * command's stream sequence, and report what the erasure changed to the gateway that published
 * the command (its batch headers, ./ingest-protocol.ts). A worker that stops between the erasure
 * and the record leaves the command to the next owner, which erases again (nothing is left to
 * change, and it reports that) and cleans the log again (a message already gone is skipped); when
 * the command itself was erased already, the next owner never sees it, and nothing of it is left
 * to do. The log's writes are the ones not fenced by the epoch (JetStream cannot check it): they
 * follow the fenced erasure, which a worker whose lease was taken over fails, and remove only
 * messages already stored in PostgreSQL.
 */
import type { JetStreamClient, JetStreamManager, JsMsg, PubAck } from '@nats-io/jetstream';
import { eraseNaming } from './erasing-delete.js';
import { partitionSubject, type ClusterConfig } from './nats.js';
import { batchHeaders, type BatchHeaders } from './publish.js';

export const COMMAND_HEADER = 'Standing-Command';

/** The player an erase command names; undefined when `message` is not one. */
export function erasedPlayer(message: Pick<JsMsg, 'headers' | 'json'>): string | undefined {
  if (message.headers?.get(COMMAND_HEADER) !== 'erase') return undefined;
  const body = message.json<{ player?: unknown }>();
  return typeof body.player === 'string' ? body.player : undefined;
}

/** Whether `message` carries a command (erase or one this version does not know). */
export function isCommand(message: Pick<JsMsg, 'headers'>): boolean {
  return message.headers?.has(COMMAND_HEADER) === true;
}

/**
 * Publishes an erase command for `player` to every partition, each naming the erasure as its batch
 * and where its owner reports what the erasure changed (`h`, ./ingest-protocol.ts); resolves with
 * each one's stream sequence.
 */
export async function publishErase(js: JetStreamClient, config: Pick<ClusterConfig, 'stream' | 'partitions'>, player: string, h: BatchHeaders): Promise<number[]> {
  const body = JSON.stringify({ player });
  const acks: PubAck[] = await Promise.all(
    Array.from({ length: config.partitions }, (_, partition) => {
      const headers = batchHeaders(h);
      headers.set(COMMAND_HEADER, 'erase');
      return js.publish(partitionSubject(config, partition), body, { headers });
    }),
  );
  return acks.map((ack) => ack.seq);
}

/** Whether `message`'s body holds `player` as a JSON string (as every event naming them, and their erase command, does). */
export function namesPlayer(message: Pick<JsMsg, 'data'>, player: string): boolean {
  return Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength).includes(JSON.stringify(player));
}

/**
 * Removes `player` from partition `partition`'s messages up to and including stream sequence
 * `through` (their erase command): each one naming them deleted with `erase`, the command last,
 * then the rest purged. Answers how many were erased.
 */
export async function eraseFromLog(js: JetStreamClient, jsm: JetStreamManager, config: Pick<ClusterConfig, 'stream'>, partition: number, player: string, through: number): Promise<number> {
  const subject = partitionSubject(config, partition);
  const erased = await eraseNaming(js, jsm, config.stream, subject, (message) => namesPlayer(message, player), through);
  await jsm.streams.purge(config.stream, { filter: subject, seq: through + 1 });
  return erased.length;
}
