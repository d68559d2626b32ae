/**
 * Sending one request of `standing ingest` (the limits, then each batch), again when the service
 * asks for a wait (429, 503, or a proxy's 502 and 504) or the connection fails (fetch's
 * TypeError): every event of a batch has an id (./batches.ts), so a batch that was applied before
 * its answer was lost is counted as duplicates the second time, never applied twice. Any other
 * error (another answer, an abort, a bug) ends at once. Waits honour Retry-After up to 30 s; a
 * longer one is cut to 30 s. Without one they double from half a second, up to 30 s.
 */
import { StandingApiError, type StandingClient } from '../../client/index.js';
import type { IngestOutcome } from '../../client/types.js';
import { pause } from '../../client/request.js';

const RETRIED_STATUSES = new Set([429, 502, 503, 504]);
const FIRST_WAIT_SECONDS = 0.5;
/** The longest wait between two tries, Retry-After or not. */
export const LONGEST_WAIT_SECONDS = 30;

export interface RetryOptions {
  /** Tries after the first. */
  readonly retries: number;
  /** Told of each failed try that will be tried again, and how long it waits first. */
  readonly onRetry?: (reason: string, waitSeconds: number, attempt: number) => void;
  /** Waits (setTimeout by default). */
  readonly sleep?: (seconds: number) => Promise<void>;
}

/** fetch's own failure (no connection, a connection reset): a TypeError with the network error as its cause. */
function networkFailure(error: unknown): error is TypeError & { cause: unknown } {
  return error instanceof TypeError && (error as { cause?: unknown }).cause !== undefined;
}

/** Why a try failed, when it is worth another: undefined for an error another try would not change. */
function retryable(error: unknown): { reason: string; wait?: number } | undefined {
  if (error instanceof StandingApiError) {
    if (!RETRIED_STATUSES.has(error.status)) return undefined;
    return { reason: `the service answered ${error.status} ${error.code}`, ...(error.retryAfter === undefined ? {} : { wait: error.retryAfter }) };
  }
  if (!networkFailure(error)) return undefined;
  const cause = error.cause as { message?: unknown } | undefined;
  return { reason: `the request failed (${typeof cause?.message === 'string' ? cause.message : error.message})` };
}

/** `call`'s answer, calling it again after a wait while it fails in a way worth another try, `retries` times at most. */
export async function withRetries<T>(call: () => Promise<T>, options: RetryOptions): Promise<T> {
  const sleep = options.sleep ?? pause;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const retry = retryable(error);
      if (retry === undefined || attempt > options.retries) throw error;
      const wait = Math.min(LONGEST_WAIT_SECONDS, retry.wait ?? FIRST_WAIT_SECONDS * 2 ** (attempt - 1));
      options.onRetry?.(retry.reason, wait, attempt + 1);
      await sleep(wait);
    }
  }
}

export function sendBatch(client: StandingClient, body: string, options: RetryOptions): Promise<IngestOutcome> {
  return withRetries(() => client.ingest(body), options);
}
