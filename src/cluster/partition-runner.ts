/**
 * One partition a worker owns: claimed in PostgreSQL (a new epoch, fencing every earlier
 * holder), its communities restored by a LiveEngine over the partition's view of the store
 * (checkpoints and the stored log after them, as `standing serve` restores on start), then the
 * stream consumed in order from the first message the stored events do not include. Each message
 * (one partition's part of a gateway's batch) is applied as `standing serve` applies a batch:
 * duplicates by id dropped, domain actions resolved, appeals against a sanction their player does
 * not have and second open appeals refused, stored (with the
 * stream sequence reached, fenced) and applied — or refused whole and recorded as a refusal
 * (../store/refusals.ts) — and its outcome reported to the gateway waiting for it
 * (./ingest-protocol.ts). The messages waiting when the runner is ready for more
 * (./waiting-groups.ts) go in one group commit, each its own batch, recording the last one's
 * sequence: the stored log and the states are those of one message at a time. Gateways' checks
 * of batches over several partitions are answered between two groups. Erase commands
 * (./erase.ts) are applied alone, in order. Its reads and alerts are served meanwhile
 * (./partition-services.ts).
 */
import { DeliverPolicy, type ConsumerMessages, type JetStreamClient, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import { ApplyFailedError, BatchRejectedError, StandingError, type BatchProblem } from '../errors.js';
import { DEFAULT_COMMUNITY } from '../events/types.js';
import type { ServiceConfig } from '../service/config.js';
import { LiveEngine } from '../service/live-engine.js';
import { partitionOf, StreamBehindError, type PartitionClaim, type PartitionWrites, type StreamIdentity } from '../store/partitions.js';
import type { EventStore } from '../store/types.js';
import { erasedPlayer, eraseFromLog, isCommand } from './erase.js';
import { partitionSubject } from './nats.js';
import type { PartitionAssembly } from './partition-assembly.js';
import { PartitionServices } from './partition-services.js';
import { partitionStore } from './partition-store.js';
import { waitingGroups } from './waiting-groups.js';
import { opensAppeal } from '../moderation/appeal-openings.js';
import { playersNamed, type NewRefusal } from '../store/refusals.js';
import { BATCH_HEADER, checkSubject, OUTCOME_HEADER, type CheckAnswer, type CheckRequest, type OutcomeMessage, type PartOutcome } from './ingest-protocol.js';

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
  /**
   * Told of the claim as soon as PostgreSQL gives it, before the partition answers reads (the
   * worker writes its epoch into the lease); when it throws, the start fails.
   */
  readonly onClaimed?: (claim: PartitionClaim) => Promise<void>;
  /** Told when the runner stops by itself (its fence was passed, or the store failed). */
  readonly onFailure: (error: unknown) => void;
  /** How the partition's engine and read side are made (./partition-assembly.ts). */
  readonly assembly: PartitionAssembly;
}

/** The partition's stream consumer stopped delivering (its server lost): NATS failed, not the partition (./backoff.ts). */
export class ConsumerLostError extends StandingError {
  readonly code = 'CONSUMER_LOST' as const;
}

export class PartitionRunner {
  /** The stream sequence of the message being applied (the last applied, between messages). */
  private current = 0;
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;
  private services: PartitionServices | undefined;
  /** The subscription answering gateways' checks of batches (./gateway-checks.ts). */
  private checks: Subscription | undefined;
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

  /**
   * Claims the partition, restores its communities and starts consuming. All or nothing: when a
   * step fails (the consumer cannot be made while the JetStream API pauses, say), what the steps
   * before it started is stopped without writing (the read subscription, the alert monitor, the
   * app, the history jobs, the subscription answering checks, the consumer; the engine is dropped
   * unsaved), so no stale responder stays behind.
   */
  static async start(options: RunnerOptions): Promise<PartitionRunner> {
    const { config, store, partition } = options;
    const claim = await store.claimPartition(options.stream, partition);
    // Before anything is acquired: a stream behind the stored sequence is not consumed at all.
    const last = (await options.jsm.streams.info(config.cluster.stream)).state.last_seq;
    if (last < claim.streamSequence) throw new StreamBehindError(config.cluster.stream, partition, claim.streamSequence, last);
    await options.onClaimed?.(claim);
    let runner: PartitionRunner | undefined;
    const view = partitionStore(store, { stream: claim.stream, partition, epoch: claim.epoch, partitions: config.cluster.partitions, streamSequence: () => runner!.current });
    const live = await LiveEngine.open(options.assembly.engineOptions(view, partition));
    runner = new PartitionRunner(options, claim, live);
    try {
      // Alerts its predecessor did not raise or publish first, then reads, then the stream.
      runner.services = await PartitionServices.start({
        config,
        store: view,
        live,
        nats: options.nats,
        js: options.js,
        jsm: options.jsm,
        partition,
        epoch: claim.epoch,
        logger: options.logger,
        streamSequence: () => runner!.current,
        betweenMessages: (write) => runner!.exclusive(write),
        assembly: options.assembly,
      });
      // What the rules decided on the log's tail and a crash kept from being stored, at the claimed stream sequence.
      await live.settleRules();
      runner.checks = options.nats.subscribe(checkSubject(config.cluster, partition), { callback: (error, message) => void (error === null && runner!.check(message)) });
      const consumer = await options.js.consumers.get(config.cluster.stream, {
        filter_subjects: partitionSubject(config.cluster, partition),
        deliver_policy: DeliverPolicy.StartSequence,
        opt_start_seq: claim.streamSequence + 1,
      });
      runner.messages = await consumer.consume({ max_bytes: consumeBytes(options.nats.info?.max_payload ?? 0), expires: CONSUME_EXPIRES_MS });
    } catch (error) {
      runner.stopped = true;
      runner.checks?.unsubscribe();
      runner.messages?.stop();
      await runner.services?.stop(false).catch((stopping: unknown) => options.logger.error({ err: stopping, partition }, 'stopping a partition that failed to start failed'));
      throw error;
    }
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
          messages.stop(new ConsumerLostError(`the stream consumer of partition ${this.partition} missed ${status.count} heartbeats`));
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
      this.messages?.stop(new ConsumerLostError(`the stream consumer of partition ${partition} delivered nothing past sequence ${this.current} while the stream holds ${last}`));
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
      if (!this.stopped) throw new ConsumerLostError(`the stream consumer of partition ${this.options.partition} ended`);
    } catch (error) {
      clearInterval(this.stallTimer);
      this.checks?.unsubscribe();
      if (this.stopped) return;
      this.stopped = true;
      messages.stop();
      this.options.onFailure(error);
    }
  }

  /**
   * Applies consecutive event messages, each as `standing serve` applies one batch (stored and
   * applied whole, or refused whole), consecutive ones in one group commit; a message opening an
   * appeal alone, once the book has every message before it. Each outcome goes to the gateway
   * waiting for it (./ingest-protocol.ts); each refusal is recorded in PostgreSQL first.
   */
  private async applyEvents(messages: readonly JsMsg[]): Promise<void> {
    let group: { message: JsMsg; events: unknown[] }[] = [];
    for (const message of messages) {
      const events = decode(message);
      const stray = events === undefined ? undefined : this.strayEvent(events);
      if (events !== undefined && stray === undefined && !events.some(opensAppeal)) {
        group.push({ message, events });
        continue;
      }
      await this.applyGroup(group);
      group = [];
      if (events === undefined) {
        await this.refuse(message, [], [{ index: 0, code: 'EVENT_SYNTAX', field: '', reason: 'the message is not a JSON array of events' }]);
        continue;
      }
      if (stray !== undefined) {
        // Not published by a gateway: the store would refuse the write (fenced by partition), every time.
        await this.refuse(message, events, [stray]);
        continue;
      }
      this.current = message.seq;
      const appeals = await this.services!.appealProblems(events);
      if (appeals.length > 0) await this.refuse(message, events, appeals);
      else await this.applyGroup([{ message, events }]);
    }
    await this.applyGroup(group);
  }

  /** Ingests each message's events as one batch of one group commit; a store failure fails the runner (nothing of the group stored). */
  private async applyGroup(group: readonly { message: JsMsg; events: unknown[] }[]): Promise<void> {
    if (group.length === 0) return;
    this.current = group[group.length - 1]!.message.seq;
    const settled = await this.live.ingestGroup(group.map((g) => g.events));
    const outcomes: PartOutcome[] = [];
    for (const [i, result] of settled.entries()) {
      const { message, events } = group[i]!;
      if (result.status === 'fulfilled') {
        outcomes.push({ kind: 'applied', ...result.value });
      } else if (result.reason instanceof BatchRejectedError) {
        await this.record({ streamSequence: message.seq, communities: communitiesOf(events), events: events.length, problems: result.reason.problems, players: playersNamed(events) });
        outcomes.push({ kind: 'refused', problems: result.reason.problems });
      } else if (result.reason instanceof ApplyFailedError) {
        this.options.logger.error({ err: result.reason.cause, partition: this.partition, streamSequence: message.seq }, 'a scorer failed on a stored event: skipped in the live state, as a replay skips it');
        outcomes.push({ kind: 'failed', message: result.reason.message });
      } else {
        throw result.reason;
      }
    }
    group.forEach(({ message }, i) => this.report(message, outcomes[i]!));
  }

  /** The first event of `events` naming a community of another partition, as a problem. */
  private strayEvent(events: readonly unknown[]): BatchProblem | undefined {
    const { partitions } = this.options.config.cluster;
    for (const [index, event] of events.entries()) {
      const named = (event as { community?: unknown } | null)?.community;
      const community = typeof named === 'string' ? named : DEFAULT_COMMUNITY;
      const owner = partitionOf(community, partitions);
      if (owner !== this.partition) {
        return { index, code: 'EVENT_INVALID', field: 'community', reason: `community ${JSON.stringify(community)} belongs to partition ${owner}, not to partition ${this.partition} whose subject the message was published on` };
      }
    }
    return undefined;
  }

  /** Refuses a message whole: recorded (fenced, with its sequence), then reported. */
  private async refuse(message: JsMsg, events: readonly unknown[], problems: readonly BatchProblem[]): Promise<void> {
    this.current = message.seq;
    await this.record({ streamSequence: message.seq, communities: communitiesOf(events), events: events.length, problems, players: playersNamed(events) });
    this.report(message, { kind: 'refused', problems });
  }

  /** Records a refusal, and that the partition's stored events include its message (fenced). */
  private async record(refusal: NewRefusal): Promise<void> {
    const { logger, partition } = this.options;
    // Where and why, without the reasons' words: they may name a player, and an erasure cannot reach a log.
    const problems = refusal.problems.map(({ index, code, field }) => ({ index, code, field }));
    logger.warn({ partition, streamSequence: refusal.streamSequence, events: refusal.events, problems }, 'message refused whole and recorded (GET /v1/refusals)');
    await this.options.store.recordRefusalFenced(refusal, this.claim);
  }

  /** Tells the gateway waiting for `message`'s batch what became of it. */
  private report(message: JsMsg, outcome: PartOutcome): void {
    const to = message.headers?.get(OUTCOME_HEADER);
    const batch = message.headers?.get(BATCH_HEADER);
    if (to === undefined || to === '' || batch === undefined || batch === '') return;
    const report: OutcomeMessage = { batch, partition: this.partition, streamSequence: message.seq, outcome };
    try {
      this.options.nats.publish(to, JSON.stringify(report));
    } catch (error) {
      // The gateway answers after its wait without it (APPLY_PENDING, or an erasure's 202); a retry learns the outcome.
      this.options.logger.warn({ err: error, partition: this.partition, streamSequence: message.seq }, 'outcome not reported');
    }
  }

  /**
   * Answers a gateway's check of a batch's part (./gateway-checks.ts) after every message and
   * write before it: appeals against a sanction their player does not have and second open
   * appeals, else what ingesting it would refuse.
   */
  private async check(message: { json<T>(): T; respond(data: string): boolean }): Promise<void> {
    const { epoch } = this.claim;
    let answer: CheckAnswer;
    try {
      const { events } = message.json<CheckRequest>();
      answer = await this.exclusive(async () => {
        const appeals = await this.services!.appealProblems(events);
        return { appeals, problems: appeals.length > 0 ? [] : await this.live.check(events), epoch };
      });
    } catch (error) {
      this.options.logger.error({ err: error, partition: this.partition }, 'checking a part of a batch failed');
      answer = { error: 'the check failed inside the worker; its log has the details', epoch };
    }
    message.respond(JSON.stringify(answer));
  }

  /**
   * An erase command: erase in PostgreSQL, then from the alert stream and the log through it, then
   * record it and report what the erasure changed to the gateway waiting for it (./erase.ts). An
   * owner erasing again after its predecessor stopped reports what its own erasure changed.
   */
  private async applyCommand(message: JsMsg): Promise<void> {
    const { logger, partition, config, js, jsm } = this.options;
    this.current = message.seq;
    let player: string | undefined;
    try {
      player = erasedPlayer(message);
    } catch {
      player = undefined;
    }
    if (player === undefined) {
      logger.warn({ partition, streamSequence: message.seq, command: message.headers?.get('Standing-Command') }, 'unknown command, skipped');
      await this.recordSequence(message.seq);
      return;
    }
    const outcome = await this.live.erase(player);
    this.services?.forget(player, outcome.communities);
    const alerts = (await this.services?.eraseAlerts(player)) ?? 0;
    const messages = await eraseFromLog(js, jsm, config.cluster, partition, player, message.seq);
    logger.info(
      { partition, streamSequence: message.seq, communities: outcome.communities, removed: outcome.removed, rewritten: outcome.rewritten, erasedMessages: messages, erasedAlerts: alerts },
      'player erased',
    );
    await this.recordSequence(message.seq);
    this.report(message, { kind: 'erased', communities: outcome.communities, removed: outcome.removed, rewritten: outcome.rewritten });
  }

  /** Records that the partition's stored events include stream sequence `seq` (fenced). */
  private recordSequence(seq: number): Promise<unknown> {
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
    this.checks?.unsubscribe();
    this.messages?.stop();
    await this.loop;
    await this.services?.stop(graceful);
    if (graceful) await this.live.close();
  }
}

/** The communities `events` name, by name (what is not an event's community is left out). */
function communitiesOf(events: readonly unknown[]): string[] {
  const names = new Set<string>();
  for (const event of events) {
    const community = (event as { community?: unknown } | null)?.community;
    names.add(typeof community === 'string' ? community : DEFAULT_COMMUNITY);
  }
  return [...names].sort();
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
