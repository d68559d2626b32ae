/**
 * What a player may see (scope `player-view`, or a player token bound to the player and the
 * community; docs/service.md#the-player-view): GET /v1/players/:id/standing, the player's own
 * view (../../service/player-view.ts), and GET /v1/players/:id/reports, what came of the reports
 * they filed (../../service/report-outcomes.ts); and POST /v1/player-tokens, with which a studio's
 * game server mints a token for one player (../../service/player-tokens.ts). The player's own
 * appeal is a moderation write (./moderation.ts, ownAppeal).
 */
import type { FastifyInstance } from 'fastify';
import { DEFAULT_COMMUNITY } from '../../events/types.js';
import { playerView } from '../../service/player-view.js';
import { reportOutcomes } from '../../service/report-outcomes.js';
import { verifiedKey } from '../auth.js';
import type { HttpContext } from '../context.js';
import { declared, register } from '../declared.js';
import { documented } from '../documented.js';
import { HttpProblem } from '../errors.js';
import { refuseSecondCommunity } from '../request-community.js';
import { PlayerTokenAnswer, PlayerView, PlayerViewQuery, REPORTS_LIMIT, ReportOutcomes, ReportsQuery, TokenBody, type ReportsQuery as ReportsQueryType, type TokenBody as TokenBodyType } from '../schemas/access.js';
import { refTo } from '../schemas/common.js';
import { answer } from '../schemas/errors.js';
import { PlayerParams } from '../schemas/players.js';

const WHO = 'A `player-view` key (a game server) may ask for any player of the communities it reaches; a player token only for its own player and community.';

export const PLAYER_VIEW_ROUTES = {
  standing: declared(
    'GET',
    '/v1/players/:id/standing',
    documented('player-view', {
      operationId: 'playerStanding',
      summary: "The player's own view: where they stand per scorer in plain words, their active sanctions with reason and end, what would improve their standing, and how to appeal",
      description: `Never another player's id, nor who reported or rated them, nor a moderator, note or piece of evidence. ${WHO}`,
      tags: ['players'],
      params: refTo(PlayerParams),
      querystring: refTo(PlayerViewQuery),
      response: { 200: answer(PlayerView, "the player's view") },
      errors: { 400: ['REQUEST_INVALID'], 404: ['NOT_FOUND'] },
    }),
  ),
  reports: declared(
    'GET',
    '/v1/players/:id/reports',
    documented('player-view', {
      operationId: 'reportOutcomes',
      summary: 'What came of the reports the player filed: acted, not acted or pending (never the sanction)',
      description: `Newest first, paged by \`before\`. ${WHO}`,
      tags: ['players'],
      params: refTo(PlayerParams),
      querystring: refTo(ReportsQuery),
      response: { 200: answer(ReportOutcomes, 'a page of the reports, newest first') },
      errors: { 400: ['REQUEST_INVALID'] },
    }),
  ),
  token: declared('POST', '/v1/player-tokens', {
    ...documented('player-view', {
      operationId: 'mintPlayerToken',
      summary: "Mint a short-lived token for one player of one community: their client may then read the player's view and reports and appeal their sanctions, and nothing else",
      description:
        'The key needs `player-view` and must reach the community. The token is signed by the service and checked without a store lookup; it cannot be revoked, so it lives at most playerTokens.maxSeconds. A player token cannot mint another (403).',
      tags: ['players'],
      body: refTo(TokenBody),
      response: { 201: answer(PlayerTokenAnswer, 'the token') },
      errors: { 400: ['REQUEST_INVALID', 'BODY_UNREADABLE'], 413: ['BODY_TOO_LARGE'], 415: ['BODY_UNREADABLE'] },
    }),
    preValidation: [refuseSecondCommunity],
  }),
};

/** What the player's view reads: the live engine, its views and the moderation book, the store's reports, the queue's bad tail. */
export type PlayerViewSources = Pick<HttpContext, 'live' | 'views' | 'moderation' | 'store' | 'queue'>;

/** GET /v1/players/:id/standing and GET /v1/players/:id/reports, over a live engine. */
export function playerViewRoutes(app: FastifyInstance, sources: PlayerViewSources): void {
  const { live, views, moderation, store } = sources;

  register<{ Params: { id: string }; Querystring: { community?: string } }>(app, PLAYER_VIEW_ROUTES.standing, async (request) => {
    const { community = DEFAULT_COMMUNITY } = request.query;
    await moderation.whenCurrent();
    const view = await playerView({ live, views, moderation, tailShare: sources.queue.tailShare }, community, request.params.id);
    if (view === undefined) throw new HttpProblem(404, 'NOT_FOUND', `nothing is known of player ${JSON.stringify(request.params.id)} in community ${JSON.stringify(community)}: no score, no sanction, no appeal`);
    return view;
  });

  register<{ Params: { id: string }; Querystring: ReportsQueryType }>(app, PLAYER_VIEW_ROUTES.reports, async (request) => {
    const { community = DEFAULT_COMMUNITY, limit = REPORTS_LIMIT.default, before } = request.query;
    await moderation.whenCurrent();
    return reportOutcomes(store, moderation, community, request.params.id, limit, before);
  });
}

/** POST /v1/player-tokens: needs no live engine, so `standing serve` and a cluster gateway answer it alike. */
export function playerTokenRoute(app: FastifyInstance, config: HttpContext['access']['playerTokens']): void {
  register<{ Body: TokenBodyType }>(app, PLAYER_VIEW_ROUTES.token, async (request, reply) => {
    const { player, community = DEFAULT_COMMUNITY, seconds = config.seconds } = request.body;
    if (seconds > config.maxSeconds) throw new HttpProblem(400, 'REQUEST_INVALID', `body/seconds is ${seconds}; a player token lives at most playerTokens.maxSeconds (${config.maxSeconds})`);
    const expiresAt = Date.now() + seconds * 1000;
    const token = app.playerTokens.mint({ player, community, expiresAt, key: verifiedKey(request)!.id });
    void reply.code(201);
    return { token, player, community, expiresAt };
  });
}
