/**
 * What a worker serves for a partition it holds, besides applying its events: the read side of
 * `standing serve` over the partition's live engine (ranking views, explanations, history
 * replays; built by the worker's composition root, ./partition-assembly.ts) answering the
 * requests gateways forward on `<stream>-read.<partition>` (./read-protocol.ts) with the
 * single-node routes themselves (an API instance driven by `inject`, never listening; moderation
 * actions write between two messages of the stream), and the alert monitor, whose alerts go to
 * PostgreSQL (fenced) and then to the alert stream (./alert-stream.ts). Every answer carries the
 * epoch of the claim the partition is held by, so a gateway can tell a stale owner's answer from
 * the current one's.
 */
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import type { BatchProblem } from '../errors.js';
import { appealOpeningProblems } from '../moderation/appeal-openings.js';
import type { ServiceConfig } from '../service/config.js';
import type { LiveEngine } from '../service/live-engine.js';
import type { EventStore } from '../store/types.js';
import { AlertOutbox, ensureAlertStream } from './alert-stream.js';
import type { PartitionAssembly, PartitionReads } from './partition-assembly.js';
import { FORWARDED_ANSWER_HEADERS, pickHeaders, readSubject, type ForwardedAnswer, type ForwardedRequest } from './read-protocol.js';

export interface ServicesOptions {
  readonly config: ServiceConfig;
  /** The partition's view of the store (./partition-store.ts). */
  readonly store: EventStore;
  readonly live: LiveEngine;
  readonly nats: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly partition: number;
  /** The epoch of the claim the partition is held by: every answer carries it (a gateway ignores an older one's). */
  readonly epoch: number;
  readonly logger: Logger;
  /** The last stream sequence the partition's state includes. */
  readonly streamSequence: () => number;
  /**
   * Runs `write` between two messages of the stream: a request that writes (a moderation
   * action) stores its events after every event of the messages applied before it, never
   * in the middle of one.
   */
  readonly betweenMessages: <T>(write: () => Promise<T>) => Promise<T>;
  /** How the partition's read side is built (./partition-assembly.ts). */
  readonly assembly: Pick<PartitionAssembly, 'openReads'>;
}

export class PartitionServices {
  private subscription: Subscription | undefined;

  private constructor(
    private readonly options: ServicesOptions,
    private readonly reads: PartitionReads,
    private readonly outbox: AlertOutbox,
  ) {}

  /**
   * Raises what alerts are due, publishes what the stream lacks, then answers reads (the last
   * step). All or nothing: when a step fails, what the steps before it started is stopped.
   */
  static async start(options: ServicesOptions): Promise<PartitionServices> {
    const { config, store, live, partition } = options;
    const reads = await options.assembly.openReads(store, live, partition);
    try {
      const startAfter = await ensureAlertStream(options.jsm, config, store);
      const outbox = await AlertOutbox.open(options.js, options.jsm, store, config.cluster, partition, startAfter, options.logger);
      const services = new PartitionServices(options, reads, outbox);
      reads.alerts.subscribe(() => void outbox.publish());
      reads.alerts.recheck(live.communities());
      await reads.alerts.flush();
      services.subscription = options.nats.subscribe(readSubject(config.cluster, partition), { callback: (error, message) => void (error === null && services.answer(message)) });
      return services;
    } catch (error) {
      reads.alerts.stop();
      await reads.api.close().catch(() => undefined);
      throw error;
    }
  }

  private async answer(message: { data: Uint8Array; json<T>(): T; respond(data: string): boolean }): Promise<void> {
    const { epoch } = this.options;
    let answer: ForwardedAnswer;
    try {
      const request = message.json<ForwardedRequest>();
      const inject = () => this.reads.api.inject({ method: request.method as 'GET', url: request.url, headers: request.headers, ...(request.body === undefined ? {} : { payload: request.body }) });
      const injected = request.method === 'GET' || request.method === 'HEAD' ? await inject() : await this.options.betweenMessages(inject);
      answer = { status: injected.statusCode, headers: pickHeaders(injected.headers, FORWARDED_ANSWER_HEADERS), body: injected.body, streamSequence: this.options.streamSequence(), epoch };
    } catch (error) {
      this.options.logger.error({ err: error, partition: this.options.partition }, 'forwarded request failed');
      answer = { status: 500, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ error: 'INTERNAL', message: 'the request failed inside the worker; its log has the details' }), streamSequence: 0, epoch };
    }
    let text = JSON.stringify(answer);
    const max = this.options.nats.info?.max_payload ?? 1024 * 1024;
    if (Buffer.byteLength(text) > max) {
      const body = JSON.stringify({ error: 'ANSWER_TOO_LARGE', message: `the answer is ${Buffer.byteLength(text)} bytes, over the NATS servers' max_payload (${max} bytes): ask for a smaller page (limit, points)`, limit: max });
      text = JSON.stringify({ status: 500, headers: { 'content-type': 'application/json; charset=utf-8' }, body, streamSequence: answer.streamSequence, epoch } satisfies ForwardedAnswer);
    }
    message.respond(text);
  }

  /**
   * The appeals `events` open against a sanction their player does not have, or that would be a
   * player's second open appeal on one sanction, as `standing serve`'s POST /v1/events refuses
   * them (a gateway cannot see the book), once the book has every event applied before.
   */
  async appealProblems(events: readonly unknown[]): Promise<BatchProblem[]> {
    await this.reads.moderation.whenCurrent();
    return appealOpeningProblems(events, this.reads.moderation);
  }

  /** After an erasure of `player` from `communities`: what was kept of them is dropped, as `standing serve` does. */
  forget(player: string, communities: readonly string[]): void {
    for (const community of communities) {
      this.reads.views.forget(community);
      this.reads.history.forget(community);
    }
    this.reads.alerts.forget(player);
  }

  /** After an erasure of `player` from PostgreSQL: their alerts of this partition leave the alert stream, erased (./alert-stream.ts). */
  eraseAlerts(player: string): Promise<number> {
    return this.outbox.erase(player);
  }

  /**
   * Stops answering reads. Graceful (the partition is handed over): the alerts due are checked
   * and stored first. Not graceful: nothing more is written.
   */
  async stop(graceful: boolean): Promise<void> {
    this.subscription?.unsubscribe();
    if (graceful) {
      await this.reads.alerts.flush();
      await this.outbox.publish();
    }
    this.reads.alerts.stop();
    // The histories kept of its communities go with the partition: whoever holds it next may erase from them.
    for (const community of this.options.live.communities()) this.reads.history.forget(community);
    await this.reads.api.close();
  }
}
