/**
 * One partition a worker owns: claimed in PostgreSQL (a new epoch, fencing every earlier
 * holder), its communities restored by a LiveEngine over the partition's view of the store
 * (checkpoints and the stored log after them, as `standing serve` restores on start), then the
 * stream consumed in order from the first message the stored events do not include. Messages go
 * through the same ingest as single-node batches: duplicates by id dropped, domain actions
 * resolved, stored (with the stream sequence reached, fenced) and applied. The messages waiting
 * when the runner is ready for more (./waiting-groups.ts) go in one ingest, one append, recording
 * the last one's sequence: the events of a run of messages in stream order are the events of
 * each message in turn, so the stored log and the states are the same as one message at a time.
 * When a quality domain refuses the group, its messages go again one at a time, so only the
 * message it refuses is skipped. Erase commands (./erase.ts) are applied alone, in order. Its
 * reads and alerts are served meanwhile (./partition-services.ts).
 */
import { DeliverPolicy, type ConsumerMessages, type JetStreamClient, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import { BatchRejectedError } from '../errors.js';
import { BUILTIN_DOMAINS } from '../quality/index.js';
import type { ServiceConfig } from '../service/config.js';
import { LiveEngine } from '../service/live-engine.js';
import { configuredInstances } from '../service/service.js';
import type { PartitionClaim, PartitionWrites, StreamIdentity } from '../store/partitions.js';
import type { EventStore } from '../store/types.js';
import { erasedPlayer, isCommand, purgeThrough } from './erase.js';
import { partitionSubject } from './nats.js';
import { PartitionServices } from './partition-services.js';
import type { HistoryJobs } from '../service/history-jobs.js';
import { partitionStore } from './partition-store.js';
import { waitingGroups } from './waiting-groups.js';
import { opensAppeal } from '../moderation/appeal-openings.js';

/** Most messages, and most bytes of them, applied in one ingest. */
export const GROUP_MESSAGES = 256;
export const GROUP_BYTES = 4 * 1024 * 1024;

/** How long each pull of the consumer lasts (ms); the server sends a heartbeat every half of it while idle. */
export const CONSUME_EXPIRES_MS = 10_000;

/**
 * The bytes the consumer asks JetStream for ahead of the runner: a group's worth, and never less
 * than one message of the servers' largest (a pull must fit a whole message, with its subject and
 * headers, or the server sends nothing). With the group being applied and the next one read ahead
 * (./waiting-groups.ts), a partition holds about three times this in memory at most.
 */
export function consumeBytes(maxPayload: number): number {
  return Math.max(GROUP_BYTES, maxPayload + 64 * 1024);
}

export interface RunnerOptions {
  readonly config: ServiceConfig;
  readonly store: EventStore & PartitionWrites;
  readonly js: JetStreamClient;
  /** Purges what an erasure removed from the stream. */
  readonly jsm: JetStreamManager;
  /** Where the partition's reads are answered (./partition-services.ts). */
  readonly nats: NatsConnection;
  /** The event stream, as ensureStream found it (its identity is checked by the claim). */
  readonly stream: StreamIdentity;
  readonly partition: number;
  readonly logger: Logger;
  /** Told when the runner stops by itself (its fence was passed, or the store failed). */
  readonly onFailure: (error: unknown) => void;
  /** The worker's history replays, shared by its partitions. */
  readonly history: HistoryJobs;
}

export class PartitionRunner {
  /** The stream sequence of the message being applied (the last applied, between messages). */
  private current = 0;
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;
  private services: PartitionServices | undefined;
  /** Groups of messages and writing requests, one at a time (./partition-services.ts). */
  private turn: Promise<unknown> = Promise.resolve();
  private stopped = false;
  /** The stall watch (checkStall): its timer, and the checks in a row that saw no progress. */
  private stallTimer: NodeJS.Timeout | undefined;
  private stalledChecks = 0;
  private checkedAt = 0;

  private constructor(
    private readonly options: RunnerOptions,
    readonly claim: PartitionClaim,
    readonly live: LiveEngine,
  ) {
    this.current = claim.streamSequence;
  }

  /** Claims the partition, restores its communities and starts consuming. */
  static async start(options: RunnerOptions): Promise<PartitionRunner> {
    const { config, store, partition } = options;
    const claim = await store.claimPartition(options.stream, partition);
    let runner: PartitionRunner | undefined;
    const view = partitionStore(store, { stream: claim.stream, partition, epoch: claim.epoch, partitions: config.cluster.partitions, streamSequence: () => runner!.current });
    const live = await LiveEngine.open({
      store: view,
      instances: configuredInstances(config),
      quality: { domains: BUILTIN_DOMAINS, options: config.quality },
      checkpointEvery: config.checkpointEvery,
      checkpointSeconds: config.checkpointSeconds,
      // The gateway checked the batch's size and the events' dates when it took them.
      maxBatchEvents: Number.MAX_SAFE_INTEGER,
      maxClockSkewSeconds: null,
      maxEventDepth: config.maxEventDepth,
      onCheckpointError: (error) => options.logger.warn({ partition, community: error.community, state: error.state, reason: error.reason }, 'checkpoint unreadable, community replayed from its log'),
      onSkipped: (community, sequence, error) => options.logger.warn({ partition, community, sequence, reason: (error as Error).message }, 'stored event refused on replay, skipped'),
    });
    runner = new PartitionRunner(options, claim, live);
    // Alerts its predecessor did not raise or publish first, then reads, then the stream.
    runner.services = await PartitionServices.start({
      config,
      store: view,
      live,
      nats: options.nats,
      js: options.js,
      jsm: options.jsm,
      partition,
      logger: options.logger,
      streamSequence: () => runner!.current,
      betweenMessages: (write) => runner!.exclusive(write),
      history: options.history,
    });
    const consumer = await options.js.consumers.get(config.cluster.stream, {
      filter_subjects: partitionSubject(config.cluster, partition),
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: claim.streamSequence + 1,
    });
    runner.messages = await consumer.consume({ max_bytes: consumeBytes(options.nats.info?.max_payload ?? 0), expires: CONSUME_EXPIRES_MS });
    runner.loop = runner.run(runner.messages);
    void runner.watch(runner.messages);
    runner.checkedAt = runner.current;
    runner.stallTimer = setInterval(() => void runner!.checkStall(), CONSUME_EXPIRES_MS);
    return runner;
  }

  get partition(): number {
    return this.options.partition;
  }

  /** The stream sequence of the last message applied. */
  get streamSequence(): number {
    return this.current;
  }

  /** Runs `work` once the group or write before it is done. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const done = this.turn.then(work);
    this.turn = done.catch(() => undefined);
    return done;
  }

  /**
   * Logs what the consumer reports of itself, at debug level; and fails the runner when the
   * consumer has missed two heartbeats in a row (its server was lost and it is not coming back):
   * the partition is handed back and taken again with a new consumer from the stored sequence,
   * rather than held while nothing arrives.
   */
  private async watch(messages: ConsumerMessages): Promise<void> {
    try {
      for await (const status of messages.status()) {
        this.options.logger.debug({ partition: this.partition, status }, 'stream consumer');
        if (status.type === 'heartbeats_missed' && status.count >= 2 && !this.stopped) {
          messages.stop(new Error(`the stream consumer of partition ${this.partition} missed ${status.count} heartbeats`));
          return;
        }
      }
    } catch {
      // The consumer is gone: run() reports it.
    }
  }

  /**
   * The stall watch: every CONSUME_EXPIRES_MS, when the partition's subject holds a message past
   * the last one applied and nothing was applied since the check before, twice in a row, the
   * consumer is taken for stuck (its server was lost and it neither delivers nor reports missed
   * heartbeats): the runner fails, and the partition is handed back and taken again with a new
   * consumer from the stored sequence. A check NATS does not answer says nothing.
   */
  private async checkStall(): Promise<void> {
    if (this.stopped) return;
    const { jsm, config, partition } = this.options;
    let last: number;
    try {
      last = (await jsm.streams.getMessage(config.cluster.stream, { last_by_subj: partitionSubject(config.cluster, partition) }))?.seq ?? 0;
    } catch {
      return;
    }
    const progressed = this.current !== this.checkedAt;
    this.checkedAt = this.current;
    this.stalledChecks = !progressed && last > this.current ? this.stalledChecks + 1 : 0;
    if (this.stalledChecks >= 2 && !this.stopped) {
      this.options.logger.warn({ partition, applied: this.current, last }, 'stream consumer stalled: partition handed back');
      this.messages?.stop(new Error(`the stream consumer of partition ${partition} delivered nothing past sequence ${this.current} while the stream holds ${last}`));
    }
  }

  private async run(messages: ConsumerMessages): Promise<void> {
    try {
      for await (const group of waitingGroups(messages, { most: GROUP_MESSAGES, maxWeight: GROUP_BYTES, weight: (m) => m.data.length })) {
        if (this.stopped) break;
        await this.exclusive(async () => {
          let run: JsMsg[] = [];
          for (const message of group) {
            if (!isCommand(message)) {
              run.push(message);
              continue;
            }
            await this.applyEvents(run);
            run = [];
            await this.applyCommand(message);
          }
          await this.applyEvents(run);
        });
      }
      // The consumer gave up by itself (it could not be made again after a NATS server was lost):
      // a failure, so the partition is handed back and taken again, rather than held and idle.
      if (!this.stopped) throw new Error(`the stream consumer of partition ${this.options.partition} ended`);
    } catch (error) {
      clearInterval(this.stallTimer);
      if (this.stopped) return;
      this.stopped = true;
      messages.stop();
      this.options.onFailure(error);
    }
  }

  /** Applies consecutive event messages in one ingest, or one at a time when that one is refused. */
  private async applyEvents(messages: readonly JsMsg[]): Promise<void> {
    if (messages.length === 0) return;
    const decoded = messages.map((message) => ({ seq: message.seq, events: decode(message) }));
    // A message opening an appeal is checked against the book before it is applied: alone.
    if (decoded.length > 1 && decoded.every((d) => d.events !== undefined && !d.events.some(opensAppeal))) {
      this.current = decoded[decoded.length - 1]!.seq;
      try {
        await this.live.ingest(decoded.flatMap((d) => d.events!));
        return;
      } catch (error) {
        if (!(error instanceof BatchRejectedError)) throw error;
        // Nothing of the group is stored: each message again, alone.
      }
    }
    for (const { seq, events } of decoded) await this.applyOne(seq, events);
  }

  private async applyOne(seq: number, events: unknown[] | undefined): Promise<void> {
    const { logger, partition } = this.options;
    this.current = seq;
    if (events !== undefined) {
      try {
        const appeals = events.some(opensAppeal) ? await this.services!.secondAppeals(events) : [];
        if (appeals.length > 0) throw new BatchRejectedError(appeals);
        await this.live.ingest(events);
        return;
      } catch (error) {
        if (!(error instanceof BatchRejectedError)) throw error;
        // A domain refused an action of this community's part of a batch, or it opens a second
        // appeal on one sanction (the gateway sees neither domain states nor the book): the part
        // is refused whole, as a single-node batch would be.
        logger.warn({ partition, streamSequence: seq, problems: error.problems }, 'message refused (a quality domain or a second open appeal), skipped');
      }
    } else {
      logger.warn({ partition, streamSequence: seq }, 'message is not a JSON array of events, skipped');
    }
    // The refusal is recorded so no later owner applies it.
    await this.record(seq);
  }

  /** An erase command: erase in PostgreSQL, purge the stream through it, then record it (./erase.ts). */
  private async applyCommand(message: JsMsg): Promise<void> {
    const { logger, partition, config, jsm } = this.options;
    this.current = message.seq;
    let player: string | undefined;
    try {
      player = erasedPlayer(message);
    } catch {
      player = undefined;
    }
    if (player === undefined) {
      logger.warn({ partition, streamSequence: message.seq, command: message.headers?.get('Standing-Command') }, 'unknown command, skipped');
    } else {
      const outcome = await this.live.erase(player);
      this.services?.forget(player, outcome.communities);
      await purgeThrough(jsm, config.cluster, partition, message.seq);
      logger.info({ partition, streamSequence: message.seq, communities: outcome.communities, removed: outcome.removed, rewritten: outcome.rewritten }, 'player erased');
    }
    await this.record(message.seq);
  }

  /** Records that the partition's stored events include stream sequence `seq` (fenced). */
  private record(seq: number): Promise<unknown> {
    return this.options.store.appendFenced([], this.claim, seq);
  }

  /**
   * Stops consuming after the message being applied. Graceful: checkpoints every community with
   * events since its last checkpoint (the next owner restores from there). Not graceful (the
   * lease was lost): writes nothing more.
   */
  async stop(graceful: boolean): Promise<void> {
    this.stopped = true;
    clearInterval(this.stallTimer);
    this.messages?.stop();
    await this.loop;
    await this.services?.stop(graceful);
    if (graceful) await this.live.close();
  }
}

/** A message's events, or undefined when its body is not a JSON array. */
function decode(message: JsMsg): unknown[] | undefined {
  try {
    const events = message.json<unknown>();
    return Array.isArray(events) ? events : undefined;
  } catch {
    return undefined;
  }
}
