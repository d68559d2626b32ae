/**
 * GET /v1/rankings/:scorer — one scorer instance's ranking of one community, paged. `order=asc`
 * (default) starts at rank 1, `desc` at the last rank. For `trust`, `params=observers=a,b`
 * gives the ranking as those observers see it (a personal view with one observer), computed
 * on the live ratings without replaying anything: the rows `standing rank trust --set
 * observers=a,b` gives, the observers left out. Iterative scorers (trust, reports) add how the
 * computation behind the ranking ended: `iterations`, `residual` and `converged`; and `warning`
 * when every score is the same for want of any input in force (trust: every rating expired;
 * reports: no report gives anyone bad-player points).
 */
import type { FastifyInstance } from 'fastify';
import { pageOf } from '../paging.js';
import { DEFAULT_COMMUNITY } from '../../events/types.js';
import type { ComputationStats, RankRow } from '../../scorers/scorer.js';
import { trustParams } from '../../scorers/trust/params.js';
import { trustRanking, trustStats, type TrustState } from '../../scorers/trust/scorer.js';
import { scoreRange, sortedBy } from '../../service/ranking-order.js';
import type { HttpContext } from '../context.js';
import { declared, register } from '../declared.js';
import { documented } from '../documented.js';
import { parseParamsText, pickInstance } from '../instances.js';
import { refTo } from '../schemas/common.js';
import { answer } from '../schemas/errors.js';
import { Ranking, RankingParams, RankingQuery, type RankingQuery as RankingQueryType } from '../schemas/rankings.js';

export const RANKING_ROUTES = {
  ranking: declared(
    'GET',
    '/v1/rankings/:scorer',
    documented('read', {
      operationId: 'ranking',
      summary: "A scorer instance's ranking of a community, paged",
      tags: ['rankings'],
      params: refTo(RankingParams),
      querystring: refTo(RankingQuery),
      response: { 200: answer(Ranking, 'one page of the ranking') },
      errors: { 400: ['REQUEST_INVALID', 'PARAMETER_INVALID'], 404: ['NOT_FOUND'] },
    }),
  ),
};

/** What the ranking route reads: the configured instances and their live state, and the views over them. */
export type RankingSources = Pick<HttpContext, 'live' | 'views'>;

export function rankingRoutes(app: FastifyInstance, { live, views }: RankingSources): void {
  register<{ Params: { scorer: string }; Querystring: RankingQueryType }>(app, RANKING_ROUTES.ranking, async (request) => {
    const { community = DEFAULT_COMMUNITY, limit = 50, offset = 0, order = 'asc', sort = 'rank' } = request.query;
    const params = request.query.params === undefined ? {} : parseParamsText(request.query.params);
    const { observers, ...rest } = params;
    let rows: readonly RankRow[];
    let sequence: number;
    let name: string;
    let stats: Pick<ComputationStats, 'iterations' | 'residual' | 'converged' | 'warning'> | undefined;
    if (observers !== undefined && (request.params.scorer === 'trust' || live.instances.some((i) => i.name === request.params.scorer && i.scorer.id === 'trust'))) {
      const instance = pickInstance(live, request.params.scorer, rest);
      const list = trustParams.resolve({ observers }).observers; // read as --set observers=… reads them
      const state = instance.state as TrustState;
      rows = trustRanking(state, community, list);
      stats = trustStats(state, community, list)[0]; // the computation trustRanking made, cached
      sequence = live.sequence(community);
      name = `${instance.name} (observers=${observers})`;
    } else {
      const instance = pickInstance(live, request.params.scorer, params);
      const view = views.ranking(instance, community);
      rows = view.rows;
      sequence = view.sequence;
      stats = view.stats;
      name = instance.name;
    }
    const sorted = sortedBy(rows, sort);
    const page = pageOf(sorted, offset, limit, order);
    const { min, max } = scoreRange(rows);
    const convergence = stats === undefined ? {} : { iterations: stats.iterations, residual: stats.residual, converged: stats.converged, ...(stats.warning === undefined ? {} : { warning: stats.warning }) };
    return { scorer: name, community, sequence, ...convergence, total: rows.length, offset, limit, order, sort, range: { min, max }, rows: page };
  });
}
