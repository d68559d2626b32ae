/**
 * What `standing serve`'s API is built over: the live engine and the read side built on it. Each
 * route module takes the part of it it uses (./routes/), so an API without a live engine (a
 * cluster gateway) registers the routes it can answer and forwards the others.
 */
import type { ModerationBook } from '../moderation/book.js';
import type { QualityStageOptions } from '../quality/stage.js';
import type { AlertMonitor } from '../service/alerts.js';
import type { ClaimsConfig, FourEyesConfig, PlayerTokensConfig, QueueConfig } from '../service/config.js';
import type { HistoryJobs } from '../service/history-jobs.js';
import type { LiveEngine } from '../service/live-engine.js';
import type { RankingViews } from '../service/views.js';
import type { EventStore } from '../store/types.js';
import type { ServiceMetrics } from './metrics.js';

export interface HttpContext {
  readonly live: LiveEngine;
  readonly store: EventStore;
  readonly views: RankingViews;
  readonly alerts: AlertMonitor;
  readonly metrics: ServiceMetrics;
  readonly quality: QualityStageOptions;
  /** History replays, on their own threads. */
  readonly history: HistoryJobs;
  /** Sanctions, appeals, notes and verdicts per player, kept current (../moderation/book.ts). */
  readonly moderation: ModerationBook;
  /** The attention queue's weights (the configuration's `queue`). */
  readonly queue: QueueConfig;
  /** Who may act alone, claims on cases and player tokens (the configuration's `fourEyes`, `claims` and `playerTokens`). */
  readonly access: AccessConfig;
}

export interface AccessConfig {
  readonly fourEyes: FourEyesConfig;
  readonly claims: ClaimsConfig;
  readonly playerTokens: PlayerTokensConfig;
}
