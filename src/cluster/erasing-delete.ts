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
/** How long one fetch waits for messages (ms). */
const FETCH_EXPIRES_MS = 2000;
/** Empty fetches in a row, with messages still pending, before a read is given up. */
const EMPTY_FETCHES = 5;

/** The last message on `subject` (a literal subject, or one with wildcards), or null when it holds none. */
export async function lastMessageOn(jsm: JetStreamManager, stream: string, subject: string): Promise<StoredMsg | null> {
  return jsm.streams.getMessage(stream, { last_by_subj: subject }).catch((error: unknown) => {
    if (isGone(error)) return null;
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
    for (let reached = 0, empty = 0; reached < last; ) {
      let seen = 0;
      for await (const message of await consumer.fetch({ max_messages: FETCH_MESSAGES, expires: FETCH_EXPIRES_MS })) {
        seen++;
        reached = message.seq;
        if (message.seq <= last && names(message)) named.push(message.seq);
      }
      if (seen > 0) {
        empty = 0;
        continue;
      }
      // An empty fetch: the end (what was left went meanwhile, by the stream's age limit), or a
      // pause of the JetStream API while messages are still pending, which must not end the read
      // before them: asked again, a few times, then given up (the erasure fails, and is applied again).
      if ((await consumer.info()).num_pending === 0) break;
      if (++empty >= EMPTY_FETCHES) throw new Error(`reading ${subject} for an erasure stopped at stream sequence ${reached} of ${last}: the messages after it did not arrive in ${EMPTY_FETCHES} fetches`);
    }
  } finally {
    await consumer.delete().catch(() => undefined);
  }
  // In stream order: the last one (an erase command, when it is the subject's last) goes once the rest are erased.
  for (const seq of named) await jsm.streams.deleteMessage(stream, seq, true).catch(ignoreGone);
  return named;
}

/** JetStream's answer for a message that is not there. */
function isGone(error: unknown): boolean {
  return (error as { code?: number }).code === 404 || /no message found/i.test((error as Error).message);
}

/** A message already removed (by another owner's erasure, or the stream's limits) is not an error. */
function ignoreGone(error: unknown): boolean {
  if (isGone(error)) return false;
  throw error;
}
