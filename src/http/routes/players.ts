/**
 * One player: every scorer instance's score and rank per community, the explanation of one
 * score, its history over event time, and erasure (admin).
 */
import type { FastifyInstance } from 'fastify';
import { DEFAULT_COMMUNITY } from '../../events/types.js';
import { scoreHistory } from '../../service/history.js';
import type { HttpContext } from '../context.js';
import { HttpProblem } from '../errors.js';
import { IdParam } from '../ids.js';
import { pickInstance } from '../instances.js';

const PlayerParams = { type: 'object', properties: { id: IdParam } } as const;
const Community = IdParam;
const ScorerName = { type: 'string', minLength: 1, description: 'scorer id or instance name' } as const;

export function playerRoutes(app: FastifyInstance, context: HttpContext): void {
  const { live, views, alerts, store, quality } = context;

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

  app.get<{ Params: { id: string }; Querystring: { scorer: string; community?: string } }>(
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
          properties: { scorer: ScorerName, community: Community },
        },
      },
    },
    async (request) => {
      const { community = DEFAULT_COMMUNITY } = request.query;
      const instance = pickInstance(live, request.query.scorer);
      const explanation = instance.scorer.explain(instance.state, community, request.params.id);
      if (explanation === undefined) throw new HttpProblem(404, 'NOT_FOUND', `${instance.name} has nothing on player "${request.params.id}" in community "${community}"`);
      return { player: request.params.id, community, scorer: instance.name, sequence: live.sequence(community), explanation };
    },
  );

  app.get<{ Params: { id: string }; Querystring: { scorer: string; community?: string; points?: number } }>(
    '/v1/players/:id/history',
    {
      config: { scope: 'read' },
      schema: {
        summary: "The player's score over event time (a replay of the community's log, sampled at evenly spaced events)",
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
    async (request) => {
      const { community = DEFAULT_COMMUNITY, points = 50 } = request.query;
      const instance = pickInstance(live, request.query.scorer);
      const history = await scoreHistory(store, instance, quality, community, request.params.id, live.sequence(community), points);
      return { player: request.params.id, community, scorer: instance.name, points: history };
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
      for (const community of outcome.communities) views.forget(community);
      alerts.forget(request.params.id);
      request.log.info({ communities: outcome.communities, removed: outcome.removed, rewritten: outcome.rewritten }, 'player erased');
      return { player: request.params.id, ...outcome };
    },
  );
}
