/**
 * Sending one batch, again when the service asks for a wait (429, 503, or a proxy's 502 and
 * 504) or the connection fails: every event of a batch has an id (./batches.ts), so a batch that
 * was applied before its answer was lost is counted as duplicates the second time, never applied
 * twice. Waits honour Retry-After; without one they double from half a second, up to 30 s.
 */
import { StandingApiError, type StandingClient } from '../../client/index.js';
import type { IngestOutcome } from '../../client/types.js';

const RETRIED_STATUSES = new Set([429, 502, 503, 504]);
const FIRST_WAIT_SECONDS = 0.5;
const LONGEST_WAIT_SECONDS = 30;

export interface SendOptions {
  /** Tries after the first. */
  readonly retries: number;
  /** Told of each failed try that will be tried again, and how long it waits first. */
  readonly onRetry?: (reason: string, waitSeconds: number, attempt: number) => void;
  /** Waits (setTimeout by default). */
  readonly sleep?: (seconds: number) => Promise<void>;
}

/** Why a try failed, when it is worth another: undefined for an answer that would not change. */
function retryable(error: unknown): { reason: string; wait?: number } | undefined {
  if (error instanceof StandingApiError) {
    if (!RETRIED_STATUSES.has(error.status)) return undefined;
    return { reason: `the service answered ${error.status} ${error.code}`, ...(error.retryAfter === undefined ? {} : { wait: error.retryAfter }) };
  }
  const cause = (error as { cause?: { message?: string } }).cause;
  return { reason: `the request failed (${cause?.message ?? (error as Error).message})` };
}

export async function sendBatch(client: StandingClient, body: string, options: SendOptions): Promise<IngestOutcome> {
  const sleep = options.sleep ?? ((seconds: number) => new Promise<void>((resolve) => setTimeout(resolve, seconds * 1000)));
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.ingest(body);
    } catch (error) {
      const retry = retryable(error);
      if (retry === undefined || attempt > options.retries) throw error;
      const wait = retry.wait ?? Math.min(LONGEST_WAIT_SECONDS, FIRST_WAIT_SECONDS * 2 ** (attempt - 1));
      options.onRetry?.(retry.reason, wait, attempt + 1);
      await sleep(wait);
    }
  }
}
