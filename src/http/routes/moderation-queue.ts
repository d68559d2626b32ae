/**
 * GET /v1/queue — the attention queue of one community, paged — and GET /v1/players/:id/case —
 * everything a moderator needs to judge one player. Both need the `moderate` scope.
 */
import type { FastifyInstance } from 'fastify';
import { DEFAULT_COMMUNITY } from '../../events/types.js';
import { AttentionQueue } from '../../service/attention.js';
import type { HttpContext } from '../context.js';
import { declared, register } from '../declared.js';
import { documented } from '../documented.js';
import { HttpProblem } from '../errors.js';
import { refTo } from '../schemas/common.js';
import { answer } from '../schemas/errors.js';
import { CaseQuery, PlayerCase, Queue, QUEUE_LIMIT, QueueQuery, type CaseQuery as CaseQueryType, type QueueQuery as QueueQueryType } from '../schemas/moderation-queue.js';
import { PlayerParams } from '../schemas/players.js';

export const QUEUE_ROUTES = {
  queue: declared(
    'GET',
    '/v1/queue',
    documented('moderate', {
      operationId: 'queue',
      summary: 'The attention queue: the players of a community who most need a look, each with why in plain words',
      tags: ['moderation'],
      querystring: refTo(QueueQuery),
      response: { 200: answer(Queue, 'one page of the queue, the most attention first') },
      errors: { 400: ['REQUEST_INVALID'] },
    }),
  ),
  case: declared(
    'GET',
    '/v1/players/:id/case',
    documented('moderate', {
      operationId: 'case',
      summary: "A player's case: every score with what good and bad mean, the queue's reasons, the moderation record, open alerts, dated evidence, and who claimed it",
      tags: ['moderation'],
      params: refTo(PlayerParams),
      querystring: refTo(CaseQuery),
      response: { 200: answer(PlayerCase, "the player's case") },
      errors: { 400: ['REQUEST_INVALID'], 404: ['NOT_FOUND'] },
    }),
  ),
};

/** What the queue and the case fuse: the ranking views, open alerts and moderation record, with the queue's weights. */
export type QueueSources = Pick<HttpContext, 'live' | 'views' | 'alerts' | 'store' | 'queue' | 'moderation'>;

/** Registers the routes; the queue they share is returned (erasure forgets a community's). */
export function queueRoutes(app: FastifyInstance, sources: QueueSources): AttentionQueue {
  const queue = new AttentionQueue(sources.live, sources.views, sources.alerts, sources.store, sources.queue, sources.moderation);

  register<{ Querystring: QueueQueryType }>(app, QUEUE_ROUTES.queue, async (request) => {
    const { community = DEFAULT_COMMUNITY, limit = QUEUE_LIMIT.default, offset = 0 } = request.query;
    return queue.page(community, offset, limit);
  });

  register<{ Params: { id: string }; Querystring: CaseQueryType }>(app, QUEUE_ROUTES.case, async (request) => {
    const { community = DEFAULT_COMMUNITY } = request.query;
    const found = await queue.case(community, request.params.id);
    if (found === undefined) throw new HttpProblem(404, 'NOT_FOUND', `nothing is known of player "${request.params.id}" in community "${community}": no score, no moderation record, no open alert`);
    const claim = await sources.store.caseClaim(community, request.params.id, Date.now());
    const waiting = sources.moderation.secondOpinion(community, request.params.id);
    return { ...found, ...(claim === undefined ? {} : { claim }), ...(waiting === undefined ? {} : { secondOpinion: { rule: waiting.rule, dismissedBy: [...waiting.dismissedBy] } }) };
  });
  return queue;
}
