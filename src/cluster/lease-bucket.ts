/**
 * Compare-and-set leases on the keys of a JetStream key-value bucket, for whatever one holder at
 * a time must do (a worker's partition, ./leases.ts; a gateway's webhook delivery,
 * ./webhook-delivery.ts). Taking is a create (only when the key is absent, deleted or expired),
 * renewing an update on the revision the holder last wrote, and releasing a delete on that
 * revision; the bucket's TTL removes a lease its holder stopped renewing.
 */
import type { KV } from '@nats-io/kv';

/**
 * What renewing a lease came to: its new revision; `lost` when the key is gone or someone else
 * wrote it since; undefined when NATS did not answer (still the holder's until it expires, which
 * the holder tells by the time of its last renewal).
 */
export type Renewal = number | 'lost' | undefined;

export class LeaseBucket {
  constructor(private readonly kv: KV) {}

  /** Takes the lease on `key` when nobody holds it, writing `value`: its revision, or undefined when it is held. */
  async take(key: string, value: string): Promise<number | undefined> {
    try {
      return await this.kv.create(key, value);
    } catch {
      return undefined;
    }
  }

  /** Renews the lease on `key` held at `revision`, writing `value`. */
  async renew(key: string, value: string, revision: number): Promise<Renewal> {
    try {
      return await this.kv.update(key, value, revision);
    } catch {
      try {
        const entry = await this.kv.get(key);
        return entry !== null && entry.operation === 'PUT' && entry.revision === revision ? undefined : 'lost';
      } catch {
        return undefined;
      }
    }
  }

  /** Gives the lease on `key` up (when still held at `revision`). */
  async release(key: string, revision: number): Promise<void> {
    await this.kv.delete(key, { previousSeq: revision }).catch(() => undefined);
  }
}
