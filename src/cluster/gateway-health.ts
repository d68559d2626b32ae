/**
 * GET /healthz on a gateway, answered by the gateway alone: it never asks the workers, so a
 * health check, with or without a key and however often, costs them nothing. The answer has the
 * shape `standing serve` gives (`{status, store, communities, events}`); its figures come from
 * PostgreSQL's table of communities (each community's last stored sequence: the stored log, which
 * the workers apply), read at most once per HEALTH_REFRESH_MS, every request meanwhile getting
 * the last figures and those arriving during a read sharing it. A failed read fails the requests
 * that waited for it (500, logged) and the next request reads again.
 */
import type { Health } from '../http/schemas/system.js';
import type { EventLog } from '../store/types.js';

/** The longest the gateway's health figures may trail the store. */
export const HEALTH_REFRESH_MS = 1000;

export function gatewayHealth(store: Pick<EventLog, 'sequences'>, refreshMs = HEALTH_REFRESH_MS): () => Promise<Health> {
  let last: { readonly at: number; readonly health: Health } | undefined;
  let reading: Promise<Health> | undefined;
  return () => {
    if (last !== undefined && performance.now() - last.at < refreshMs) return Promise.resolve(last.health);
    reading ??= (async () => {
      try {
        const at = performance.now();
        const sequences = await store.sequences();
        let events = 0;
        for (const sequence of sequences.values()) events += sequence;
        const health: Health = { status: 'ok', store: 'postgres', communities: sequences.size, events };
        last = { at, health };
        return health;
      } finally {
        reading = undefined;
      }
    })();
    return reading;
  };
}
