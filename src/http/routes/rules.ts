/**
 * GET /v1/rules — the moderation rules the service runs and, in one community, how each runs there
 * (live, dry-run or paused, and who set it, when and why) and what each did: its actions, players,
 * escalations, its breaker, and its precision and recall against people's verdicts
 * (docs/moderation.md#rules). Scope `moderate`.
 *
 * POST /v1/rules/:name/state — a senior moderator sets how a configured rule runs in a community
 * (docs/moderation.md#rule-states): recorded as a `rule` moderator event, as the moderation
 * actions record theirs (../routes/moderation.ts: `time`, `moderator` and `moderatorKey` set
 * here, an `id` already recorded answered 200 with the stored event). A name no configured rule
 * has is refused 404. Scope `senior`.
 */
import type { FastifyInstance } from 'fastify';
import { DEFAULT_COMMUNITY } from '../../events/types.js';
import { reportRules } from '../../moderation/rules/report.js';
import type { HttpContext } from '../context.js';
import { declared, register } from '../declared.js';
import { documented } from '../documented.js';
import { HttpProblem } from '../errors.js';
import { refuseSecondCommunity } from '../request-community.js';
import { refTo } from '../schemas/common.js';
import { answer } from '../schemas/errors.js';
import { Recorded } from '../schemas/moderation.js';
import {
  RuleList,
  RuleParams,
  RulesQuery,
  RuleStateBody,
  type RuleList as RuleListType,
  type RuleParams as RuleParamsType,
  type RulesQuery as RulesQueryType,
  type RuleStateBody as RuleStateBodyType,
} from '../schemas/rules.js';
import { refuseModerator, type ModerationActions } from './moderation.js';

export const RULE_ROUTES = {
  rules: declared(
    'GET',
    '/v1/rules',
    documented('moderate', {
      operationId: 'rules',
      summary: 'The moderation rules, how each runs in a community and what each did there: actions, players, escalations, breaker, precision and recall',
      tags: ['moderation'],
      querystring: refTo(RulesQuery),
      response: { 200: answer(RuleList, 'every configured rule, in the configuration\u2019s order') },
      errors: { 400: ['REQUEST_INVALID'] },
    }),
  ),
  ruleState: declared('POST', '/v1/rules/:name/state', {
    ...documented('senior', {
      operationId: 'setRuleState',
      summary: 'Set how a configured rule runs in a community: live, dry-run or paused',
      description:
        "Recorded as a `rule` moderator event in the community's log, so every node, a restart and a backtest apply it alike, from its place in the log: `paused` is not evaluated, `dry-run` only proposes what it would do, `live` acts as configured and ends a circuit breaker's pause early. The rule's definition stays in the configuration. 404 when no configured rule has the name. The service sets `time` (now), `moderator` (the key's label, or its id when the label is empty) and `moderatorKey` (the key's id); a body naming either is refused. The community is the body's `community` (default `default`); a query string naming another is refused (400).",
      tags: ['moderation'],
      params: refTo(RuleParams),
      body: refTo(RuleStateBody),
      response: { 201: answer(Recorded, 'recorded'), 200: answer(Recorded, 'already recorded under this id: the stored event') },
      errors: { 400: ['REQUEST_INVALID', 'BODY_UNREADABLE'], 404: ['NOT_FOUND'], 409: ['MODERATION_CONFLICT'], 413: ['BODY_TOO_LARGE'], 415: ['BODY_UNREADABLE'], 503: ['STORE_BUSY'] },
    }),
    preValidation: [refuseModerator, refuseSecondCommunity],
  }),
};

export function ruleRoutes(app: FastifyInstance, { live }: Pick<HttpContext, 'live'>, actions: ModerationActions): void {
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
        const change = state?.states.get(rule.name);
        return {
          ...report,
          dryRun,
          windowHours: rule.windowHours,
          breaker: { ...rule.breaker },
          ladder: [...rule.ladder],
          ...(paused[0] === undefined ? {} : { paused: { since: paused[0].since, until: paused[0].until } }),
          state: change?.state ?? 'live',
          ...(change === undefined ? {} : { stateChange: { ...change } }),
          failures: stage.failuresOf(community, rule.name),
        };
      }),
    };
  });

  register<{ Params: RuleParamsType; Body: RuleStateBodyType }>(app, RULE_ROUTES.ruleState, async (request, reply) => {
    const { community = DEFAULT_COMMUNITY, id, state, reason } = request.body;
    const { name } = request.params;
    return actions.run(reply, { community, id, player: undefined }, async () => {
      const configured = live.rules?.rules.list.map((rule) => rule.name) ?? [];
      if (!configured.includes(name)) {
        throw new HttpProblem(404, 'NOT_FOUND', `no configured rule is named ${JSON.stringify(name)} (configured: ${configured.length === 0 ? 'none' : configured.map((n) => JSON.stringify(n)).join(', ')}); rules are defined in the configuration`);
      }
      return actions.record(request, community, id, { type: 'rule', rule: name, state, reason }, undefined);
    });
  });
}
