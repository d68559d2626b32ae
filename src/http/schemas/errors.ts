/**
 * The error body every route answers with (`{error: CODE, message, …}`), what each code means,
 * and the error responses of a route as OpenAPI documents them: one per status, naming the codes
 * the route can answer with that status (src/http/errors.ts maps codes to statuses).
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { refTo, StringEnum } from './common.js';

/**
 * What each error code the API answers with means: the codes of src/http/ (REQUEST_INVALID, …),
 * of a cluster gateway, and those of standing's errors that answer a request as themselves
 * (src/http/errors.ts names why each other one never does).
 */
export const ERROR_MEANINGS = {
  REQUEST_INVALID: 'a path or query parameter, or the body, is not what the route takes (the message names which and why)',
  PARAMETER_INVALID: 'a scorer parameter in `params=` or the `sort` column is unknown or out of range',
  BODY_UNREADABLE: 'the body cannot be read: malformed or empty JSON (400), or a content type the route does not take (415)',
  BATCH_REJECTED: 'events of the batch are invalid or conflict with the community state: `problems` names each (index, NDJSON line, field, reason); nothing of the batch was stored',
  UNAUTHORIZED: 'no key, or an unknown or revoked one (WWW-Authenticate: Bearer)',
  FORBIDDEN:
    'the key lacks the scope the route or the action needs (suspend, ban and deciding appeals need `senior`), or the request reaches a community the key is restricted from; a player token used beyond its player, its community or the player-view routes',
  NOT_FOUND: 'no such player, scorer instance, explanation, report, sanction or appeal (or no such route)',
  BODY_TOO_LARGE: 'the body is over bodyLimitBytes (`limit`, `key`)',
  BATCH_TOO_LARGE: 'the batch holds more events than maxBatchEvents (`limit`, `key`)',
  TOO_MANY_REQUESTS: 'the key (or, for a read without a key, the address) made its rateLimitPerMinute requests this minute (`limit`); Retry-After says when to retry',
  TOO_MANY_STREAMS: 'open alert streams: the key (or address) holds maxStreamsPerKey (429), or the service holds maxStreams (503); `limit`',
  TOO_MANY_CONNECTIONS: 'the client address holds maxConnectionsPerAddress open connections, or the service maxConnections (`limit`); Retry-After: 1, and the connection is closed',
  MODERATION_CONFLICT: 'the action does not fit the record: a decision on an appeal already decided, a lift of nothing active, an id already naming another event',
  CASE_CLAIMED: "another moderator claimed the player's case: the message names them and when the claim ends (claims.minutes)",
  FOUR_EYES: 'a four-eyes rule needs another moderator: an appeal against your own sanction (fourEyes.appeals), a second dismissal of a case a rule proposed (fourEyes.ruleDismissals)',
  HISTORY_BUSY: 'maxHistoryJobs history replays are running (`limit`); Retry-After: 1',
  SERVICE_STOPPING: 'the service is stopping; Retry-After: 1',
  LOG_UNAVAILABLE: 'a cluster gateway could not get every message of the batch acknowledged by the event log (NATS JetStream); parts of it may be stored: send the same batch again (event ids make the retry apply once); Retry-After: 1',
  PARTITION_UNAVAILABLE: "a cluster gateway found no worker serving the community's partition (a hand-over, or no worker running), or only a stale owner of it answered (an older lease epoch); Retry-After says when to retry",
  READ_TIMEOUT: "a cluster gateway got no answer from the worker owning the community's partition within cluster.readTimeoutMs (`limit`)",
  ANSWER_TOO_LARGE: "the answer is over the NATS servers' max_payload (`limit`): ask for a smaller page",
  STORE_BUSY: 'another connection to the SQLite file (a `standing keys` command, a backup, a tool) held its write lock for longer than the service waits (5 s); nothing was stored: send the same write again (event ids make the retry apply once); Retry-After: 1',
  APPLY_FAILED: 'the batch is stored, but a scorer failed on one of its events: that event is skipped in the live state, as a replay of the store skips it (a bug of the scorer; the service log has the details)',
  APPLY_PENDING: "a cluster gateway: the batch is durable in the event log, but the owning workers did not report applying it within cluster.applyTimeoutMs (`limit`): send the same batch again to learn its outcome (event ids make the retry apply once); Retry-After says when",
  BATCH_PARTLY_APPLIED: "a cluster gateway: the batch was checked whole against every owner's state, but another write changed a community between the check and the apply, and that community's part was refused: `problems` names its events, `applied` what the other parts stored (each partition's part is atomic)",
  INTERNAL: 'the request failed inside the service; the service log has the details',
  // Answered before any route, and the connection closed (src/http/server.ts).
  REQUEST_TIMEOUT: 'the headers did not arrive within headersTimeoutMs, or the whole request within requestTimeoutMs; the connection is closed',
  HEADERS_TOO_LARGE: "the request headers are over Node's 16 KiB; the connection is closed",
  REQUEST_MALFORMED: 'the request is not HTTP/1.1; the connection is closed',
} as const;

/** An error code the API answers with. */
export type ApiErrorCode = keyof typeof ERROR_MEANINGS;

/** One reason a batch was refused. */
export const BatchProblem = Type.Object(
  {
    index: Type.Integer({ minimum: 0, description: "the event's 0-based index in the batch" }),
    line: Type.Optional(Type.Integer({ minimum: 1, description: "the event's 1-based line, for an NDJSON body (blank lines counted)" })),
    code: StringEnum(['EVENT_SYNTAX', 'EVENT_INVALID', 'EVENT_CONFLICT'] as const),
    field: Type.String({ description: "JSON pointer inside the event ('' for the event itself)" }),
    reason: Type.String(),
  },
  { $id: 'BatchProblem', additionalProperties: false },
);
export type BatchProblem = Static<typeof BatchProblem>;

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'a stable code: see each response for the codes a route answers with' }),
    message: Type.String({ description: 'what went wrong, naming the place (parameter, index, line, limit) and the reason' }),
    limit: Type.Optional(Type.Integer({ description: 'the value of the limit the request ran into' })),
    key: Type.Optional(Type.String({ description: 'the configuration key of that limit' })),
    problems: Type.Optional(Type.Array(refTo(BatchProblem), { description: 'BATCH_REJECTED, BATCH_PARTLY_APPLIED: every refused event' })),
    applied: Type.Optional(
      Type.Object(
        {
          accepted: Type.Integer({ minimum: 0 }),
          duplicates: Type.Integer({ minimum: 0 }),
          sequences: Type.Record(Type.String(), Type.Integer({ minimum: 0 })),
        },
        { additionalProperties: false, description: 'BATCH_PARTLY_APPLIED: what the parts that were not refused stored and applied, as a 200 counts it' },
      ),
    ),
  },
  { $id: 'Error', additionalProperties: false, description: 'An error answer' },
);
export type ErrorBody = Static<typeof ErrorBody>;

/** The statuses a route may answer with an error body, and the codes for each. */
export type ErrorTable = Partial<Record<number, readonly ApiErrorCode[]>>;

/** The error response for `status`: the error body, its `error` one of `codes`. */
function errorResponse(codes: readonly ApiErrorCode[]): TSchema {
  return Type.Unsafe<ErrorBody>({
    description: codes.map((code) => `${code}: ${ERROR_MEANINGS[code]}`).join('. '),
    allOf: [Type.Ref(ErrorBody.$id!), Type.Object({ error: StringEnum(codes) })],
  });
}

/** Every route can be answered so: the connection cap and an internal failure. */
const ANY_ROUTE: ErrorTable = { 500: ['INTERNAL'], 503: ['TOO_MANY_CONNECTIONS'] };
/** A route that needs a key can be answered so, too. */
const KEYED_ROUTE: ErrorTable = { 401: ['UNAUTHORIZED'], 403: ['FORBIDDEN'], 429: ['TOO_MANY_REQUESTS'] };

/**
 * The error responses of a route: its own `table`, and those of every route (and of every
 * keyed route, when `keyed`), merged by status.
 */
export function errorResponses(keyed: boolean, table: ErrorTable = {}): Record<number, TSchema> {
  const merged = new Map<number, ApiErrorCode[]>();
  for (const part of [table, ...(keyed ? [KEYED_ROUTE] : []), ANY_ROUTE]) {
    for (const [status, codes] of Object.entries(part)) {
      const list = merged.get(Number(status)) ?? [];
      for (const code of codes ?? []) if (!list.includes(code)) list.push(code);
      merged.set(Number(status), list);
    }
  }
  return Object.fromEntries([...merged].sort(([a], [b]) => a - b).map(([status, codes]) => [status, errorResponse(codes)]));
}

/** A success response: the named `schema`, described. */
export function answer<T extends TSchema>(schema: T, description: string) {
  return Type.Unsafe<Static<T>>({ ...Type.Ref(schema.$id!), description });
}
