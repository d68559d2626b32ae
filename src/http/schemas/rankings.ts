/** GET /v1/rankings/:scorer: what it takes and answers. */
import { Type, type Static } from '@sinclair/typebox';
import { Id, ORDERS, refTo, StringEnum } from './common.js';
import { RankRow } from './scores.js';

export const RankingParams = Type.Object(
  { scorer: Type.String({ description: 'scorer id (cqr, reliability, chat, trust, reports) or instance name, percent-encoded' }) },
  { $id: 'RankingParams' },
);

export const RankingQuery = Type.Object(
  {
    community: Type.Optional(Id('community (default "default")')),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
    order: Type.Optional(StringEnum(ORDERS, { default: 'asc', description: 'asc: rank 1 (or the smallest value) first; desc: the other end first' })),
    sort: Type.Optional(Type.String({ minLength: 1, default: 'rank', description: 'the column to order by: rank, player, score, or a scorer field such as confidence' })),
    params: Type.Optional(Type.String({ description: 'pick the instance by parameters, e.g. T=8,x=10,k=4; for trust, observers=a,b' })),
  },
  { $id: 'RankingQuery', additionalProperties: false },
);
export type RankingQuery = Static<typeof RankingQuery>;

export const Ranking = Type.Object(
  {
    scorer: Type.String({ description: 'the scorer instance name (with "(observers=…)" for a view through observers)' }),
    community: Type.String(),
    sequence: Type.Integer({ minimum: 0, description: 'the community sequence the ranking reflects' }),
    iterations: Type.Optional(Type.Integer({ minimum: 0, description: 'trust and reports: iterations the computation ran' })),
    residual: Type.Optional(Type.Number({ description: 'trust and reports: the final residual' })),
    converged: Type.Optional(Type.Boolean({ description: 'trust and reports: whether the computation reached its tolerance' })),
    warning: Type.Optional(Type.String({ description: 'set when every score is the same for want of any input in force (trust: no rating in force reaches from the observers; reports: no report gives anyone bad-player points)' })),
    total: Type.Integer({ minimum: 0, description: 'players ranked' }),
    offset: Type.Integer({ minimum: 0 }),
    limit: Type.Integer({ minimum: 1 }),
    order: StringEnum(ORDERS),
    sort: Type.String(),
    range: Type.Object({ min: Type.Number(), max: Type.Number() }, { additionalProperties: false, description: 'the smallest and largest score of the community (0 and 0 with no players)' }),
    rows: Type.Array(refTo(RankRow)),
  },
  { $id: 'Ranking', additionalProperties: false },
);
export type Ranking = Static<typeof Ranking>;
