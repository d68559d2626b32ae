/**
 * A history thread (./history-jobs.ts): each message is one job, answered with its points or
 * its error. The thread opens the store itself (SQLite in WAL mode and PostgreSQL both take a
 * reader beside the service's own connection) and runs the same replay as the library: the
 * registered scorer and the built-in quality domains, instantiated from the configured parameters. A replay
 * reads one page at a time, so on PostgreSQL the thread keeps one connection, named
 * `standing history (pid … on …)` unless the URL names its sessions: a process's replays hold at
 * most as many connections as it runs threads (`maxHistoryJobs`).
 */
import { hostname } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { instantiate } from '../engine/engine.js';
import { BUILTIN_DOMAINS } from '../quality/index.js';
import { scorerById } from '../scorers/index.js';
import { loadScorerModules } from '../scorers/plugins.js';
import { openStore } from '../store/open.js';
import type { EventStore } from '../store/types.js';
import { scoreHistory, type HistoryJob } from './history.js';

let store: Promise<EventStore> | undefined;

// Scorers of one's own (STANDING_SCORERS, src/scorers/plugins.ts) before any job names one.
await loadScorerModules();

// Every job answers its own failure; a store that fails to close surfaces as the thread's error.
parentPort!.on('message', (job: (HistoryJob & { id: number }) | { close: true }) => void handle(job));

async function handle(job: (HistoryJob & { id: number }) | { close: true }): Promise<void> {
  if ('close' in job) {
    // Asked to stop while idle: release the store's connection, then let the thread end.
    try {
      await (await store)?.close();
    } finally {
      parentPort!.close();
    }
    return;
  }
  try {
    store ??= openStore(job.db, {}, { maxConnections: 1, applicationName: `standing history (pid ${process.pid} on ${hostname()})` }).catch((error: unknown) => {
      store = undefined; // the next job tries again
      throw error;
    });
    const instance = instantiate(scorerById(job.scorer)!, job.params, job.instance);
    const points = await scoreHistory(await store, instance, { domains: BUILTIN_DOMAINS, options: job.quality }, job.community, job.player, job.last, job.points);
    parentPort!.postMessage({ id: job.id, points });
  } catch (error) {
    parentPort!.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
}
