/**
 * Asking a partition's owner over NATS request–reply, as a gateway does for a forwarded read
 * (./gateway-reads.ts) and for the check of a batch's part (./gateway-checks.ts): every reply
 * carries the lease epoch of the worker that made it, and the first one carrying the partition's
 * current epoch or a newer one is taken; a stale owner's replies are passed over
 * (./lease-epochs.ts). What else can come of it is told apart: no worker listening, only stale
 * owners, no reply in time, or a failure of NATS itself.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import type { LeaseEpochs } from './lease-epochs.js';

export type OwnerReply<T> =
  | { readonly kind: 'answer'; readonly answer: T }
  /** Nobody listens on the subject (a hand-over, or no worker runs). */
  | { readonly kind: 'none' }
  /** Only replies older than the partition's current epoch came. */
  | { readonly kind: 'stale'; readonly epoch: number }
  /** No reply within the wait. */
  | { readonly kind: 'late' }
  | { readonly kind: 'failed'; readonly message: string };

/** No one listens: NoRespondersError from a request, and from requestMany an error whose message says so ("no responders: '<subject>'"). */
const isNoResponders = (error: unknown) =>
  (error as { isNoResponders?: () => boolean }).isNoResponders?.() === true || (error as Error).name === 'NoResponders' || /^no responders\b/i.test((error as Error).message);
const isTimeout = (error: unknown) => (error as Error).name === 'TimeoutError' || (error as { cause?: { name?: string } }).cause?.name === 'TimeoutError';

/** The current owner's reply to `payload` on `subject`, waiting `maxWaitMs` at most. */
export async function askOwner<T extends { readonly epoch: number }>(
  nats: NatsConnection,
  epochs: LeaseEpochs,
  partition: number,
  subject: string,
  payload: string,
  maxWaitMs: number,
): Promise<OwnerReply<T>> {
  try {
    let stale: number | undefined;
    for await (const reply of await nats.requestMany(subject, payload, { strategy: 'timer', maxWait: maxWaitMs })) {
      const answer = reply.json<T>();
      if (epochs.accepts(partition, answer.epoch)) return { kind: 'answer', answer }; // leaving the loop ends the request
      stale = answer.epoch;
    }
    return stale === undefined ? { kind: 'late' } : { kind: 'stale', epoch: stale };
  } catch (error) {
    if (isNoResponders(error)) return { kind: 'none' };
    if (isTimeout(error)) return { kind: 'late' };
    return { kind: 'failed', message: (error as Error).message };
  }
}
