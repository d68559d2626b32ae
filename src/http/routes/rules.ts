/**
 * GET /v1/rules — the moderation rules the service runs and, in one community, what each did:
 * its actions, players, escalations, its breaker, and its precision and recall against people's
 * verdicts (docs/moderation.md#rules). Scope `moderate`.
 */
import type { FastifyInstance } from 'fastify';
import { DEFAULT_COMMUNITY } from '../../events/types.js';
import { reportRules } from '../../moderation/rules/report.js';
import type { HttpContext } from '../context.js';
import { declared, register } from '../declared.js';
import { documented } from '../documented.js';
import { refTo } from '../schemas/common.js';
import { answer } from '../schemas/errors.js';
import { RuleList, RulesQuery, type RuleList as RuleListType, type RulesQuery as RulesQueryType } from '../schemas/rules.js';

export const RULE_ROUTES = {
  rules: declared(
    'GET',
    '/v1/rules',
    documented('moderate', {
      operationId: 'rules',
      summary: 'The moderation rules and what each did in a community: actions, players, escalations, breaker, precision and recall',
      tags: ['moderation'],
      querystring: refTo(RulesQuery),
      response: { 200: answer(RuleList, 'every configured rule, in the configuration\u2019s order') },
      errors: { 400: ['REQUEST_INVALID'] },
    }),
  ),
};

export function ruleRoutes(app: FastifyInstance, { live }: Pick<HttpContext, 'live'>): void {
  register<{ Querystring: RulesQueryType }>(app, RULE_ROUTES.rules, async (request): Promise<RuleListType> => {
    const { community = DEFAULT_COMMUNITY } = request.query;
    const stage = live.rules;
    const sequence = live.sequence(community);
    if (stage === undefined) return { community, sequence, intervalMinutes: 0, rules: [] };
    const state = stage.stateOf(community);
    const reports = reportRules(stage.rules.list, state === undefined ? new Map() : new Map([[community, state]]));
    return {
      community,
      sequence,
      intervalMinutes: stage.rules.intervalMs / 60_000,
      rules: stage.rules.list.map((rule, i) => {
        const { paused, dryRun, ...report } = reports[i]!;
        return {
          ...report,
          dryRun,
          windowHours: rule.windowHours,
          breaker: { ...rule.breaker },
          ladder: [...rule.ladder],
          ...(paused[0] === undefined ? {} : { paused: { since: paused[0].since, until: paused[0].until } }),
          failures: stage.failuresOf(community, rule.name),
        };
      }),
    };
  });
}
