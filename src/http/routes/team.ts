/**
 * GET /v1/team (scope `moderate`): the team figures of one community — decisions per moderator,
 * the wait from entering the queue to a decision, appeals granted against each moderator's
 * sanctions, rule firings and how many were overturned, the queue's length and waits so far
 * (docs/moderation.md#team-figures). The same figures, over every community, are in /metrics
 * (../team-metrics.ts).
 */
import type { FastifyInstance } from 'fastify';
import { DEFAULT_COMMUNITY } from '../../events/types.js';
import { teamAnswer } from '../team-answer.js';
import type { TeamFigures } from '../../service/team.js';
import type { HttpContext } from '../context.js';
import { declared, register } from '../declared.js';
import { documented } from '../documented.js';
import { refTo } from '../schemas/common.js';
import { answer } from '../schemas/errors.js';
import { TEAM_LIMIT, TeamFiguresAnswer, TeamQuery, type TeamQuery as TeamQueryType } from '../schemas/team.js';

export const TEAM_ROUTES = {
  team: declared(
    'GET',
    '/v1/team',
    documented('moderate', {
      operationId: 'team',
      summary: "A community's team figures: decisions per moderator, waits from entering the queue to a decision, appeals granted against each moderator's sanctions, rule firings and overturns, the queue's length and age",
      description:
        "Derived from the community's moderation record and the reports its players received, so the same log gives the same figures (docs/moderation.md#team-figures). Times are event times; waits are in seconds.",
      tags: ['moderation'],
      querystring: refTo(TeamQuery),
      response: { 200: answer(TeamFiguresAnswer, "the community's team figures") },
      errors: { 400: ['REQUEST_INVALID'] },
    }),
  ),
};

export function teamRoutes(app: FastifyInstance, { moderation }: Pick<HttpContext, 'moderation'>, team: TeamFigures): void {
  register<{ Querystring: TeamQueryType }>(app, TEAM_ROUTES.team, async (request) => {
    const { community = DEFAULT_COMMUNITY, limit = TEAM_LIMIT.default } = request.query;
    await moderation.whenCurrent();
    return teamAnswer(team.of(community), limit);
  });
}
