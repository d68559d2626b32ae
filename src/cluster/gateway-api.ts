/**
 * A gateway's HTTP API: every route of `standing serve`, registered in serve's order (so the
 * OpenAPI document lists them alike), each either answered by the gateway from what it holds or
 * forwarded by its declaration to the worker owning the request's community (./gateway-reads.ts).
 * The gateway answers ingest (./gateway-routes.ts), erasure (./gateway-erase.ts) and refusals
 * (./gateway-refusals.ts) its own way; alerts and their stream, the audit log and /v1/me from
 * PostgreSQL and the alert stream; player tokens with the token secret kept in PostgreSQL; health from PostgreSQL (./gateway-health.ts: a health check
 * never reaches a worker); limits, metrics and the scorer instances from its configuration; the
 * docs and the dashboard's files (the scorer instances' defences in a community, asked with
 * `community`, are the owning worker's). Every route that reads a community's live state is forwarded:
 * the gateway holds no live engine, so the type checker refuses it any route that would read one.
 */
import type { FastifyInstance } from 'fastify';
import type { ScorerInstance } from '../engine/engine.js';
import type { ServiceMetrics } from '../http/metrics.js';
import { type AlertFeed, alertRoutes } from '../http/routes/alerts.js';
import { auditRoutes } from '../http/routes/audit.js';
import { BULK_ROUTES } from '../http/routes/bulk.js';
import { MODERATION_ROUTES } from '../http/routes/moderation.js';
import { QUEUE_ROUTES } from '../http/routes/moderation-queue.js';
import { PLAYER_ROUTES } from '../http/routes/players.js';
import { CLAIM_ROUTES } from '../http/routes/case-claims.js';
import { PLAYER_VIEW_ROUTES, playerTokenRoute } from '../http/routes/player-view.js';
import type { PlayerTokensConfig } from '../service/config.js';
import { RANKING_ROUTES } from '../http/routes/rankings.js';
import { RULE_ROUTES } from '../http/routes/rules.js';
import { healthRoute, limitsRoute, metricsRoute, scorerList, SYSTEM_ROUTES, type ServiceLimits } from '../http/routes/system.js';
import { TEAM_ROUTES } from '../http/routes/team.js';
import { registerDashboard } from '../http/server.js';
import type { PostgresStore } from '../store/postgres.js';
import { type GatewayErase, gatewayEraseRoute } from './gateway-erase.js';
import { gatewayHealth } from './gateway-health.js';
import { forwardRoute, toCommunityOwnerOr, toEveryPartition, toOwner, toPlayerOwners, type GatewayReads } from './gateway-reads.js';
import { gatewayRefusalsRoute } from './gateway-refusals.js';
import { type GatewayIngest, gatewayEventRoutes } from './gateway-routes.js';

export interface GatewayApi {
  /** Keys, alerts, the audit log, refusals and the figures of /healthz. */
  readonly store: PostgresStore;
  /** Live alerts, from the alert stream. */
  readonly alerts: AlertFeed;
  readonly metrics: ServiceMetrics;
  /** The configured scorer instances (their state is the workers'). */
  readonly instances: readonly ScorerInstance[];
  readonly limits: ServiceLimits;
  /** The limits of alert streams. */
  readonly streams: { readonly maxStreams: number; readonly maxStreamsPerKey: number; readonly connectionTimeoutMs: number };
  readonly ingest: GatewayIngest;
  readonly erase: GatewayErase;
  readonly reads: GatewayReads;
  /** How long the player tokens the gateway mints live (the configuration's `playerTokens`). */
  readonly playerTokens: PlayerTokensConfig;
}

export async function gatewayApi(app: FastifyInstance, api: GatewayApi): Promise<void> {
  const { store, reads } = api;
  await registerDashboard(app);
  app.get('/v1/health', { config: {}, schema: { hide: true } }, async () => ({ status: 'ok', role: 'gateway' }));
  gatewayEventRoutes(app, api.ingest);
  gatewayEraseRoute(app, api.erase);
  gatewayRefusalsRoute(app, store, api.metrics);
  // From here on, serve's routes in serve's order (../http/server.ts, apiRoutes).
  forwardRoute(app, QUEUE_ROUTES.queue, reads, toOwner);
  forwardRoute(app, QUEUE_ROUTES.case, reads, toOwner);
  forwardRoute(app, PLAYER_ROUTES.player, reads, toPlayerOwners);
  forwardRoute(app, PLAYER_ROUTES.explain, reads, toOwner);
  forwardRoute(app, PLAYER_ROUTES.history, reads, toOwner);
  forwardRoute(app, PLAYER_VIEW_ROUTES.standing, reads, toOwner);
  forwardRoute(app, PLAYER_VIEW_ROUTES.reports, reads, toOwner);
  playerTokenRoute(app, api.playerTokens);
  forwardRoute(app, RANKING_ROUTES.ranking, reads, toOwner);
  alertRoutes(app, { store, alerts: api.alerts, metrics: api.metrics }, api.streams);
  for (const route of Object.values(MODERATION_ROUTES)) forwardRoute(app, route, reads, toOwner);
  forwardRoute(app, BULK_ROUTES.bulk, reads, toOwner);
  forwardRoute(app, TEAM_ROUTES.team, reads, toOwner);
  for (const route of Object.values(CLAIM_ROUTES)) forwardRoute(app, route, reads, toOwner);
  auditRoutes(app, { store });
  for (const route of Object.values(RULE_ROUTES)) forwardRoute(app, route, reads, toOwner);
  healthRoute(app, gatewayHealth(store));
  limitsRoute(app, api.limits);
  metricsRoute(app, api.metrics);
  forwardRoute(app, SYSTEM_ROUTES.scorers, reads, toCommunityOwnerOr(() => scorerList(api.instances)));
  forwardRoute(app, SYSTEM_ROUTES.communities, reads, toEveryPartition);
}
