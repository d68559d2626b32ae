/** The player routes: scores, explanation, history, erasure. */
import { Type, type Static } from '@sinclair/typebox';
import { FreeObject, Id, ORDERS, refTo, StringEnum } from './common.js';
import { PlayerScore } from './scores.js';

export const PlayerParams = Type.Object({ id: Id('the player id, percent-encoded') }, { $id: 'PlayerParams' });

export const PlayerQuery = Type.Object(
  { community: Type.Optional(Id('one community (default: every community the player is ranked in)')) },
  { $id: 'PlayerQuery', additionalProperties: false },
);
export type PlayerQuery = Static<typeof PlayerQuery>;

export const PlayerScores = Type.Object(
  {
    player: Type.String(),
    communities: Type.Array(Type.Object({ community: Type.String(), scores: Type.Array(refTo(PlayerScore)) }, { additionalProperties: false })),
  },
  { $id: 'PlayerScores', additionalProperties: false },
);
export type PlayerScores = Static<typeof PlayerScores>;

const ScorerName = Type.String({ minLength: 1, description: 'scorer id or instance name' });

export const EXPLAIN_LIMIT = { default: 100, maximum: 1000 } as const;

export const ExplainQuery = Type.Object(
  {
    scorer: ScorerName,
    community: Type.Optional(Id()),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: EXPLAIN_LIMIT.maximum, default: EXPLAIN_LIMIT.default, description: "entries of the explanation's list in one answer" })),
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'entries to skip, from the end the order starts at' })),
    order: Type.Optional(StringEnum(ORDERS, { default: 'asc', description: "asc: from the list's first entry; desc: from its last, last first" })),
  },
  { $id: 'ExplainQuery', additionalProperties: false },
);
export type ExplainQuery = Static<typeof ExplainQuery>;

export const Explanation = Type.Object(
  {
    player: Type.String(),
    community: Type.String(),
    scorer: Type.String({ description: 'the scorer instance name' }),
    sequence: Type.Integer({ minimum: 0, description: 'the community sequence the explanation reflects' }),
    page: Type.Optional(
      Type.Object(
        {
          list: Type.String({ description: 'the paged list: cqr window, reliability events, chat senders, trust ratings, reports reportedBy' }),
          total: Type.Integer({ minimum: 0, description: 'entries the list holds in all' }),
          offset: Type.Integer({ minimum: 0 }),
          limit: Type.Integer({ minimum: 1 }),
          order: StringEnum(ORDERS),
        },
        { additionalProperties: false, description: 'which entries of the list this answer holds' },
      ),
    ),
    explanation: FreeObject("the scorer's explanation of the score (its fields depend on the scorer), its list paged"),
  },
  { $id: 'Explanation', additionalProperties: false },
);
export type Explanation = Static<typeof Explanation>;

export const HistoryQuery = Type.Object(
  {
    scorer: ScorerName,
    community: Type.Optional(Id()),
    points: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  },
  { $id: 'HistoryQuery', additionalProperties: false },
);
export type HistoryQuery = Static<typeof HistoryQuery>;

export const HistoryPoint = Type.Object(
  {
    sequence: Type.Integer({ minimum: 0 }),
    time: Type.Number({ description: "the community's clock at that sequence: the latest event time up to it, epoch ms" }),
    score: Type.Union([Type.Number(), Type.Null()], { description: 'null before the scorer knew the player' }),
    rank: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  },
  { $id: 'HistoryPoint', additionalProperties: false },
);
export type HistoryPoint = Static<typeof HistoryPoint>;

export const History = Type.Object(
  {
    player: Type.String(),
    community: Type.String(),
    scorer: Type.String({ description: 'the scorer instance name' }),
    sequence: Type.Integer({ minimum: 0, description: 'the community sequence the history runs to' }),
    points: Type.Array(refTo(HistoryPoint)),
  },
  { $id: 'History', additionalProperties: false },
);
export type History = Static<typeof History>;

export const Erasure = Type.Object(
  {
    player: Type.String(),
    communities: Type.Array(Type.String(), { description: 'communities whose log changed, recomputed' }),
    removed: Type.Integer({ minimum: 0, description: 'events removed' }),
    rewritten: Type.Integer({ minimum: 0, description: 'events rewritten without the player' }),
  },
  { $id: 'Erasure', additionalProperties: false },
);
export type Erasure = Static<typeof Erasure>;

/** A cluster gateway's 202 to DELETE /v1/players/:id: some partitions' owners did not report within its wait. */
export const ErasurePending = Type.Object(
  {
    player: Type.String(),
    erased: Type.Literal(false, { description: 'not every partition has reported erasing the player yet; their owners will when they reach the command' }),
    pending: Type.Array(Type.Integer({ minimum: 0 }), { description: 'partitions whose owner did not report the erasure within the wait' }),
  },
  { additionalProperties: false },
);
export type ErasurePending = Static<typeof ErasurePending>;
