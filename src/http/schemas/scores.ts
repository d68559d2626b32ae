/** A player's place in a ranking: the fields every scorer gives, and those only some give. */
import { Type, type Static, type TOptional, type TSchema } from '@sinclair/typebox';
import { registeredRowFields } from '../../scorers/index.js';
import type { RowField } from '../../scorers/module.js';
import { StringEnum } from './common.js';

/** A scorer's own fields of a row, by name: which there are depends on the scorer (src/scorers/<id>/index.ts, `rowFields`). */
export type ScorerFields = { readonly [field: string]: unknown };

/** A scorer's row field (src/scorers/module.ts) as JSON Schema. */
function fieldSchema(field: RowField): TSchema {
  const { description } = field;
  if (field.nullable === true) return Type.Union([Type.Number(), Type.Null()], { description });
  const bounds = { ...(field.minimum === undefined ? {} : { minimum: field.minimum }), ...(field.maximum === undefined ? {} : { maximum: field.maximum }) };
  if (field.type === 'string') return field.enum === undefined ? Type.String({ description }) : StringEnum(field.enum, { description });
  return field.type === 'integer' ? Type.Integer({ ...bounds, description }) : Type.Number({ ...bounds, description });
}

/** The fields of the registered scorers' rows beyond rank, player, score and community, in registry order. */
export const SCORER_FIELDS: Record<string, TOptional<TSchema>> = Object.fromEntries(
  registeredRowFields().map(([name, field]) => [name, Type.Optional(fieldSchema(field))]),
);

const RankRowSchema = Type.Object(
  {
    rank: Type.Integer({ minimum: 1 }),
    player: Type.String(),
    score: Type.Number(),
    community: Type.String(),
    ...SCORER_FIELDS,
  },
  { $id: 'RankRow', additionalProperties: false, description: "One player's row of a ranking, with the scorer's own fields" },
);
export const RankRow = Type.Unsafe<Static<typeof RankRowSchema> & ScorerFields>(RankRowSchema);
export type RankRow = Static<typeof RankRow>;

const PlayerScoreSchema = Type.Object(
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
export const PlayerScore = Type.Unsafe<Static<typeof PlayerScoreSchema> & ScorerFields>(PlayerScoreSchema);
export type PlayerScore = Static<typeof PlayerScore>;
