/**
 * GET /v1/rankings/:scorer — one scorer instance's ranking of one community, paged. `order=asc`
 * (default) starts at rank 1, `desc` at the last rank. For `trust`, `params=observers=a,b`
 * gives the ranking as those observers see it (a personal view with one observer), computed
 * on the live ratings without replaying anything. Iterative scorers (trust, reports) add how the
 * computation behind the ranking ended: `iterations`, `residual` and `converged`; and `warning`
 * when every score is the same for want of any input in force (trust: every rating expired).
 */
import type { FastifyInstance } from 'fastify';
import { pageOf } from '../paging.js';
import { DEFAULT_COMMUNITY } from '../../events/types.js';
import type { ComputationStats, RankRow } from '../../scorers/scorer.js';
import { trustView, type TrustState } from '../../scorers/trust/scorer.js';
import { scoreRange, sortedBy } from '../../service/ranking-order.js';
import type { HttpContext } from '../context.js';
import { IdParam } from '../ids.js';
import { parseParamsText, pickInstance } from '../instances.js';

interface RankingsQuery {
  community?: string;
  limit?: number;
  offset?: number;
  order?: 'asc' | 'desc';
  sort?: string;
  params?: string;
}

export const PageQuery = {
  community: { ...IdParam, description: 'community (default "default")' },
  limit: { type: 'integer', minimum: 1, maximum: 1000, default: 50 },
  offset: { type: 'integer', minimum: 0, default: 0 },
} as const;

function observerRows(state: TrustState, community: string, observers: readonly string[]): RankRow[] {
  const view = [...trustView(state, community, observers)];
  view.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return view.map(([player, score], i) => ({ rank: i + 1, player, score, community }));
}

export function rankingRoutes(app: FastifyInstance, { live, views }: HttpContext): void {
  app.get<{ Params: { scorer: string }; Querystring: RankingsQuery }>(
    '/v1/rankings/:scorer',
    {
      config: { scope: 'read' },
      schema: {
        summary: "A scorer instance's ranking of a community, paged",
        tags: ['rankings'],
        params: { type: 'object', properties: { scorer: { type: 'string', description: 'scorer id (cqr, reliability, chat, trust, reports) or instance name' } } },
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            ...PageQuery,
            order: { type: 'string', enum: ['asc', 'desc'], default: 'asc', description: 'asc: rank 1 (or the smallest value) first; desc: the other end first' },
            sort: { type: 'string', minLength: 1, default: 'rank', description: 'the column to order by: rank, player, score, or a scorer field such as confidence' },
            params: { type: 'string', description: 'pick the instance by parameters, e.g. T=8,x=10,k=4; for trust, observers=a,b' },
          },
        },
      },
    },
    async (request) => {
      const { community = DEFAULT_COMMUNITY, limit = 50, offset = 0, order = 'asc', sort = 'rank' } = request.query;
      const params = request.query.params === undefined ? {} : parseParamsText(request.query.params);
      const { observers, ...rest } = params;
      let rows: readonly RankRow[];
      let sequence: number;
      let name: string;
      let stats: Pick<ComputationStats, 'iterations' | 'residual' | 'converged' | 'warning'> | undefined;
      if (observers !== undefined && (request.params.scorer === 'trust' || live.instances.some((i) => i.name === request.params.scorer && i.scorer.id === 'trust'))) {
        const instance = pickInstance(live, request.params.scorer, rest);
        const list = observers.split(',').map((o) => o.trim()).filter((o) => o !== '');
        rows = observerRows(instance.state as TrustState, community, list);
        const result = (instance.state as TrustState).communities.get(community)?.compute(list); // the computation trustView made, cached
        if (result !== undefined) stats = { iterations: result.iterations, residual: result.residuals.at(-1) ?? 0, converged: result.converged };
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
    },
  );
}
