/**
 * JSON Schemas (TypeBox) of the SPEC §1 event payloads, one per type, compiled once. The
 * common fields `time`, `id` and `community` are checked in validate.ts; extra fields are allowed.
 */
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { ValueError } from '@sinclair/typebox/errors';
import type { EventType } from './types.js';

const Id = Type.String({ minLength: 1 });
const Ids = (minItems: number) => Type.Array(Id, { minItems });

export const EVENT_PAYLOAD_SCHEMAS = {
  action: Type.Object({
    player: Id,
    delta: Type.Optional(Type.Number()),
    domain: Type.Optional(Id),
  }),
  'match.start': Type.Object({ match: Id, players: Ids(2), bots: Type.Optional(Ids(0)) }),
  'match.end': Type.Object({ match: Id }),
  disconnect: Type.Object({ player: Id }),
  'match.resume': Type.Object({ match: Id }),
  rating: Type.Object({ from: Id, to: Id, value: Type.Number({ minimum: -1, maximum: 1 }) }),
  report: Type.Object({ from: Id, to: Id, reason: Type.Optional(Type.String()) }),
  played: Type.Object({ player: Id, games: Type.Integer({ minimum: 1 }) }),
  // `to` is a player id or a non-empty array of them: checked in validate.ts for a clear message.
  chat: Type.Object({ from: Id, to: Type.Unknown() }),
} as const satisfies Record<EventType, unknown>;

export interface PayloadValidator {
  Check(value: unknown): boolean;
  Errors(value: unknown): Iterable<ValueError>;
}

export const EVENT_PAYLOAD_VALIDATORS = Object.fromEntries(
  Object.entries(EVENT_PAYLOAD_SCHEMAS).map(([type, schema]) => [type, TypeCompiler.Compile(schema)]),
) as unknown as { readonly [T in EventType]: PayloadValidator };
