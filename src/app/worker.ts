/**
 * `standing worker`'s composition root: NATS, then the PostgreSQL store (held shared while the
 * worker runs), the stream and the buckets, the history replays its partitions share, and how
 * each partition it takes is put together: its live engine and its read side, as `standing serve`
 * builds them (./engine-options.ts, ./read-side.ts), with the single-node API answering the
 * requests gateways forward. The balancing loop, the leases and the partition runner are the
 * cluster's (../cluster/worker.ts).
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { announceDurability } from '../cluster/durability.js';
import { connectNats, ensureStream, jetstreamManager, natsJoined, openBuckets, whenPlaced } from '../cluster/nats.js';
import type { PartitionAssembly } from '../cluster/partition-assembly.js';
import { runWorker, type RunningWorker } from '../cluster/worker.js';
import { serviceLogger } from '../http/log-redaction.js';
import { ServiceMetrics } from '../http/metrics.js';
import { apiRoutes, buildHttpBase } from '../http/server.js';
import type { ServiceConfig } from '../service/config.js';
import { historyJobsOf, type HistoryJobs } from '../service/history-jobs.js';
import { openPostgresStore, type PostgresStore } from '../store/postgres.js';
import type { StoreHold } from '../store/types.js';
import { engineOptions } from './engine-options.js';
import { httpContext, openReadSide } from './read-side.js';
import { requirePostgres } from './require-postgres.js';

export type { RunningWorker } from '../cluster/worker.js';

export interface WorkerOptions {
  /** The worker's name in leases (default: host, process id and a random suffix). */
  readonly id?: string;
}

/**
 * Each partition's engine and read side: the configuration's, with the partition's number in
 * their log lines. `history`: the worker's replays, shared by its partitions.
 */
export function partitionAssembly(config: ServiceConfig, logger: Logger, history: HistoryJobs): PartitionAssembly {
  return {
    engineOptions: (store, partition) => ({
      ...engineOptions(config, store, logger, { partition }),
      // The gateway checked the batch's size and the events' dates when it took them.
      maxBatchEvents: Number.MAX_SAFE_INTEGER,
      maxClockSkewSeconds: null,
    }),
    async openReads(store, live, partition) {
      const metrics = new ServiceMetrics();
      const side = await openReadSide(config, store, live, metrics, logger, { partition });
      let api: FastifyInstance | undefined;
      try {
        // Keys, the rate limit and connection limits are the gateway's: it checked the request.
        api = await buildHttpBase(store, {
          bodyLimitBytes: config.bodyLimitBytes,
          publicRead: true,
          logger: logger.child({ partition }, { level: 'warn' }),
          limits: { ...config, rateLimitPerMinute: 0 },
        });
        apiRoutes(api, httpContext(config, store, live, side, metrics, history), { bodyLimitBytes: config.bodyLimitBytes, limits: config });
        await api.ready();
        return { api, alerts: side.alerts, moderation: side.moderation, views: side.views, history };
      } catch (error) {
        side.alerts.stop();
        await api?.close().catch(() => undefined);
        throw error;
      }
    },
  };
}

/**
 * Starts a worker. NATS is reached before PostgreSQL is opened (and migrated): a worker that cannot
 * reach NATS (NatsUnreachableError) changes nothing in the database.
 */
export async function startWorker(config: ServiceConfig, logger: Logger = serviceLogger(config.logLevel), options: WorkerOptions = {}): Promise<RunningWorker> {
  const id = options.id ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const db = requirePostgres(config);
  const nats = await connectNats(config.cluster, `standing worker ${id}`);
  logger.info({ nats: natsJoined(nats, config.cluster) }, 'NATS joined');
  let store: PostgresStore | undefined;
  // Held shared while the worker runs, as `standing serve` holds its store: `standing erase` refuses the database meanwhile.
  let hold: StoreHold | undefined;
  try {
    // A declaration the server cannot honour is refused here: the connection is closed below.
    announceDurability(logger, nats, config.cluster);
    const opened = (store = await openPostgresStore(db));
    const held = (hold = await store.hold('worker'));
    const jsm = await whenPlaced(() => jetstreamManager(nats));
    const stream = await ensureStream(jsm, config.cluster);
    const buckets = await openBuckets(nats, config.cluster);
    // History replays of every partition held: `maxHistoryJobs` at once, per worker.
    const history = historyJobsOf(config);
    return await runWorker({
      id,
      config,
      logger,
      store: opened,
      nats,
      js: jetstream(nats),
      jsm,
      stream,
      buckets,
      assembly: partitionAssembly(config, logger, history),
      async release() {
        await history.close().catch(() => undefined);
        try {
          await opened.close();
        } finally {
          await held.release();
        }
      },
    });
  } catch (error) {
    await nats.close().catch(() => undefined);
    await store?.close();
    await hold?.release();
    throw error;
  }
}
