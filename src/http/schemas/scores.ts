/** A player's place in a ranking: the fields every scorer gives, and those only some give. */
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './common.js';

/** The fields of a scorer's rows beyond rank, player, score and community, by scorer. */
export const SCORER_FIELDS = {
  actions: Type.Optional(Type.Integer({ minimum: 0, description: 'cqr: actions seen for the player, filtered or not' })),
  confidence: Type.Optional(Type.Integer({ minimum: 0, description: 'reliability: scored events kept' })),
  band: Type.Optional(StringEnum(['green', 'yellow', 'orange', 'red'] as const, { description: 'reliability: the band of the score' })),
  bar: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'reliability: bar length' })),
  sent: Type.Optional(Type.Number({ minimum: 0, description: 'chat: messages sent, a message to M receivers counting M' })),
  received: Type.Optional(Type.Number({ minimum: 0, description: 'chat: messages received' })),
  ratings: Type.Optional(Type.Integer({ minimum: 0, description: 'trust: live ratings the player has received' })),
  rating: Type.Optional(Type.Union([Type.Number(), Type.Null()], { description: "trust with one observer: that observer's own rating of the player (null: none)" })),
  reported: Type.Optional(Type.Integer({ minimum: 0, description: 'reports: reports the player received (its score is built from them)' })),
  jp: Type.Optional(Type.Number({ description: 'reports: judgment points (score is the bad-player points)' })),
  games: Type.Optional(Type.Integer({ minimum: 0, description: 'reports: games played' })),
  reports: Type.Optional(Type.Integer({ minimum: 0, description: 'reports: reports the player made' })),
} as const;

export const RankRow = Type.Object(
  {
    rank: Type.Integer({ minimum: 1 }),
    player: Type.String(),
    score: Type.Number(),
    community: Type.String(),
    ...SCORER_FIELDS,
  },
  { $id: 'RankRow', additionalProperties: false, description: "One player's row of a ranking, with the scorer's own fields" },
);
export type RankRow = Static<typeof RankRow>;

export const PlayerScore = Type.Object(
  {
    scorer: Type.String({ description: 'the scorer instance name' }),
    scorerId: Type.String({ description: 'the scorer id (cqr, reliability, chat, trust, reports)' }),
    rank: Type.Integer({ minimum: 1 }),
    score: Type.Number(),
    of: Type.Integer({ minimum: 1, description: 'players ranked in the community' }),
    sequence: Type.Integer({ minimum: 0, description: 'the community sequence the ranking reflects' }),
    ...SCORER_FIELDS,
  },
  { $id: 'PlayerScore', additionalProperties: false, description: "A player's score and rank under one scorer instance, with the scorer's own fields" },
);
export type PlayerScore = Static<typeof PlayerScore>;
