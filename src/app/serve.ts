/**
 * `standing serve`'s composition root: the store, the live engine, the read side, alerts and
 * webhooks, and the HTTP API, started from one validated configuration and stopped in reverse
 * order. The layers below it (../service/, ../http/) do not import it.
 */
import { listenError } from './listen-error.js';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { serviceLogger } from '../http/log-redaction.js';
import { buildHttpServer } from '../http/server.js';
import { ServiceMetrics } from '../http/metrics.js';
import type { ModerationBook } from '../moderation/book.js';
import { openStore } from '../store/open.js';
import type { EventStore, StoreHold } from '../store/types.js';
import type { AlertMonitor } from '../service/alerts.js';
import { startAlertPruning } from '../service/alert-pruning.js';
import { historyJobsOf } from '../service/history-jobs.js';
import type { ServiceConfig } from '../service/config.js';
import { LiveEngine } from '../service/live-engine.js';
import type { RankingViews } from '../service/views.js';
import { WebhookSender } from '../service/webhooks.js';
import { engineOptions } from './engine-options.js';
import { httpContext, openReadSide } from './read-side.js';

export interface RunningService {
  /** `http://host:port` the API listens on. */
  readonly url: string;
  readonly app: FastifyInstance;
  readonly live: LiveEngine;
  readonly views: RankingViews;
  readonly store: EventStore;
  readonly alerts: AlertMonitor;
  readonly webhooks: WebhookSender;
  readonly moderation: ModerationBook;
  readonly logger: Logger;
  /** Stops listening, finishes pending writes, saves checkpoints, closes the store. */
  close(): Promise<void>;
  /**
   * Stops as a killed process would leave the store: stops listening and closes the store and its
   * hold without saving checkpoints, so the next start restores from the last checkpoints and
   * replays the tail (benches and tests of recovery; `close` is the orderly stop).
   */
  abandon(): Promise<void>;
}

export async function startService(config: ServiceConfig, logger: Logger = serviceLogger(config.logLevel)): Promise<RunningService> {
  const store = await openStore(config.db, { appendThread: true });
  // Held from before the state is loaded until after the last checkpoint is saved: `standing
  // erase` refuses the store meanwhile, so nothing it erased can come back from this service's
  // memory, and this service refuses to start while an erasure runs.
  let hold: StoreHold | undefined;
  try {
    hold = await store.hold('serve');
    const started = performance.now();
    const live = await LiveEngine.open(engineOptions(config, store, logger));
    logger.info({ store: store.kind, communities: live.communities().length, milliseconds: Math.round(performance.now() - started) }, 'state restored');

    const metrics = new ServiceMetrics();
    const side = await openReadSide(config, store, live, metrics, logger);
    const { moderation, views, alerts } = side;
    // What the rules decided on the log's tail and a crash kept from being stored.
    await live.settleRules();
    const webhooks = new WebhookSender(config.alerts.webhooks, config.alerts.webhookRetryMs, (d) =>
      d.ok ? logger.debug(d, 'webhook delivered') : logger.warn(d, 'webhook delivery failed'),
    );
    alerts.subscribe((list) => {
      for (const alert of list) metrics.alerts.inc({ kind: alert.kind });
      webhooks.send(list);
    });

    const pruning = startAlertPruning(store, config.alerts.retentionDays, logger);

    const history = historyJobsOf(config);
    const app = await buildHttpServer(httpContext(config, store, live, side, metrics, history), { bodyLimitBytes: config.bodyLimitBytes, publicRead: config.publicRead, logger, limits: config });
    try {
      await app.listen({ host: config.host, port: config.port });
    } catch (error) {
      pruning.stop();
      await app.close();
      await history.close();
      alerts.stop();
      webhooks.stop();
      throw listenError(error, config);
    }
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : config.port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;

    let closing: Promise<void> | undefined;
    /** Stops once, whichever is asked first: with checkpoints saved (close) or as a crash would leave the store (abandon). */
    const stop = (saveCheckpoints: boolean): Promise<void> =>
      (closing ??= (async () => {
        pruning.stop();
        await app.close();
        await history.close();
        alerts.stop();
        webhooks.stop();
        try {
          await (saveCheckpoints ? live.close() : store.close());
        } finally {
          await hold?.release();
        }
      })());
    return {
      url: `http://${host}:${port}`,
      app,
      live,
      views,
      store,
      alerts,
      webhooks,
      moderation,
      logger,
      close: () => stop(true),
      abandon: () => stop(false),
    };
  } catch (error) {
    await store.close();
    await hold?.release();
    throw error;
  }
}
