/**
 * Errors to HTTP answers, in one place: `{ error: CODE, message, … }` with the status the code
 * means. Unknown errors are logged and answered 500 without internals.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApplyFailedError, BatchRejectedError, BatchTooLargeError, PlayerUnknownError, StandingError, StoreBusyError, type ErrorCode } from '../errors.js';
import { HistoryBusyError } from '../service/history-jobs.js';
import { NO_NUL } from './schemas/common.js';
import type { ApiErrorCode } from './schemas/errors.js';

/** The codes of standing's errors that answer a request as themselves: those of the API's list. */
type AnsweredCode = ErrorCode & ApiErrorCode;

/** The HTTP status of each code that answers a request as itself (the type makes a new one list itself here). */
const STATUS: Readonly<Record<AnsweredCode, number>> = {
  PARAMETER_INVALID: 400,
  BATCH_REJECTED: 400,
  BATCH_TOO_LARGE: 413,
  // Another connection held the SQLite write lock too long: nothing stored, the client retries.
  STORE_BUSY: 503,
  // A scorer's bug on a stored event: the batch is durable, the event skipped (logged).
  APPLY_FAILED: 500,
  // What the service cannot take now (a history, a write while it stops): the client retries (Retry-After: 1).
  HISTORY_BUSY: 503,
  SERVICE_STOPPING: 503,
  // A bug of standing's: logged, and answered without internals.
  INTERNAL: 500,
};

const CORE_ONLY = "the command line's and the library's";
const IN_PROBLEMS = "an event's code in the `problems` of a BATCH_REJECTED answer (or a cluster gateway's BATCH_PARTLY_APPLIED), never the answer's own";
const AT_START = 'raised when a service, a gateway or a worker starts, never by a request';
const PARTITION = "a worker's partition failing (its lease, stream or consumer): logged, and the partition handed back";

/**
 * Every other code of standing's errors, and why no request is answered with it (the type makes
 * a new code list itself here, or in the API's list, src/http/schemas/errors.ts). One that meets
 * a request all the same is a bug: it is logged, and answered 500 INTERNAL.
 */
export const NOT_ANSWERED: Readonly<Record<Exclude<ErrorCode, ApiErrorCode>, string>> = {
  EVENT_SYNTAX: IN_PROBLEMS,
  EVENT_INVALID: IN_PROBLEMS,
  EVENT_CONFLICT: IN_PROBLEMS,
  LABELS_INVALID: `${CORE_ONLY}: a labels file (evaluate, tune)`,
  INPUT_UNREADABLE: `${CORE_ONLY}: an input file or stream`,
  KEY_LABEL_INVALID: 'keys are made by the command line and the library (standing keys create, createKey), never through the API',
  PLAYER_UNKNOWN: 'an erasure of a player no stored event names is answered 404 NOT_FOUND, as any unknown player is',
  SCORER_INVALID: `${AT_START}, or by a program registering a scorer of its own`,
  CONFIG_INVALID: 'an invalid configuration stops the service at start',
  CHECKPOINT_CORRUPT: 'a saved state that cannot be read back is logged, and its community replayed from the log',
  STORE_HELD: 'raised when a service, a worker or an erasure starts, never by a request',
  USAGE_INVALID: "the command line's",
  COMMAND_FAILED: "the command line's",
  LISTEN_FAILED: AT_START,
  NATS_UNREACHABLE: AT_START,
  NATS_SERVER_STOPPED: "standing cluster-local's",
  PARTITION_FENCED: PARTITION,
  COMMUNITY_OUTSIDE_PARTITION: PARTITION,
  STREAM_MISMATCH: PARTITION,
  STREAM_BEHIND: PARTITION,
  CONSUMER_LOST: PARTITION,
  LEASE_LOST: PARTITION,
};

function answersAsItself(code: ErrorCode): code is AnsweredCode {
  return Object.hasOwn(STATUS, code);
}

/** A request the route cannot serve: 404 for unknown things, 400 for bad queries. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    /** The limit the request ran into, when it ran into one. */
    readonly limit?: number,
    /** More of the answer's body (the error schema's optional fields). */
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}

export async function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (error instanceof HttpProblem) {
    await reply.code(error.status).send({ ...error.details, error: error.code, message: error.message, ...(error.limit === undefined ? {} : { limit: error.limit }) });
    return;
  }
  if (error instanceof BatchRejectedError) {
    await reply.code(400).send({ error: error.code, message: error.message, problems: error.problems });
    return;
  }
  if (error instanceof BatchTooLargeError) {
    await reply.code(413).send({ error: error.code, message: error.message, limit: error.limit, key: error.key });
    return;
  }
  if (error instanceof PlayerUnknownError) {
    await reply.code(404).send({ error: 'NOT_FOUND', message: error.message });
    return;
  }
  if (error instanceof StoreBusyError) {
    request.log.warn({ err: error }, 'store busy');
    await reply.code(503).header('retry-after', '1').send({ error: error.code, message: error.message });
    return;
  }
  if (error instanceof HistoryBusyError) {
    await reply.code(STATUS[error.code]).header('retry-after', '1').send({ error: error.code, message: error.message, limit: error.limit });
    return;
  }
  if (error instanceof StandingError && error.code === 'SERVICE_STOPPING') {
    await reply.code(STATUS[error.code]).header('retry-after', '1').send({ error: error.code, message: error.message });
    return;
  }
  if (error instanceof ApplyFailedError) {
    request.log.error({ err: error.cause }, 'a scorer failed on a stored event');
    await reply.code(500).send({ error: error.code, message: error.message });
    return;
  }
  if (error instanceof StandingError && answersAsItself(error.code) && STATUS[error.code] < 500) {
    await reply.code(STATUS[error.code]).send({ error: error.code, message: error.message });
    return;
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    const limit = request.routeOptions.bodyLimit;
    await reply.code(413).send({ error: 'BODY_TOO_LARGE', message: `the body is over the limit of ${limit} bytes (bodyLimitBytes)`, limit, key: 'bodyLimitBytes' });
    return;
  }
  if (fastifyError.validation !== undefined) {
    const [first] = fastifyError.validation;
    const nul = first?.keyword === 'pattern' && first.params.pattern === NO_NUL;
    const message = nul ? `${fastifyError.validationContext ?? ''}${first.instancePath} must not contain a NUL character (U+0000)` : error.message;
    await reply.code(400).send({ error: 'REQUEST_INVALID', message });
    return;
  }
  if (fastifyError.statusCode !== undefined && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    const code = fastifyError.code?.startsWith('FST_ERR_CTP') ? 'BODY_UNREADABLE' : 'REQUEST_INVALID';
    await reply.code(fastifyError.statusCode).send({ error: code, message: error.message });
    return;
  }
  request.log.error({ err: error }, 'request failed');
  await reply.code(500).send({ error: 'INTERNAL', message: 'the request failed; the service log has the details' });
}
