/** An error answer of the service, as the client throws it. */
import type { ApiErrorCode, BatchProblem, ErrorBody } from './types.js';

export class StandingApiError extends Error {
  override readonly name = 'StandingApiError';
  /** The service's code (`BATCH_REJECTED`, `NOT_FOUND`, …), or `HTTP <status>` for an answer that is not the service's error body. */
  readonly code: ApiErrorCode | (string & {});
  /** BATCH_REJECTED: every refused event, by index (and line, for NDJSON). */
  readonly problems?: readonly BatchProblem[];
  /** The value of the limit the request ran into, and its configuration key. */
  readonly limit?: number;
  readonly key?: string;

  constructor(
    readonly status: number,
    body: Partial<ErrorBody> | undefined,
    /** Seconds the service asked the client to wait (Retry-After), when it did. */
    readonly retryAfter?: number,
  ) {
    super(body?.message ?? `the service answered ${status}`);
    this.code = body?.error ?? `HTTP ${status}`;
    if (body?.problems !== undefined) this.problems = body.problems;
    if (body?.limit !== undefined) this.limit = body.limit;
    if (body?.key !== undefined) this.key = body.key;
  }
}
