/**
 * The read side over a live engine, as `standing serve` and each partition a `standing worker`
 * holds build it: the moderation book (following every commit), the ranking views (each
 * computation observed in the metrics) and the alert monitor; and the routes' context over them.
 */
import type { Logger } from 'pino';
import type { HttpContext } from '../http/context.js';
import type { ServiceMetrics } from '../http/metrics.js';
import { ModerationBook } from '../moderation/book.js';
import { AlertMonitor } from '../service/alerts.js';
import type { ServiceConfig } from '../service/config.js';
import type { HistoryJobs } from '../service/history-jobs.js';
import type { LiveEngine } from '../service/live-engine.js';
import { RankingViews } from '../service/views.js';
import type { EventStore } from '../store/types.js';
import { qualityOf } from './engine-options.js';

export interface ReadSide {
  readonly moderation: ModerationBook;
  readonly views: RankingViews;
  readonly alerts: AlertMonitor;
}

/**
 * Builds the read side of `live` over `store`. `logged` goes into the alert monitor's error
 * lines (a worker's partition number). The alert monitor runs until stopped.
 */
export async function openReadSide(config: ServiceConfig, store: EventStore, live: LiveEngine, metrics: ServiceMetrics, logger: Logger, logged: Readonly<Record<string, unknown>> = {}): Promise<ReadSide> {
  const moderation = await ModerationBook.build(store, { secondDismissal: config.fourEyes.ruleDismissals });
  moderation.follow(live);
  const views = new RankingViews(
    live,
    config.rankingRefreshMs,
    (instance, ms, community, stats) => {
      metrics.scorerSeconds.observe({ scorer: instance.name }, ms / 1000);
      if (stats !== undefined) metrics.observeComputation(instance.name, community, stats);
    },
    config.rankingCacheSize,
  );
  const alerts = await AlertMonitor.start(store, live, views, config.alerts.thresholds, config.alerts.intervalMs, (error) => logger.error({ err: error, ...logged }, 'alert check failed'));
  live.onRuleNotices((notices) => {
    for (const n of notices) logger.warn({ ...logged, community: n.community, rule: n.rule, players: n.players, active: n.active, limit: n.limit, until: n.until }, n.kind === 'paused' ? 'rule paused by its circuit breaker' : 'rule resumed after its pause');
    void alerts.raiseRuleNotices(notices);
  });
  return { moderation, views, alerts };
}

/** What the routes of the HTTP API are given: the engine, its read side, and the rest from the configuration. */
export function httpContext(config: ServiceConfig, store: EventStore, live: LiveEngine, side: ReadSide, metrics: ServiceMetrics, history: HistoryJobs): HttpContext {
  return {
    live,
    store,
    views: side.views,
    alerts: side.alerts,
    metrics,
    quality: qualityOf(config),
    history,
    moderation: side.moderation,
    queue: config.queue,
    access: { fourEyes: config.fourEyes, claims: config.claims, playerTokens: config.playerTokens },
  };
}
