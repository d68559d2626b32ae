/**
 * What a gateway knows of each partition's lease epoch, to tell the current owner's read answers
 * from a stale owner's (a worker whose lease was taken over and has not noticed yet, or any other
 * responder left on the partition's read subject). The lease bucket is watched: a worker writes
 * its claim's epoch into its lease as soon as PostgreSQL gives it, before it answers any read, and
 * again with every renewal (./leases.ts, ./worker.ts); the epoch the bucket last named is the
 * current one, and an answer carrying a newer epoch (an owner whose lease the watch has not shown
 * yet) raises it. An answer carrying an older epoch is not taken (./gateway-reads.ts). Before the
 * bucket names a partition's epoch, every answer is taken.
 */
import { KvWatchInclude, type KV } from '@nats-io/kv';
import type { Logger } from 'pino';
import type { LeaseValue } from './leases.js';

/** How long the watch waits before it is made again, after it ended or failed (ms). */
const REWATCH_MS = 1_000;

export class LeaseEpochs {
  private readonly known = new Map<number, number>();
  private watcher: { stop(): void } | undefined;
  private stopped = false;
  private following: Promise<void> = Promise.resolve();
  /** Ends the wait before watching again (stop). */
  private wake: (() => void) | undefined;

  private constructor(
    private readonly leases: KV,
    private readonly logger: Logger,
  ) {}

  /** Starts watching `leases` (the bucket of ./nats.ts openBuckets). */
  static start(leases: KV, logger: Logger): LeaseEpochs {
    const epochs = new LeaseEpochs(leases, logger);
    epochs.following = epochs.follow();
    return epochs;
  }

  /** The epoch of `partition`'s current lease as far as this gateway knows (0: none known yet). */
  current(partition: number): number {
    return this.known.get(partition) ?? 0;
  }

  /**
   * Whether an answer carrying `epoch` comes from `partition`'s current owner: not older than the
   * epoch known. A newer epoch becomes the one known.
   */
  accepts(partition: number, epoch: unknown): boolean {
    const answered = typeof epoch === 'number' && Number.isSafeInteger(epoch) ? epoch : 0;
    const current = this.current(partition);
    if (answered < current) return false;
    if (answered > current) this.known.set(partition, answered);
    return true;
  }

  /** Stops watching. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.watcher?.stop();
    this.wake?.();
    await this.following;
  }

  /** Follows the bucket for as long as the gateway runs, watching again after a failure. */
  private async follow(): Promise<void> {
    while (!this.stopped) {
      try {
        const watcher = await this.leases.watch({ include: KvWatchInclude.LastValue, ignoreDeletes: true });
        this.watcher = watcher;
        if (this.stopped) watcher.stop();
        for await (const entry of watcher) {
          if (entry.operation !== 'PUT' || !/^p\d+$/.test(entry.key)) continue;
          const { epoch } = JSON.parse(entry.string()) as Partial<LeaseValue>;
          // 0 is a lease taken and not claimed yet: the epoch known stays until the claim's is written.
          if (typeof epoch === 'number' && Number.isSafeInteger(epoch) && epoch > 0) this.known.set(Number(entry.key.slice(1)), epoch);
        }
      } catch (error) {
        if (!this.stopped) this.logger.warn({ err: error }, 'watching the lease bucket failed: watched again (meanwhile the epochs last known are used)');
      }
      if (this.stopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, REWATCH_MS);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }
}
