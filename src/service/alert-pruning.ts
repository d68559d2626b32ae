/**
 * Deletes stored alerts older than `alerts.retentionDays` (each player's open alert kept, whatever
 * its age) at once and then every hour, for `standing serve` and every cluster gateway. Nothing
 * runs when retentionDays is 0 (keep all). A failed round is logged; the next one tries again.
 */
import type { Logger } from 'pino';
import type { AlertStore } from '../store/types.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export interface AlertPruning {
  /** Ends the hourly rounds. */
  stop(): void;
}

export function startAlertPruning(store: Pick<AlertStore, 'pruneAlerts'>, retentionDays: number, logger: Logger, clock: () => number = Date.now): AlertPruning {
  if (retentionDays <= 0) return { stop: () => undefined };
  const prune = () =>
    store.pruneAlerts(new Date(clock() - retentionDays * DAY_MS).toISOString()).catch((error: unknown) => logger.error({ err: error }, 'alert pruning failed'));
  void prune();
  const timer = setInterval(() => void prune(), HOUR_MS); // prune catches its own failure
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
