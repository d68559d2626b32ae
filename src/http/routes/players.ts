/**
 * One player: every scorer instance's score and rank per community, the explanation of one
 * score, its history over event time, and erasure (admin).
 */
import type { FastifyInstance } from 'fastify';
import { pageOf } from '../paging.js';
import { DEFAULT_COMMUNITY } from '../../events/types.js';
import { erasedOrUnknown } from '../../service/erased-or-unknown.js';
import type { HttpContext } from '../context.js';
import { declared, register } from '../declared.js';
import { HttpProblem } from '../errors.js';
import { documented } from '../documented.js';
import { pickInstance } from '../instances.js';
import { mayReach } from '../access.js';
import { refTo } from '../schemas/common.js';
import { answer } from '../schemas/errors.js';
import {
  EXPLAIN_LIMIT,
  Erasure,
  ExplainQuery,
  Explanation,
  History,
  HistoryQuery,
  PlayerParams,
  PlayerQuery,
  PlayerScores,
  type ExplainQuery as ExplainQueryType,
  type HistoryQuery as HistoryQueryType,
} from '../schemas/players.js';

/** The list each scorer's explanation is made of, which `explain` pages. */
const EXPLAINED_LIST: Readonly<Record<string, string>> = { cqr: 'window', reliability: 'events', chat: 'senders', trust: 'ratings', reports: 'reportedBy' };

export const PLAYER_ROUTES = {
  player: declared(
    'GET',
    '/v1/players/:id',
    documented('read', {
      operationId: 'player',
      summary: "A player's score, rank and (reliability) band and confidence under every scorer instance, per community",
      tags: ['players'],
      params: refTo(PlayerParams),
      querystring: refTo(PlayerQuery),
      response: { 200: answer(PlayerScores, "the player's scores, per community") },
      errors: { 400: ['REQUEST_INVALID'], 404: ['NOT_FOUND'] },
    }, 'filtered'),
  ),
  explain: declared(
    'GET',
    '/v1/players/:id/explain',
    documented('read', {
      operationId: 'explain',
      summary: "The events, ratings, reports or messages that make up one of the player's scores",
      tags: ['players'],
      params: refTo(PlayerParams),
      querystring: refTo(ExplainQuery),
      response: { 200: answer(Explanation, "the scorer's explanation, its list paged") },
      errors: { 400: ['REQUEST_INVALID'], 404: ['NOT_FOUND'] },
    }),
  ),
  history: declared(
    'GET',
    '/v1/players/:id/history',
    documented('read', {
      operationId: 'history',
      summary:
        "The player's score and rank over event time: a replay of the community's log on a history thread, sampled at evenly spaced events; 503 HISTORY_BUSY while maxHistoryJobs replays run",
      tags: ['players'],
      params: refTo(PlayerParams),
      querystring: refTo(HistoryQuery),
      response: { 200: answer(History, 'the score and rank at up to `points` evenly spaced events') },
      errors: { 400: ['REQUEST_INVALID'], 404: ['NOT_FOUND'], 503: ['HISTORY_BUSY', 'SERVICE_STOPPING'] },
    }),
  ),
  // A cluster's gateway erases its own way (../../cluster/gateway-erase.ts).
  erase: declared(
    'DELETE',
    '/v1/players/:id',
    documented('admin', {
      operationId: 'erase',
      summary: "Erase the player's events everywhere and recompute the communities they were in",
      tags: ['players'],
      params: refTo(PlayerParams),
      response: { 200: answer(Erasure, 'the player is erased') },
      errors: { 400: ['REQUEST_INVALID', 'BODY_UNREADABLE'], 404: ['NOT_FOUND'], 413: ['BODY_TOO_LARGE'], 415: ['BODY_UNREADABLE'], 503: ['STORE_BUSY'] },
    }, 'every'),
  ),
};

/** What the player routes read, and what an erasure forgets: the live engine, its views and history replays, open alerts, the moderation book. */
export type PlayerSources = Pick<HttpContext, 'live' | 'views' | 'alerts' | 'history' | 'moderation'>;

export function playerRoutes(app: FastifyInstance, sources: PlayerSources, queue?: { forget(community: string): void }): void {
  const { live, views, alerts, history, moderation } = sources;

  register<{ Params: { id: string }; Querystring: { community?: string } }>(app, PLAYER_ROUTES.player, async (request) => {
    const player = request.params.id;
    // A key restricted to communities reads the player in those only (../access.ts).
    const communities = request.query.community === undefined ? live.communities().filter((c) => mayReach(request, c)) : [request.query.community];
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
  });

  register<{ Params: { id: string }; Querystring: ExplainQueryType }>(app, PLAYER_ROUTES.explain, async (request) => {
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
  });

  // HistoryBusyError and HistoryClosingError are answered 503 by ../errors.ts.
  register<{ Params: { id: string }; Querystring: HistoryQueryType }>(app, PLAYER_ROUTES.history, async (request) => {
    const { community = DEFAULT_COMMUNITY, points = 50 } = request.query;
    const instance = pickInstance(live, request.query.scorer);
    const sequence = live.sequence(community);
    const sampled = await history.history({ instance: instance.name, community, player: request.params.id, last: sequence, points });
    return { player: request.params.id, community, scorer: instance.name, sequence, points: sampled };
  });

  register<{ Params: { id: string } }>(app, PLAYER_ROUTES.erase, async (request) => {
    const outcome = erasedOrUnknown(request.params.id, await live.erase(request.params.id));
    // The moderation book rebuilds the communities after the erasure: answer once it has, so
    // nothing read after the answer (a case, the queue, a retried action) sees the erased player.
    await moderation.whenCurrent();
    for (const community of outcome.communities) {
      views.forget(community);
      history.forget(community);
      queue?.forget(community);
    }
    alerts.forget(request.params.id);
    request.log.info({ communities: outcome.communities, removed: outcome.removed, rewritten: outcome.rewritten }, 'player erased');
    return { player: request.params.id, ...outcome };
  });
}
