/** POST /v1/moderation/bulk: one verdict or sanction for several players (docs/service.md#bulk-actions). */
import { Type, type Static } from '@sinclair/typebox';
import { MAX_MODERATOR_TEXT_LENGTH } from '../../events/limits.js';
import { FreeObject, Id, NO_NUL, refTo, StringEnum } from './common.js';

/** The most players one bulk request names. */
export const MAX_BULK_PLAYERS = 100;
/** The longest bulk request id: each player's event id is `<bulk id>:<32 hex digits>`, within the 128 an id may have. */
export const MAX_BULK_ID_LENGTH = 64;

export const BulkBody = Type.Object(
  {
    community: Type.Optional(Id('default "default"')),
    id: Type.String({
      minLength: 1,
      maxLength: MAX_BULK_ID_LENGTH,
      pattern: NO_NUL,
      description: "the bulk request's id (required): each player's event id is made from it and the player, so the request sent again records nothing twice",
    }),
    players: Type.Array(Id('a player id'), { minItems: 1, maxItems: MAX_BULK_PLAYERS, description: `the players, each once: at most ${MAX_BULK_PLAYERS}` }),
    type: StringEnum(['verdict', 'sanction'] as const, { description: 'a verdict on each player, or a sanction of each' }),
    outcome: Type.Optional(StringEnum(['upheld', 'dismissed'] as const, { description: 'verdict only (required there)' })),
    action: Type.Optional(StringEnum(['warn', 'mute', 'suspend', 'ban'] as const, { description: 'sanction only (required there); a lift names one sanction of one player, so it has no bulk form' })),
    until: Type.Optional(Type.Union([Type.Number(), Type.String()], { description: 'sanction only: when it ends, ISO-8601 with a zone or epoch ms; required for suspend, optional for mute, refused otherwise' })),
    reason: Type.String({ minLength: 1, maxLength: MAX_MODERATOR_TEXT_LENGTH, pattern: NO_NUL, description: 'why, for the players and the other moderators (not blank); the same for every player' }),
  },
  { $id: 'BulkBody', additionalProperties: false },
);
export type BulkBody = Static<typeof BulkBody>;

export const BulkResult = Type.Object(
  {
    player: Type.String(),
    sequence: Type.Integer({ minimum: 1, description: "the event's sequence in its community" }),
    duplicate: Type.Boolean({ description: 'true when an earlier sending of the request recorded it: `event` is the one stored then' }),
    event: FreeObject('the moderator event as stored, its `bulk` the request id'),
  },
  { $id: 'BulkResult', additionalProperties: false },
);

export const BulkRecorded = Type.Object(
  {
    community: Type.String(),
    id: Type.String({ description: "the bulk request's id" }),
    recorded: Type.Integer({ minimum: 0, description: 'events recorded by this request' }),
    duplicates: Type.Integer({ minimum: 0, description: 'events an earlier sending of it recorded' }),
    results: Type.Array(refTo(BulkResult), { description: 'one per player, in the order of `players`' }),
  },
  { $id: 'BulkRecorded', additionalProperties: false },
);
export type BulkRecorded = Static<typeof BulkRecorded>;
