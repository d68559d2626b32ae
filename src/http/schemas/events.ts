/** POST /v1/events: the bodies it takes, what it answers, and the limits a batch must keep to. */
import { Type, type Static } from '@sinclair/typebox';
import { EVENT_TYPES } from '../../events/types.js';
import { Dictionary, refTo } from './common.js';

/**
 * One event as docs/spec.md §1 defines it (docs/events.md): the route checks every event itself and
 * names each bad index, field and reason, so this schema documents rather than validates.
 */
export const Event = Type.Object(
  {
    type: Type.String({ description: `one of ${EVENT_TYPES.join(', ')}` }),
    time: Type.Union([Type.String(), Type.Number()], { description: 'ISO-8601 with a zone, or epoch milliseconds' }),
    id: Type.Optional(Type.String({ description: 'unique in its community: an event whose id the community holds is counted as a duplicate, not applied again' })),
    community: Type.Optional(Type.String({ description: 'default "default"' })),
  },
  { $id: 'Event', additionalProperties: true, description: "An event (docs/events.md); the other fields depend on its type" },
);

export type Event = Static<typeof Event>;

export const EventBatch = Type.Array(refTo(Event), { $id: 'EventBatch', description: 'A batch of events, stored and applied atomically, in order' });

/** The NDJSON form of a batch: the same events, one JSON object per line. */
export const EventLines = Type.String({
  $id: 'EventLines',
  description: 'NDJSON: one event (an Event object) per line; LF or CRLF line ends, blank lines skipped, a byte-order mark at the start allowed. Problems name the line as well as the index.',
});

export const IngestOutcome = Type.Object(
  {
    accepted: Type.Integer({ minimum: 0, description: 'events stored and applied' }),
    duplicates: Type.Integer({ minimum: 0, description: 'events ignored: their id was already accepted' }),
    sequences: Dictionary(Type.Integer({ minimum: 0 }), 'the last sequence reached per community the batch touched'),
  },
  { $id: 'IngestOutcome', additionalProperties: false },
);
export type IngestOutcome = Static<typeof IngestOutcome>;

export const IngestLimits = Type.Object(
  {
    bodyLimitBytes: Type.Integer({ minimum: 1, description: 'the largest body, in bytes (413 BODY_TOO_LARGE beyond)' }),
    maxBatchEvents: Type.Integer({ minimum: 1, description: 'the most events a batch may hold (413 BATCH_TOO_LARGE beyond)' }),
    maxEventDepth: Type.Integer({ minimum: 1, description: 'the deepest nesting of objects and arrays in an event, the event being level 1' }),
    maxIdLength: Type.Integer({ minimum: 1, description: 'the longest id or community name, in UTF-16 code units' }),
    maxClockSkewSeconds: Type.Union([Type.Number(), Type.Null()], { description: "how far after the service's clock an event may be dated; null: no bound" }),
    rateLimitPerMinute: Type.Integer({ minimum: 0, description: 'requests per key each minute; 0: no limit' }),
  },
  { $id: 'IngestLimits', additionalProperties: false, description: 'What a batch must keep to' },
);
export type IngestLimits = Static<typeof IngestLimits>;
