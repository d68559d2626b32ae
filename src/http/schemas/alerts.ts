/** GET /v1/alerts and its Server-Sent Events stream. */
import { Type, type Static } from '@sinclair/typebox';
import { MAX_ID_LENGTH } from '../../events/limits.js';
import { Id, NO_NUL, ORDERS, refTo, StringEnum } from './common.js';

const Filters = {
  community: Type.Optional(Id()),
  scorer: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH, pattern: NO_NUL, description: 'scorer instance name' })),
  player: Type.Optional(Id()),
};

export const AlertQuery = Type.Object(
  {
    after: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'only alerts with a larger id' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    order: Type.Optional(StringEnum(ORDERS, { default: 'asc', description: 'desc: the newest first' })),
    ...Filters,
  },
  { $id: 'AlertQuery', additionalProperties: false },
);
export type AlertQuery = Static<typeof AlertQuery>;

export const AlertStreamQuery = Type.Object(
  { after: Type.Optional(Type.Integer({ minimum: 0, description: 'replay the alerts after this id first (else Last-Event-ID)' })), ...Filters },
  { $id: 'AlertStreamQuery', additionalProperties: false },
);
export type AlertStreamQuery = Static<typeof AlertStreamQuery>;

export const Alert = Type.Object(
  {
    id: Type.Integer({ minimum: 1, description: 'increasing over the whole store' }),
    community: Type.String(),
    scorer: Type.String({ description: 'the scorer instance name' }),
    player: Type.String(),
    threshold: Type.String({ description: "the threshold's name from the configuration" }),
    kind: StringEnum(['raised', 'cleared'] as const, { description: 'raised: the player crossed the threshold; cleared: back on the other side' }),
    score: Type.Number(),
    sequence: Type.Integer({ minimum: 0, description: 'the community sequence the scores were evaluated at' }),
    time: Type.Number({ description: 'event time of that event, epoch ms' }),
    createdAt: Type.String({ description: 'when the alert was stored, ISO-8601' }),
  },
  { $id: 'Alert', additionalProperties: false },
);
export type Alert = Static<typeof Alert>;

export const AlertList = Type.Object({ alerts: Type.Array(refTo(Alert)) }, { $id: 'AlertList', additionalProperties: false });
export type AlertList = Static<typeof AlertList>;

export const AlertStream = Type.String({
  $id: 'AlertStream',
  description: 'Server-Sent Events: a comment line, then one `alert` event per alert (`id:` the alert id, `data:` the Alert as JSON), and a `: ping` comment every 15 s',
});
