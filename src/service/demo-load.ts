/**
 * Loads the demo log into a running service as the events would have come: one day of event time
 * at a time (at most `DEMO_BATCH` events a batch), with the alert thresholds checked after each
 * day. An alert is dated by the event time its check ran at, so the demo's alerts carry the day
 * their player crossed the threshold, not all the moment the whole log was loaded.
 */
import type { AlertMonitor } from './alerts.js';
import type { LiveEngine } from './live-engine.js';

/** The most events one ingest batch of the demo holds. */
export const DEMO_BATCH = 500;

const DAY_MS = 86_400_000;

/** The demo's events (raw JSON values, oldest first) cut where the UTC day of their time changes, and every `DEMO_BATCH` events. */
export function demoChunks(events: readonly Record<string, unknown>[]): Record<string, unknown>[][] {
  const chunks: Record<string, unknown>[][] = [];
  let day: number | undefined;
  for (const event of events) {
    const today = Math.floor(Date.parse(String(event.time)) / DAY_MS);
    const last = chunks.at(-1);
    if (last === undefined || today !== day || last.length === DEMO_BATCH) chunks.push([event]);
    else last.push(event);
    day = today;
  }
  return chunks;
}

/** Ingests `events` day by day, checking the alert thresholds after each day; resolves with how many were new. */
export async function loadDemoEvents(service: { readonly live: Pick<LiveEngine, 'ingest'>; readonly alerts: Pick<AlertMonitor, 'flush'> }, events: readonly Record<string, unknown>[]): Promise<number> {
  let accepted = 0;
  for (const chunk of demoChunks(events)) {
    accepted += (await service.live.ingest(chunk)).accepted;
    await service.alerts.flush();
  }
  return accepted;
}
