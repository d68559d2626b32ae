/**
 * What a worker serves for a partition it holds, besides applying its events: the read side of
 * `standing serve` over the partition's live engine (ranking views, explanations, history
 * replays) answering the requests gateways forward on `<stream>-read.<partition>`
 * (./read-protocol.ts) with the single-node routes themselves (an API instance driven by
 * `inject`, never listening; moderation actions write between two messages of the stream), and
 * the alert monitor, whose alerts go to PostgreSQL (fenced) and
 * then to the alert stream (./alert-stream.ts). Every answer carries the epoch of the claim the
 * partition is held by, so a gateway can tell a stale owner's answer from the current one's.
 */
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ServiceMetrics } from '../http/metrics.js';
import { apiRoutes, buildHttpBase } from '../http/server.js';
import type { BatchProblem } from '../errors.js';
import { secondAppeals } from '../moderation/appeal-openings.js';
import { ModerationBook } from '../moderation/book.js';
import { BUILTIN_DOMAINS } from '../quality/index.js';
import { AlertMonitor } from '../service/alerts.js';
import type { ServiceConfig } from '../service/config.js';
import type { HistoryJobs } from '../service/history-jobs.js';
import type { LiveEngine } from '../service/live-engine.js';
import { RankingViews } from '../service/views.js';
import type { EventStore } from '../store/types.js';
import { AlertOutbox, ensureAlertStream } from './alert-stream.js';
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
  /** The worker's history replays, shared by all its partitions (closed by the worker, not here). */
  readonly history: HistoryJobs;
}

export class PartitionServices {
  private subscription: Subscription | undefined;

  private constructor(
    private readonly options: ServicesOptions,
    private readonly alerts: AlertMonitor,
    private readonly outbox: AlertOutbox,
    private readonly history: HistoryJobs,
    private readonly views: RankingViews,
    private readonly app: FastifyInstance,
    private readonly moderation: ModerationBook,
  ) {}

  /**
   * Raises what alerts are due, publishes what the stream lacks, then answers reads (the last
   * step). All or nothing: when a step fails, what the steps before it started is stopped.
   */
  static async start(options: ServicesOptions): Promise<PartitionServices> {
    const { config, store, live, logger, partition } = options;
    const metrics = new ServiceMetrics();
    const views = new RankingViews(live, config.rankingRefreshMs, undefined, config.rankingCacheSize);
    const alerts = await AlertMonitor.start(store, live, views, config.alerts.thresholds, config.alerts.intervalMs, (error) => logger.error({ err: error, partition }, 'alert check failed'));
    const { history } = options;
    let app: FastifyInstance | undefined;
    try {
      // Keys, the rate limit and connection limits are the gateway's: it checked the request.
      app = await buildHttpBase(store, {
        bodyLimitBytes: config.bodyLimitBytes,
        publicRead: true,
        logger: logger.child({ partition }, { level: 'warn' }),
        limits: { ...config, rateLimitPerMinute: 0 },
      });
      const moderation = await ModerationBook.build(store);
      moderation.follow(live);
      const quality = { domains: BUILTIN_DOMAINS, options: config.quality };
      apiRoutes(app, { live, store, views, alerts, metrics, quality, history, moderation, queue: config.queue }, { bodyLimitBytes: config.bodyLimitBytes, limits: config });
      await app.ready();
      const startAfter = await ensureAlertStream(options.jsm, config, store);
      const outbox = await AlertOutbox.open(options.js, options.jsm, store, config.cluster, partition, startAfter, logger);
      const services = new PartitionServices(options, alerts, outbox, history, views, app, moderation);
      alerts.subscribe(() => void outbox.publish());
      alerts.recheck(live.communities());
      await alerts.flush();
      services.subscription = options.nats.subscribe(readSubject(config.cluster, partition), { callback: (error, message) => void (error === null && services.answer(message)) });
      return services;
    } catch (error) {
      alerts.stop();
      await app?.close().catch(() => undefined);
      throw error;
    }
  }

  private async answer(message: { data: Uint8Array; json<T>(): T; respond(data: string): boolean }): Promise<void> {
    const { epoch } = this.options;
    let answer: ForwardedAnswer;
    try {
      const request = message.json<ForwardedRequest>();
      const inject = () => this.app.inject({ method: request.method as 'GET', url: request.url, headers: request.headers, ...(request.body === undefined ? {} : { payload: request.body }) });
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
   * The appeals `events` open that would be a player's second open appeal on one sanction, as
   * `standing serve`'s POST /v1/events refuses them (a gateway cannot see the book), once the book
   * has every event applied before.
   */
  async secondAppeals(events: readonly unknown[]): Promise<BatchProblem[]> {
    await this.moderation.whenCurrent();
    return secondAppeals(events, this.moderation);
  }

  /** After an erasure of `player` from `communities`: what was kept of them is dropped, as `standing serve` does. */
  forget(player: string, communities: readonly string[]): void {
    for (const community of communities) {
      this.views.forget(community);
      this.history.forget(community);
    }
    this.alerts.forget(player);
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
      await this.alerts.flush();
      await this.outbox.publish();
    }
    this.alerts.stop();
    // The histories kept of its communities go with the partition: whoever holds it next may erase from them.
    for (const community of this.options.live.communities()) this.history.forget(community);
    await this.app.close();
  }
}
