/**
 * JSON Schemas (TypeBox) of the docs/spec.md §1 event payloads, one per type. The common fields `time`,
 * `id` and `community` are checked in validate.ts; extra fields are allowed.
 *
 * Written as a function of TypeBox's `Type` so that nothing here loads TypeBox: the checks that
 * run on every event are generated from these schemas ahead of time (./payload-checks.ts), and
 * TypeBox itself is loaded only to explain a failed check (./payload-errors.ts).
 */
import type { JavaScriptTypeBuilder } from '@sinclair/typebox';
import { MAX_DELTA, MAX_GAMES_PER_EVENT } from './bounds.js';
import { MAX_ID_LENGTH, MAX_MODERATOR_TEXT_LENGTH } from './limits.js';
import type { EventType } from './types.js';

export function payloadSchemas(Type: JavaScriptTypeBuilder) {
  const Id = Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH });
  const Ids = (minItems: number) => Type.Array(Id, { minItems });
  const Text = Type.String({ maxLength: MAX_MODERATOR_TEXT_LENGTH });
  const Literals = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));
  const moderator = Type.Optional(Id);
  // The id of the API key that recorded a moderator event (the service sets it beside `moderator`).
  const moderatorKey = Type.Optional(Id);
  return {
    action: Type.Object({
      player: Id,
      delta: Type.Optional(Type.Number({ minimum: -MAX_DELTA, maximum: MAX_DELTA })),
      domain: Type.Optional(Id),
    }),
    'match.start': Type.Object({ match: Id, players: Ids(2), bots: Type.Optional(Ids(0)) }),
    'match.end': Type.Object({ match: Id }),
    disconnect: Type.Object({ player: Id }),
    'match.resume': Type.Object({ match: Id }),
    rating: Type.Object({ from: Id, to: Id, value: Type.Number({ minimum: -1, maximum: 1 }) }),
    report: Type.Object({ from: Id, to: Id, reason: Type.Optional(Type.String()) }),
    played: Type.Object({ player: Id, games: Type.Integer({ minimum: 1, maximum: MAX_GAMES_PER_EVENT }) }),
    // `to` is a player id or a non-empty array of them: checked in validate.ts for a clear message.
    chat: Type.Object({ from: Id, to: Type.Unknown() }),
    // On a report: either `report` or both `from` and `to` (or `to` alone, with `reporterErased`); on a player: `player`. Checked in validate.ts.
    verdict: Type.Object({
      on: Literals(['report', 'player']),
      outcome: Literals(['upheld', 'dismissed']),
      report: Type.Optional(Id),
      from: Type.Optional(Id),
      to: Type.Optional(Id),
      player: Type.Optional(Id),
      // On a verdict an erasure kept without its reporter (names only `to`): checked in validate.ts.
      reporterErased: Type.Optional(Type.Literal(true)),
      reason: Type.Optional(Text),
      moderator,
      moderatorKey,
    }),
    note: Type.Object({ player: Id, text: Type.String({ minLength: 1, maxLength: MAX_MODERATOR_TEXT_LENGTH }), moderator, moderatorKey }),
    // `until` is a time like `time` (parsed, and required or refused by action, in validate.ts).
    sanction: Type.Object({
      player: Id,
      action: Literals(['warn', 'mute', 'suspend', 'ban', 'lift']),
      until: Type.Optional(Type.Unknown()),
      reason: Type.String({ minLength: 1, maxLength: MAX_MODERATOR_TEXT_LENGTH }),
      sanction: Type.Optional(Id),
      moderator,
      moderatorKey,
    }),
    // `appeal` is required for a decision and refused on an opening: checked in validate.ts.
    appeal: Type.Object({
      player: Id,
      status: Literals(['opened', 'granted', 'denied']),
      appeal: Type.Optional(Id),
      sanction: Type.Optional(Id),
      text: Type.Optional(Text),
      reason: Type.Optional(Text),
      moderator,
      moderatorKey,
    }),
    // A change of how a configured rule runs in the community; `reason` must not be blank (validate.ts).
    rule: Type.Object({
      rule: Id,
      state: Literals(['live', 'dry-run', 'paused']),
      reason: Type.String({ minLength: 1, maxLength: MAX_MODERATOR_TEXT_LENGTH }),
      moderator,
      moderatorKey,
    }),
  } as const satisfies Record<EventType, unknown>;
}
