/**
 * Partition leases in a JetStream key-value bucket: key `p<N>` per partition, its value naming the
 * worker and the epoch its claim got, taken, renewed and released by compare-and-set
 * (./lease-bucket.ts), and listed. The epoch itself comes from PostgreSQL (a claim raises it),
 * where it fences writes.
 */
import type { KV } from '@nats-io/kv';
import { LeaseBucket, type Renewal } from './lease-bucket.js';
import { keysWithin } from './nats.js';

/** How long listing the leases may take before it is given up (ms). */
const LIST_WITHIN_MS = 5_000;

export interface LeaseValue {
  readonly worker: string;
  /** 0 between the take and the claim in PostgreSQL. */
  readonly epoch: number;
}

const key = (partition: number) => `p${partition}`;
const encode = (value: LeaseValue) => JSON.stringify(value);

export class Leases {
  private readonly bucket: LeaseBucket;

  constructor(
    private readonly kv: KV,
    private readonly worker: string,
  ) {
    this.bucket = new LeaseBucket(kv);
  }

  /** Takes the lease when nobody holds it: its revision, or undefined when it is held. */
  take(partition: number): Promise<number | undefined> {
    return this.bucket.take(key(partition), encode({ worker: this.worker, epoch: 0 }));
  }

  /**
   * Renews the lease held at `revision`: the new revision; `lost` when another worker holds it
   * now (or nobody does); undefined when NATS did not answer (still ours until it expires).
   */
  renew(partition: number, revision: number, epoch: number): Promise<Renewal> {
    return this.bucket.renew(key(partition), encode({ worker: this.worker, epoch }), revision);
  }

  /** Gives the lease up (when still held at `revision`). */
  release(partition: number, revision: number): Promise<void> {
    return this.bucket.release(key(partition), revision);
  }

  /** The partitions with a live lease, from the keys alone (an error when NATS does not list them within 5 s). */
  async heldPartitions(): Promise<Set<number>> {
    return new Set((await keysWithin(this.kv, LIST_WITHIN_MS)).filter((name) => /^p\d+$/.test(name)).map((name) => Number(name.slice(1))));
  }

  /** The partitions with a live lease, and their holders (an error when NATS does not list them within 5 s). */
  async held(): Promise<Map<number, LeaseValue>> {
    const held = new Map<number, LeaseValue>();
    for (const name of await keysWithin(this.kv, LIST_WITHIN_MS)) {
      const entry = await this.kv.get(name);
      if (entry === null || entry.operation !== 'PUT') continue;
      held.set(Number(name.slice(1)), JSON.parse(entry.string()) as LeaseValue);
    }
    return held;
  }
}
