/**
 * Erasure in the cluster. A player's events may be in any community, so any partition: the
 * gateway publishes one erase command to every partition's subject (a message with the
 * `Standing-Command: erase` header and `{"player": …}` as its body), in order with that
 * partition's events. The owning worker, reaching it, erases the player from the partition's
 * communities in PostgreSQL (the same erasure as `standing erase`, fenced by its epoch), rebuilds
 * their states, then purges the partition's subject up to and including the command — every
 * earlier message of the partition is stored in PostgreSQL by then, the erased events and the
 * command naming the player included — and only then records the command's stream sequence. A
 * worker that stops between the erasure and the record leaves the command to the next owner,
 * which erases again (nothing is left to change) and purges. The purge is the one write not
 * fenced by the epoch (JetStream cannot check it): it follows the fenced erasure, which a worker
 * whose lease was taken over fails, and removes only messages already stored in PostgreSQL.
 */
import type { JetStreamClient, JetStreamManager, JsMsg, PubAck } from '@nats-io/jetstream';
import { headers } from '@nats-io/transport-node';
import { partitionSubject, type ClusterConfig } from './nats.js';

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

/** Publishes an erase command for `player` to every partition; resolves with each one's stream sequence. */
export async function publishErase(js: JetStreamClient, config: Pick<ClusterConfig, 'stream' | 'partitions'>, player: string): Promise<number[]> {
  const body = JSON.stringify({ player });
  const acks: PubAck[] = await Promise.all(
    Array.from({ length: config.partitions }, (_, partition) => {
      const h = headers();
      h.set(COMMAND_HEADER, 'erase');
      return js.publish(partitionSubject(config, partition), body, { headers: h });
    }),
  );
  return acks.map((ack) => ack.seq);
}

/** Removes the partition's messages up to and including stream sequence `through` from the stream. */
export async function purgeThrough(jsm: JetStreamManager, config: Pick<ClusterConfig, 'stream'>, partition: number, through: number): Promise<void> {
  await jsm.streams.purge(config.stream, { filter: partitionSubject(config, partition), seq: through + 1 });
}
