/**
 * One player: every scorer instance's score and rank per community, the explanation of one
 * score, its history over event time, and erasure (admin).
 */
import type { FastifyInstance } from 'fastify';
import { pageOf } from '../paging.js';
import { DEFAULT_COMMUNITY } from '../../events/types.js';
import { HistoryBusyError, HistoryClosingError } from '../../service/history-jobs.js';
import type { HttpContext } from '../context.js';
import { HttpProblem } from '../errors.js';
import { IdParam } from '../ids.js';
import { pickInstance } from '../instances.js';

const PlayerParams = { type: 'object', properties: { id: IdParam } } as const;
const Community = IdParam;
const ScorerName = { type: 'string', minLength: 1, description: 'scorer id or instance name' } as const;

/** The list each scorer's explanation is made of, which `explain` pages. */
const EXPLAINED_LIST: Readonly<Record<string, string>> = { cqr: 'window', reliability: 'events', chat: 'senders', trust: 'ratings', reports: 'reportedBy' };
export const EXPLAIN_LIMIT = { default: 100, maximum: 1000 } as const;

export function playerRoutes(app: FastifyInstance, context: HttpContext): void {
  const { live, views, alerts, history } = context;

  app.get<{ Params: { id: string }; Querystring: { community?: string } }>(
    '/v1/players/:id',
    {
      config: { scope: 'read' },
      schema: {
        summary: "A player's score, rank and (reliability) band and confidence under every scorer instance, per community",
        tags: ['players'],
        params: PlayerParams,
        querystring: { type: 'object', additionalProperties: false, properties: { community: { ...Community, description: 'one community (default: every community the player is ranked in)' } } },
      },
    },
    async (request) => {
      const player = request.params.id;
      const communities = request.query.community === undefined ? live.communities() : [request.query.community];
      const out = [];
      for (const community of communities) {
        const scores = [];
        for (const instance of live.instances) {
          const view = views.ranking(instance, community);
          const row = view.rowOf(player);
          if (row === undefined) continue;
          const { player: _p, community: _c, ...fields } = row;
          scores.push({ scorer: instance.name, scorerId: instance.scorer.id, ...fields, of: view.rows.length, sequence: view.sequence });
        }
        if (scores.length > 0) out.push({ community, scores });
      }
      if (out.length === 0) throw new HttpProblem(404, 'NOT_FOUND', `player "${player}" has no score${request.query.community === undefined ? '' : ` in community "${request.query.community}"`}`);
      return { player, communities: out };
    },
  );

  app.get<{ Params: { id: string }; Querystring: { scorer: string; community?: string; limit?: number; offset?: number; order?: 'asc' | 'desc' } }>(
    '/v1/players/:id/explain',
    {
      config: { scope: 'read' },
      schema: {
        summary: "The events, ratings, reports or messages that make up one of the player's scores",
        tags: ['players'],
        params: PlayerParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['scorer'],
          properties: {
            scorer: ScorerName,
            community: Community,
            limit: { type: 'integer', minimum: 1, maximum: EXPLAIN_LIMIT.maximum, default: EXPLAIN_LIMIT.default, description: "entries of the explanation's list in one answer" },
            offset: { type: 'integer', minimum: 0, default: 0, description: 'entries to skip, from the end the order starts at' },
            order: { type: 'string', enum: ['asc', 'desc'], default: 'asc', description: "asc: from the list's first entry; desc: from its last, last first" },
          },
        },
      },
    },
    async (request) => {
      const { community = DEFAULT_COMMUNITY, limit = EXPLAIN_LIMIT.default, offset = 0, order = 'asc' } = request.query;
      const instance = pickInstance(live, request.query.scorer);
      const explanation = instance.scorer.explain(instance.state, community, request.params.id) as Record<string, unknown> | undefined;
      if (explanation === undefined) throw new HttpProblem(404, 'NOT_FOUND', `${instance.name} has nothing on player "${request.params.id}" in community "${community}"`);
      const list = EXPLAINED_LIST[instance.scorer.id];
      const entries = list === undefined ? undefined : explanation[list];
      if (list === undefined || !Array.isArray(entries)) {
        return { player: request.params.id, community, scorer: instance.name, sequence: live.sequence(community), explanation };
      }
      const total = entries.length;
      const page = pageOf(entries, offset, limit, order);
      return {
        player: request.params.id,
        community,
        scorer: instance.name,
        sequence: live.sequence(community),
        page: { list, total, offset, limit, order },
        explanation: { ...explanation, [list]: page },
      };
    },
  );

  app.get<{ Params: { id: string }; Querystring: { scorer: string; community?: string; points?: number } }>(
    '/v1/players/:id/history',
    {
      config: { scope: 'read' },
      schema: {
        summary:
          "The player's score and rank over event time: a replay of the community's log on a history thread, sampled at evenly spaced events; 503 HISTORY_BUSY while maxHistoryJobs replays run",
        tags: ['players'],
        params: PlayerParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['scorer'],
          properties: {
            scorer: ScorerName,
            community: Community,
            points: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
          },
        },
      },
    },
    async (request, reply) => {
      const { community = DEFAULT_COMMUNITY, points = 50 } = request.query;
      const instance = pickInstance(live, request.query.scorer);
      const sequence = live.sequence(community);
      try {
        const sampled = await history.history({ instance: instance.name, community, player: request.params.id, last: sequence, points });
        return { player: request.params.id, community, scorer: instance.name, sequence, points: sampled };
      } catch (error) {
        if (error instanceof HistoryClosingError) return reply.code(503).header('retry-after', '1').send({ error: 'SERVICE_STOPPING', message: error.message });
        if (!(error instanceof HistoryBusyError)) throw error;
        return reply.code(503).header('retry-after', '1').send({ error: 'HISTORY_BUSY', message: error.message, limit: error.limit });
      }
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/v1/players/:id',
    {
      config: { scope: 'admin' },
      schema: { summary: "Erase the player's events everywhere and recompute the communities they were in", tags: ['players'], params: PlayerParams },
    },
    async (request) => {
      const outcome = await live.erase(request.params.id);
      for (const community of outcome.communities) {
        views.forget(community);
        history.forget(community);
      }
      alerts.forget(request.params.id);
      request.log.info({ communities: outcome.communities, removed: outcome.removed, rewritten: outcome.rewritten }, 'player erased');
      return { player: request.params.id, ...outcome };
    },
  );
}
