/** Health, the limits of a batch, metrics, and what the service runs: scorer instances and communities. */
import type { FastifyInstance } from 'fastify';
import { MAX_ID_LENGTH } from '../../events/limits.js';
import { formatParams } from '../../params/format.js';
import { scorerModule, wordsOf } from '../../scorers/index.js';
import type { HttpContext } from '../context.js';
import { documented } from '../documented.js';
import { refTo } from '../schemas/common.js';
import { answer } from '../schemas/errors.js';
import { IngestLimits } from '../schemas/events.js';
import { CommunityList, Health, Metrics, ScorerList } from '../schemas/system.js';

export function systemRoutes(
  app: FastifyInstance,
  { live, store, metrics }: HttpContext,
  limits: { readonly bodyLimitBytes: number; readonly rateLimitPerMinute: number },
): void {
  app.get(
    '/healthz',
    documented(undefined, { operationId: 'health', summary: 'Liveness and what the service holds', tags: ['system'], response: { 200: answer(Health, 'the service is up') } }),
    async () => ({
      status: 'ok',
      store: store.kind,
      communities: live.communities().length,
      events: live.communities().reduce((sum, c) => sum + live.sequence(c), 0),
    }),
  );

  app.get(
    '/v1/limits',
    documented('ingest', {
      operationId: 'limits',
      summary: 'What a batch of events must keep to: body size, events, nesting, id length, clock skew; and the rate limit',
      tags: ['system'],
      response: { 200: answer(IngestLimits, 'the limits this service applies') },
    }),
    async () => ({
      bodyLimitBytes: limits.bodyLimitBytes,
      maxBatchEvents: live.maxBatchEvents,
      maxEventDepth: live.maxEventDepth,
      maxIdLength: MAX_ID_LENGTH,
      maxClockSkewSeconds: live.maxClockSkewSeconds,
      rateLimitPerMinute: limits.rateLimitPerMinute,
    }),
  );

  app.get(
    '/metrics',
    documented('read', {
      operationId: 'metrics',
      summary: 'Prometheus metrics',
      tags: ['system'],
      response: { 200: { description: 'the metrics, in the Prometheus text format', content: { 'text/plain': { schema: refTo(Metrics) } } } },
    }),
    async (_request, reply) => {
      await reply.header('content-type', metrics.registry.contentType).send(await metrics.registry.metrics());
    },
  );

  app.get(
    '/v1/scorers',
    documented('read', { operationId: 'scorers', summary: 'The scorer instances this service runs', tags: ['system'], response: { 200: answer(ScorerList, 'every configured instance') } }),
    async () => ({
      scorers: live.instances.map((i) => {
        const { direction, good, bad } = wordsOf(i.scorer);
        const bar = scorerModule(i.scorer.id)?.bar(i.params) ?? { kind: 'signed' as const };
        return { name: i.name, scorer: i.scorer.id, params: formatParams(i.params), rankOneIsWorst: i.scorer.rankOneIsWorst, direction, good, bad, bar };
      }),
    }),
  );

  app.get(
    '/v1/communities',
    documented('read', { operationId: 'communities', summary: 'Communities with events and their last sequence', tags: ['system'], response: { 200: answer(CommunityList, 'every community with events') } }),
    async () => ({
      communities: live.communities().map((community) => ({ community, sequence: live.sequence(community) })),
    }),
  );
}
