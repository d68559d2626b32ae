/**
 * A `standing worker` (started by ../app/worker.ts): runs the scorers of the partitions it holds
 * a lease on. Two timers, each every third of a lease's length: one says it is alive (a key in
 * the workers bucket) and renews every lease it holds, a partition being handed over included
 * until it is released; the other evens the load: with W live workers each aims at ceil(P / W)
 * partitions, taking free ones when below and handing over the excess (checkpoint, then release)
 * when above. Renewing never waits for a hand-over or a take, so a slow checkpoint cannot let the
 * other leases lapse. A lease it cannot renew is dropped without another write; PostgreSQL's
 * epoch fence stops a worker that did not notice in time (./partition-runner.ts). A partition that
 * fails in its hands is released and not taken again by it before its backoff ends
 * (./backoff.ts); one left free for three lease lengths meanwhile is taken by a worker at its
 * share (./balance.ts).
 */
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import { StandingError } from '../errors.js';
import type { ServiceConfig } from '../service/config.js';
import type { PostgresStore } from '../store/postgres.js';
import { Leases } from './leases.js';
import { keysWithin, natsAway, type Buckets } from './nats.js';
import { fnv1a32 } from '../util/fnv1a.js';
import { afterFailure, type Backoff } from './backoff.js';
import { observeFree, planBalance } from './balance.js';
import type { PartitionAssembly } from './partition-assembly.js';
import { ConsumerLostError, PartitionRunner } from './partition-runner.js';
import type { StreamIdentity } from '../store/partitions.js';

/** How many lease lengths a partition stays free before a worker at its share takes it (./balance.ts). */
const ORPHAN_AFTER_LEASES = 3;

/** A partition this worker holds: the lease's revision and when it was last renewed, and its runner once started. */
interface Held {
  revision: number;
  renewed: number;
  runner: Promise<PartitionRunner | undefined>;
  /** The epoch its claim got (0 until claimed): written into the lease with each renewal, for the gateways (./lease-epochs.ts). */
  epoch: number;
  /** Being handed over: still renewed until released, no longer counted as running. */
  leaving: boolean;
  /** Taken beyond this worker's share, having been free too long (./balance.ts): handed over last. */
  readonly beyondShare: boolean;
  /** Renewals and the release of this lease, one at a time (each uses the revision the one before wrote). */
  lease: Promise<unknown>;
}

export interface RunningWorker {
  readonly id: string;
  readonly nats: NatsConnection;
  /** The partitions this worker runs, in order. */
  partitions(): number[];
  /** The runner of a partition it holds, once started. */
  runner(partition: number): Promise<PartitionRunner | undefined>;
  /** Hands every partition over (checkpoints, then releases) and disconnects. */
  close(): Promise<void>;
}

/** What a worker runs with, opened by its composition root (../app/worker.ts). */
export interface WorkerParts {
  /** The worker's name in leases. */
  readonly id: string;
  readonly config: ServiceConfig;
  readonly logger: Logger;
  /** The store, held shared while the worker runs. */
  readonly store: PostgresStore;
  readonly nats: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  /** The event stream, as ensureStream found it. */
  readonly stream: StreamIdentity;
  readonly buckets: Buckets;
  /** How each partition's engine and read side are made. */
  readonly assembly: PartitionAssembly;
  /** Closes the rest of what the worker was started with (history replays, the store and its hold) once NATS is drained, whether or not that worked. */
  readonly release: () => Promise<void>;
}

/** Runs a worker: says it is alive, takes its share of the partitions, then renews and evens the load on its timers. */
export async function runWorker(parts: WorkerParts): Promise<RunningWorker> {
  const worker = new Worker(parts);
  await worker.renewAll();
  await worker.rebalance();
  worker.start();
  return worker;
}

/** A partition's lease was lost while it started (not renewed in time, or taken over). */
class LeaseLostError extends StandingError {
  readonly code = 'LEASE_LOST' as const;
}

class Worker implements RunningWorker {
  private readonly held = new Map<number, Held>();
  /** Partitions that failed here, and when this worker may take each again. */
  private readonly backoffs = new Map<number, Backoff>();
  /** Since when the lease listings have shown each free partition free (./balance.ts). */
  private readonly freeSince = new Map<number, number>();
  private readonly leases: Leases;
  private readonly leaseMs: number;
  private renewTimer: NodeJS.Timeout | undefined;
  private rebalanceTimer: NodeJS.Timeout | undefined;
  private renewing: Promise<void> = Promise.resolve();
  private rebalancing: Promise<void> = Promise.resolve();
  private lastLive = 1;
  private closing: Promise<void> | undefined;

  readonly id: string;
  readonly nats: NatsConnection;
  private readonly config: ServiceConfig;
  private readonly logger: Logger;
  private readonly buckets: Buckets;

  constructor(private readonly parts: WorkerParts) {
    this.id = parts.id;
    this.nats = parts.nats;
    this.config = parts.config;
    this.logger = parts.logger;
    this.buckets = parts.buckets;
    this.leases = new Leases(parts.buckets.leases, parts.id);
    this.leaseMs = parts.config.cluster.leaseSeconds * 1000;
  }

  start(): void {
    const every = Math.max(100, Math.floor(this.leaseMs / 3));
    // Each timer runs one round at a time: a slow round delays its own next one, never the other timer's.
    this.renewTimer = setInterval(() => {
      this.renewing = this.renewing.then(() => this.renewAll()).catch((error: unknown) => this.logger.error({ err: error }, 'renewing leases failed'));
    }, every);
    this.rebalanceTimer = setInterval(() => {
      if (this.closing !== undefined) return;
      this.rebalancing = this.rebalancing.then(() => this.rebalance()).catch((error: unknown) => this.logger.error({ err: error }, 'evening the load failed'));
    }, every);
  }

  partitions(): number[] {
    return [...this.held].flatMap(([partition, held]) => (held.leaving ? [] : [partition])).sort((a, b) => a - b);
  }

  runner(partition: number): Promise<PartitionRunner | undefined> {
    return this.held.get(partition)?.runner ?? Promise.resolve(undefined);
  }

  /** Says the worker is alive and renews every lease it holds, those being handed over included, all at once. */
  async renewAll(): Promise<void> {
    await Promise.all([
      this.buckets.workers.put(this.id, JSON.stringify({ at: Date.now() })).catch(() => undefined),
      ...[...this.held].map(([partition, held]) => this.onLease(held, () => this.renew(partition, held))),
    ]);
  }

  /** Runs `work` on `held`'s lease once the renewal or release before it is done. */
  private onLease<T>(held: Held, work: () => Promise<T>): Promise<T> {
    const done = held.lease.then(work);
    held.lease = done.catch(() => undefined);
    return done;
  }

  private async renew(partition: number, held: Held): Promise<void> {
    if (this.held.get(partition) !== held) return; // released or dropped meanwhile
    const renewed = await this.leases.renew(partition, held.revision, held.epoch);
    if (typeof renewed === 'number') {
      held.revision = renewed;
      held.renewed = Date.now();
    } else if (renewed === 'lost' || Date.now() - held.renewed >= this.leaseMs) {
      this.logger.warn({ partition }, 'lease lost: partition dropped');
      this.drop(partition);
    }
  }

  /** Evens the load (./balance.ts): takes free partitions while below its share, hands over the excess while above. */
  async rebalance(): Promise<void> {
    if (this.closing !== undefined) return;
    const live = await this.liveWorkers();
    const partitions = this.config.cluster.partitions;
    // Without the listing, each partition is tried: taking a held one fails by itself.
    const held = await this.leases.heldPartitions().catch((error: unknown) => {
      this.logger.warn({ err: error }, 'leases not listed: below its share, the worker tries every partition');
      return undefined;
    });
    const now = Date.now();
    if (held !== undefined) observeFree(this.freeSince, held, partitions, now);
    const plan = planBalance({
      partitions,
      liveWorkers: live,
      start: fnv1a32(this.id) % partitions,
      running: this.partitions(),
      beyondShare: new Set([...this.held].flatMap(([p, h]) => (h.beyondShare ? [p] : []))),
      holds: new Set(this.held.keys()),
      held,
      freeSince: this.freeSince,
      backoffUntil: new Map([...this.backoffs].map(([p, b]) => [p, b.until])),
      now,
      orphanAfterMs: ORPHAN_AFTER_LEASES * this.leaseMs,
    });
    if (plan.handOver.length > 0) {
      await Promise.all(plan.handOver.map((p) => this.handOver(p)));
      return;
    }
    let wanted = plan.wanted;
    for (const partition of plan.candidates) {
      if (wanted <= 0) break;
      if (await this.take(partition, false)) wanted--;
    }
    if (wanted <= 0 && plan.orphan !== undefined && !this.held.has(plan.orphan) && (await this.take(plan.orphan, true))) {
      this.logger.info({ partition: plan.orphan, freeForMs: now - (this.freeSince.get(plan.orphan) ?? now) }, 'partition free for too long: taken beyond this worker\'s share');
    }
  }

  /**
   * The live workers, or the number last read when the bucket cannot be listed (listing makes a
   * consumer, which can time out for a while after a NATS server is lost, or not end: it is given
   * up after a lease's length): the load is still evened.
   */
  private async liveWorkers(): Promise<number> {
    try {
      this.lastLive = (await keysWithin(this.buckets.workers, Math.max(1000, this.leaseMs))).filter((name) => name !== '').length;
    } catch (error) {
      this.logger.warn({ err: error, live: this.lastLive }, 'live workers not listed: the last count is used');
    }
    return this.lastLive;
  }

  /** Takes `partition`'s lease when free and starts it; whether the lease was taken. */
  private async take(partition: number, beyondShare: boolean): Promise<boolean> {
    const revision = await this.leases.take(partition);
    if (revision === undefined) return false;
    const entry: Held = { revision, renewed: Date.now(), epoch: 0, runner: Promise.resolve(undefined), leaving: false, beyondShare, lease: Promise.resolve() };
    this.held.set(partition, entry);
    entry.runner = PartitionRunner.start({
      config: this.config,
      store: this.parts.store,
      js: this.parts.js,
      jsm: this.parts.jsm,
      nats: this.nats,
      stream: this.parts.stream,
      partition,
      logger: this.logger,
      assembly: this.parts.assembly,
      // The claim's epoch goes into the lease before the partition answers reads: gateways pass over an older owner's answers.
      onClaimed: async (claim) => {
        entry.epoch = claim.epoch;
        await this.onLease(entry, () => this.renew(partition, entry));
        if (this.held.get(partition) !== entry) throw new LeaseLostError(`the lease on partition ${partition} was lost before the partition started`);
      },
      onFailure: (error) => {
        if (this.held.get(partition) === entry) void this.releaseAfterFailure(partition, entry, error, 'partition stopped');
      },
    }).then(
      (runner) => {
        this.logger.info({ partition, epoch: runner.claim.epoch, from: runner.claim.streamSequence + 1 }, 'partition taken');
        return runner;
      },
      (error: unknown) => {
        if (this.held.get(partition) === entry) void this.releaseAfterFailure(partition, entry, error, 'partition could not be started');
        return undefined;
      },
    );
    return true;
  }

  /** Drops a partition whose lease is lost: no more writes, no release. */
  private drop(partition: number): void {
    const held = this.held.get(partition);
    if (held === undefined) return;
    this.held.delete(partition);
    void held.runner.then((runner) => runner?.stop(false)).catch(() => undefined);
  }

  /** Releases a partition that failed here; this worker takes it again only after its backoff. */
  private async releaseAfterFailure(partition: number, held: Held, error: unknown, what: string): Promise<void> {
    const away = natsAway(error) || error instanceof ConsumerLostError || error instanceof LeaseLostError;
    const now = Date.now();
    const backoff = afterFailure(this.backoffs.get(partition), now, away);
    this.backoffs.set(partition, backoff);
    this.logger.error({ err: error, partition, failures: backoff.failures, natsAway: away, retryInMs: backoff.until - now }, `${what}: handed back, not taken again here for ${backoff.until - now} ms`);
    held.leaving = true;
    await (await held.runner)?.stop(false).catch(() => undefined);
    await this.release(partition, held);
  }

  /** Releases `held`'s lease (renewed until then) and forgets it. */
  private release(partition: number, held: Held): Promise<void> {
    return this.onLease(held, async () => {
      if (this.held.get(partition) !== held) return; // dropped meanwhile: the lease is not ours
      this.held.delete(partition);
      await this.leases.release(partition, held.revision);
    });
  }

  /** Checkpoints a partition and releases its lease, for another worker to take; the lease is renewed until then. */
  private async handOver(partition: number): Promise<void> {
    const held = this.held.get(partition);
    if (held === undefined || held.leaving) return;
    held.leaving = true;
    try {
      await (await held.runner)?.stop(true);
    } catch (error) {
      this.logger.warn({ err: error, partition }, 'checkpoint on hand-over failed (the next owner replays more)');
    }
    await this.release(partition, held);
    this.logger.info({ partition }, 'partition handed over');
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.rebalanceTimer !== undefined) clearInterval(this.rebalanceTimer);
      await this.rebalancing;
      // The renewal timer goes on while the partitions are checkpointed: each lease is kept until released.
      await Promise.all(this.partitions().map((p) => this.handOver(p)));
      if (this.renewTimer !== undefined) clearInterval(this.renewTimer);
      await this.renewing;
      try {
        await this.buckets.workers.delete(this.id).catch(() => undefined);
        await this.nats.drain();
      } finally {
        // Closed whatever NATS did: a failed drain must not leave the pool's connections open.
        await this.parts.release();
      }
    })();
    return this.closing;
  }
}
