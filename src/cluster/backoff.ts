/**
 * How long a worker waits before taking again a partition that failed in its hands (the store
 * refused, the stream was made again, …): doubling with each failure in a row, from BASE_MS up to
 * MAX_MS, and back to BASE_MS once the partition went RESET_MS without failing; BASE_MS alone,
 * not counted, when NATS rather than the partition failed. Pure: the worker
 * keeps one Backoff per partition (./worker.ts).
 */
export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_MAX_MS = 60_000;
export const BACKOFF_RESET_MS = 5 * 60_000;

export interface Backoff {
  /** Failures in a row. */
  readonly failures: number;
  /** When the last one happened (ms). */
  readonly at: number;
  /** Not to be taken before this (ms). */
  readonly until: number;
}

/**
 * The backoff after a failure at `now`, following `previous` (undefined: the first). A failure of
 * NATS rather than of the partition (`away`: the JetStream API paused, the stream consumer lost
 * with its server) waits BACKOFF_BASE_MS and does not count: the partition is taken again as soon
 * as NATS is back, not a minute later.
 */
export function afterFailure(previous: Backoff | undefined, now: number, away = false): Backoff {
  if (away) return { failures: previous?.failures ?? 0, at: previous?.at ?? now, until: now + BACKOFF_BASE_MS };
  const failures = previous === undefined || now - previous.at >= BACKOFF_RESET_MS ? 1 : previous.failures + 1;
  const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.min(failures - 1, 30));
  return { failures, at: now, until: now + delay };
}
