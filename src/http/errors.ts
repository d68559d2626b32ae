/**
 * Errors to HTTP answers, in one place: `{ error: CODE, message, … }` with the status the code
 * means. Unknown errors are logged and answered 500 without internals.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApplyFailedError, BatchRejectedError, BatchTooLargeError, PlayerUnknownError, StandingError, StoreBusyError, type ErrorCode } from '../errors.js';
import { HistoryBusyError, HistoryClosingError } from '../service/history-jobs.js';
import { NO_NUL } from './schemas/common.js';
import type { ApiErrorCode } from './schemas/errors.js';

/** Every error code's HTTP status, one per code (the type makes a new code list itself here). */
const STATUS: Readonly<Record<ErrorCode, number>> = {
  BATCH_REJECTED: 400,
  BATCH_TOO_LARGE: 413,
  EVENT_SYNTAX: 400,
  EVENT_INVALID: 400,
  EVENT_CONFLICT: 409,
  PARAMETER_INVALID: 400,
  LABELS_INVALID: 400,
  INPUT_UNREADABLE: 400,
  // The service's own state, never a client's request: logged, and answered as an internal error.
  CONFIG_INVALID: 500,
  CHECKPOINT_CORRUPT: 500,
  // Another connection held the SQLite write lock too long: nothing stored, the client retries.
  STORE_BUSY: 503,
  // Raised when a service or an erasure starts, never by a request.
  STORE_HELD: 500,
  // An erasure of a player no stored event names: answered as any unknown player is, NOT_FOUND.
  PLAYER_UNKNOWN: 404,
  // A scorer's bug on a stored event: the batch is durable, the event skipped (logged).
  APPLY_FAILED: 500,
  // Raised when a scorer of one's own is registered or loaded, never by a request.
  SCORER_INVALID: 500,
  // A history replay the service cannot take now: the client retries (Retry-After: 1).
  HISTORY_BUSY: 503,
  SERVICE_STOPPING: 503,
  // The command line's own, never a request's.
  USAGE_INVALID: 500,
  COMMAND_FAILED: 500,
  // Raised when a service, a gateway or a worker starts, never by a request.
  LISTEN_FAILED: 500,
  NATS_UNREACHABLE: 500,
  NATS_SERVER_STOPPED: 500,
  // A worker's partition failing (its lease, stream or consumer): logged, the partition handed
  // back. A write a worker's route makes when fenced is answered as an internal error.
  PARTITION_FENCED: 500,
  COMMUNITY_OUTSIDE_PARTITION: 500,
  STREAM_MISMATCH: 500,
  STREAM_BEHIND: 500,
  CONSUMER_LOST: 500,
  LEASE_LOST: 500,
};

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
    await reply.code(STATUS[error.code]).send({ error: 'NOT_FOUND', message: error.message });
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
  if (error instanceof HistoryClosingError) {
    await reply.code(STATUS[error.code]).header('retry-after', '1').send({ error: error.code, message: error.message });
    return;
  }
  if (error instanceof ApplyFailedError) {
    request.log.error({ err: error.cause }, 'a scorer failed on a stored event');
    await reply.code(500).send({ error: error.code, message: error.message });
    return;
  }
  if (error instanceof StandingError && STATUS[error.code] < 500) {
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
