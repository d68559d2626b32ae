/** Health, metrics, and what the service runs: scorer instances and communities. */
import type { FastifyInstance } from 'fastify';
import { formatParams } from '../../params/format.js';
import type { HttpContext } from '../context.js';

export function systemRoutes(app: FastifyInstance, { live, store, metrics }: HttpContext): void {
  app.get('/healthz', { schema: { summary: 'Liveness and what the service holds', tags: ['system'] } }, async () => ({
    status: 'ok',
    store: store.kind,
    communities: live.communities().length,
    events: live.communities().reduce((sum, c) => sum + live.sequence(c), 0),
  }));

  app.get('/metrics', { config: { scope: 'read' }, schema: { summary: 'Prometheus metrics', tags: ['system'] } }, async (_request, reply) => {
    await reply.header('content-type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  app.get('/v1/scorers', { config: { scope: 'read' }, schema: { summary: 'The scorer instances this service runs', tags: ['system'] } }, async () => ({
    scorers: live.instances.map((i) => ({ name: i.name, scorer: i.scorer.id, params: formatParams(i.params), rankOneIsWorst: i.scorer.rankOneIsWorst })),
  }));

  app.get('/v1/communities', { config: { scope: 'read' }, schema: { summary: 'Communities with events and their last sequence', tags: ['system'] } }, async () => ({
    communities: live.communities().map((community) => ({ community, sequence: live.sequence(community) })),
  }));
}
