/**
 * A gateway's ear for the outcomes of its batches (./ingest-protocol.ts): one subscription on its
 * own outcome subject, and a waiter per published batch, registered before the batch is
 * published, resolved when every partition's part has reported or when the wait is over. An
 * outcome nobody waits for (the batch's request gave up, or another gateway's) is dropped. What
 * is held is bounded by the batches being answered, which the connection limits bound.
 */
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { randomUUID } from 'node:crypto';
import { outcomeSubject, type OutcomeMessage } from './ingest-protocol.js';
import type { ClusterConfig } from './nats.js';

interface Waiter {
  readonly outcomes: Map<number, OutcomeMessage>;
  readonly expected: number;
  done(): void;
}

export class ApplyOutcomes {
  private readonly waiters = new Map<string, Waiter>();
  private readonly subscription: Subscription;
  /** The subject this gateway's batches name for their outcomes. */
  readonly subject: string;

  constructor(nats: NatsConnection, config: Pick<ClusterConfig, 'stream'>, gateway: string = randomUUID()) {
    this.subject = outcomeSubject(config, gateway);
    this.subscription = nats.subscribe(this.subject, {
      callback: (error, message) => {
        if (error !== null) return;
        let outcome: OutcomeMessage;
        try {
          outcome = message.json<OutcomeMessage>();
        } catch {
          return;
        }
        const waiter = this.waiters.get(outcome.batch);
        if (waiter === undefined || waiter.outcomes.has(outcome.partition)) return; // a late or repeated report
        waiter.outcomes.set(outcome.partition, outcome);
        if (waiter.outcomes.size === waiter.expected) waiter.done();
      },
    });
  }

  /**
   * Starts waiting for `batch`'s parts on `partitions`; `settled(ms)` resolves with what arrived
   * once all have or `ms` have passed (a part missing from the map did not report in time).
   */
  expect(batch: string, partitions: readonly number[]): { settled(ms: number): Promise<ReadonlyMap<number, OutcomeMessage>>; cancel(): void } {
    let release: () => void = () => undefined;
    const all = new Promise<void>((resolve) => (release = resolve));
    const waiter: Waiter = { outcomes: new Map(), expected: new Set(partitions).size, done: () => release() };
    this.waiters.set(batch, waiter);
    const cancel = () => {
      this.waiters.delete(batch);
      release();
    };
    return {
      async settled(ms) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
        clearTimeout(timer);
        cancel();
        return waiter.outcomes;
      },
      cancel,
    };
  }

  stop(): void {
    this.subscription.unsubscribe();
    for (const waiter of this.waiters.values()) waiter.done();
    this.waiters.clear();
  }
}
