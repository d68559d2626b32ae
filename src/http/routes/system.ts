/**
 * Health, the limits of a batch, metrics, and what the service runs: scorer instances and
 * communities. Each route takes what it answers from: a cluster gateway answers health, limits,
 * metrics and scorers itself and forwards the communities (../../cluster/gateway-api.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { ScorerInstance } from '../../engine/engine.js';
import { MAX_ID_LENGTH } from '../../events/limits.js';
import { formatParams } from '../../params/format.js';
import { scorerModule, wordsOf } from '../../scorers/index.js';
import type { LiveEngine } from '../../service/live-engine.js';
import type { EventStore } from '../../store/types.js';
import type { HttpContext } from '../context.js';
import { mayReach } from '../access.js';
import { declared, register } from '../declared.js';
import { documented } from '../documented.js';
import type { ServiceMetrics } from '../metrics.js';
import { refTo } from '../schemas/common.js';
import { answer } from '../schemas/errors.js';
import { IngestLimits } from '../schemas/events.js';
import { CommunityList, Health, Metrics, ScorerList, ScorerListQuery, type ScorerListQuery as ScorerListQueryType } from '../schemas/system.js';
import { defencesOn } from '../../scorers/defences.js';

export const SYSTEM_ROUTES = {
  health: declared(
    'GET',
    '/healthz',
    documented(undefined, { operationId: 'health', summary: 'Liveness and what the service holds', tags: ['system'], response: { 200: answer(Health, 'the service is up') } }),
  ),
  limits: declared(
    'GET',
    '/v1/limits',
    documented('ingest', {
      operationId: 'limits',
      summary: 'What a batch of events must keep to: body size, events, nesting, id length, clock skew; and the rate limit',
      tags: ['system'],
      response: { 200: answer(IngestLimits, 'the limits this service applies') },
    }, 'none'),
  ),
  metrics: declared(
    'GET',
    '/metrics',
    documented('read', {
      operationId: 'metrics',
      summary: 'Prometheus metrics',
      tags: ['system'],
      response: { 200: { description: 'the metrics, in the Prometheus text format', content: { 'text/plain': { schema: refTo(Metrics) } } } },
    }, 'every'),
  ),
  scorers: declared(
    'GET',
    '/v1/scorers',
    documented('read', {
      operationId: 'scorers',
      summary: 'The scorer instances this service runs, and their defences (engaged in a community, with `community`)',
      tags: ['system'],
      querystring: refTo(ScorerListQuery),
      response: { 200: answer(ScorerList, 'every configured instance') },
    }, 'filtered'),
  ),
  communities: declared(
    'GET',
    '/v1/communities',
    documented(
      'read',
      { operationId: 'communities', summary: 'Communities with events and their last sequence (for a key restricted to communities: those of them with events)', tags: ['system'], response: { 200: answer(CommunityList, 'every community with events') } },
      'filtered',
    ),
  ),
};

/** The limits GET /v1/limits answers with, but the id length every service shares. */
export type ServiceLimits = Omit<IngestLimits, 'maxIdLength'>;

/** The communities and their last sequences, as a live engine holds them. */
export type Communities = Pick<LiveEngine, 'communities' | 'sequence'>;

/** GET /healthz, answered by `health`. */
export function healthRoute(app: FastifyInstance, health: () => Health | Promise<Health>): void {
  register(app, SYSTEM_ROUTES.health, async () => health());
}

/** What a service over `live` and `store` holds, for GET /healthz. */
export function liveHealth(live: Communities, store: Pick<EventStore, 'kind'>): () => Health {
  return () => ({
    status: 'ok',
    store: store.kind,
    communities: live.communities().length,
    events: live.communities().reduce((sum, c) => sum + live.sequence(c), 0),
  });
}

export function limitsRoute(app: FastifyInstance, limits: ServiceLimits): void {
  register(app, SYSTEM_ROUTES.limits, async () => ({
    bodyLimitBytes: limits.bodyLimitBytes,
    maxBatchEvents: limits.maxBatchEvents,
    maxEventDepth: limits.maxEventDepth,
    maxIdLength: MAX_ID_LENGTH,
    maxClockSkewSeconds: limits.maxClockSkewSeconds,
    rateLimitPerMinute: limits.rateLimitPerMinute,
  }));
}

export function metricsRoute(app: FastifyInstance, metrics: ServiceMetrics): void {
  register(app, SYSTEM_ROUTES.metrics, async (_request, reply) => {
    await reply.header('content-type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

/**
 * The configured instances, each with its defences; with a community, whether each is engaged
 * there, read from the instance's live state (a defence that needs an event it has not sent yet
 * is not). The answer without a community is the configuration's alone: a cluster gateway gives
 * it itself, and forwards one with a community to the worker owning it.
 */
export function scorerList(instances: readonly ScorerInstance[], community?: string): ScorerList {
  return {
    ...(community === undefined ? {} : { community }),
    scorers: instances.map((i) => {
      const { direction, good, bad } = wordsOf(i.scorer);
      const bar = (scorerModule(i.scorer.id)?.bar(i.params) ?? { kind: 'signed' }) as ScorerList['scorers'][number]['bar']; // the same shape, its arrays read-only
      const dormant = community === undefined ? [] : (i.scorer.dormantDefences?.(i.state, community) ?? []);
      const on = defencesOn(i.scorer, i.params).map((d) => (community === undefined ? d : { ...d, engaged: !dormant.includes(d.param) }));
      const defences = { setting: i.defences ?? 'published', on }; // made without a setting: over the scorer's defaults
      return { name: i.name, scorer: i.scorer.id, params: formatParams(i.params), rankOneIsWorst: i.scorer.rankOneIsWorst, direction, good, bad, bar, defences };
    }),
  };
}

export function scorersRoute(app: FastifyInstance, instances: readonly ScorerInstance[]): void {
  register<{ Querystring: ScorerListQueryType }>(app, SYSTEM_ROUTES.scorers, async (request) => scorerList(instances, request.query.community));
}

export function communitiesRoute(app: FastifyInstance, live: Communities): void {
  register(app, SYSTEM_ROUTES.communities, async (request) => ({
    communities: live
      .communities()
      .filter((community) => mayReach(request, community))
      .map((community) => ({ community, sequence: live.sequence(community) })),
  }));
}

/** Every system route, over a live engine (`standing serve`, a worker's partition). */
export function systemRoutes(
  app: FastifyInstance,
  { live, store, metrics }: Pick<HttpContext, 'live' | 'store' | 'metrics'>,
  limits: { readonly bodyLimitBytes: number; readonly rateLimitPerMinute: number },
): void {
  healthRoute(app, liveHealth(live, store));
  limitsRoute(app, { bodyLimitBytes: limits.bodyLimitBytes, maxBatchEvents: live.maxBatchEvents, maxEventDepth: live.maxEventDepth, maxClockSkewSeconds: live.maxClockSkewSeconds, rateLimitPerMinute: limits.rateLimitPerMinute });
  metricsRoute(app, metrics);
  scorersRoute(app, live.instances);
  communitiesRoute(app, live);
}
