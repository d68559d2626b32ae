/**
 * JetStream's erasing delete, for the messages of one subject that name a player. A purge, or a
 * plain delete, only marks a message removed: its bytes stay in the stream's block file until the
 * server compacts the block, which it may never do. A delete with `erase` overwrites the stored
 * message (subject, headers and body) with random bytes on every replica at once. So an erasure
 * first reads the subject's messages (an ordered consumer, up to a stream sequence: one pass
 * over what the subject holds, never more), deletes with `erase` each one `names` picks, and only
 * then purges what else it wants gone.
 */
import { DeliverPolicy, type JetStreamClient, type JetStreamManager, type JsMsg, type StoredMsg } from '@nats-io/jetstream';

/** Messages asked for at a time while reading a subject. */
const FETCH_MESSAGES = 256;
/** How long one fetch waits for messages before the subject is taken as read to its end (ms). */
const FETCH_EXPIRES_MS = 2000;

/** The last message on `subject` (a literal subject, or one with wildcards), or null when it holds none. */
export async function lastMessageOn(jsm: JetStreamManager, stream: string, subject: string): Promise<StoredMsg | null> {
  return jsm.streams.getMessage(stream, { last_by_subj: subject }).catch((error: unknown) => {
    if ((error as { code?: number }).code === 404 || /no message found/i.test((error as Error).message)) return null;
    throw error;
  });
}

/**
 * Deletes with `erase` every message on `subject` up to stream sequence `through` (default: the
 * last one the subject holds now) that `names` picks; answers their sequences, in order.
 */
export async function eraseNaming(js: JetStreamClient, jsm: JetStreamManager, stream: string, subject: string, names: (message: JsMsg) => boolean, through?: number): Promise<number[]> {
  const last = through ?? (await lastMessageOn(jsm, stream, subject))?.seq ?? 0;
  if (last === 0) return [];
  const consumer = await js.consumers.get(stream, { filter_subjects: subject, deliver_policy: DeliverPolicy.All });
  const named: number[] = [];
  try {
    for (let reached = 0; reached < last; ) {
      let seen = 0;
      for await (const message of await consumer.fetch({ max_messages: FETCH_MESSAGES, expires: FETCH_EXPIRES_MS })) {
        seen++;
        reached = message.seq;
        if (message.seq <= last && names(message)) named.push(message.seq);
      }
      // Nothing more to read (the last message went meanwhile: the stream's age limit).
      if (seen === 0) break;
    }
  } finally {
    await consumer.delete().catch(() => undefined);
  }
  // In stream order: the last one (an erase command, when it is the subject's last) goes once the rest are erased.
  for (const seq of named) await jsm.streams.deleteMessage(stream, seq, true).catch(ignoreGone);
  return named;
}

/** A message already removed (by another owner's erasure, or the stream's limits) is not an error. */
function ignoreGone(error: unknown): boolean {
  if ((error as { code?: number }).code === 404 || /no message found/i.test((error as Error).message)) return false;
  throw error;
}
