/**
 * `standing gateway`'s composition root: a stateless HTTP front of the cluster. It joins NATS,
 * opens the PostgreSQL store (keys, alerts, the audit log, refusals), the event log and the alert
 * stream on JetStream, the alert feed, webhook delivery (one gateway at a time, while it holds
 * their lease: ../cluster/webhook-delivery.ts) and the partitions' lease epochs, and serves its
 * API (../cluster/gateway-api.ts): batches validated as the single-node service does and
 * published to the event log, reads forwarded to the workers owning the communities, the rest
 * answered from PostgreSQL and the alert stream. Any number may run side by side.
 */
import { listenError } from './listen-error.js';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { AlertStreamFeed, ensureAlertStream } from '../cluster/alert-stream.js';
import { ApplyOutcomes } from '../cluster/apply-outcomes.js';
import { announceDurability } from '../cluster/durability.js';
import { gatewayApi } from '../cluster/gateway-api.js';
import { LeaseEpochs } from '../cluster/lease-epochs.js';
import { connectNats, ensureStream, jetstreamManager, natsJoined, openBuckets, whenPlaced } from '../cluster/nats.js';
import { WebhookDelivery } from '../cluster/webhook-delivery.js';
import { serviceLogger } from '../http/log-redaction.js';
import { ServiceMetrics } from '../http/metrics.js';
import { buildHttpBase } from '../http/server.js';
import { startAlertPruning } from '../service/alert-pruning.js';
import { type ServiceConfig, configuredInstances } from '../service/config.js';
import { openPostgresStore, type PostgresStore } from '../store/postgres.js';
import { requirePostgres } from './require-postgres.js';

export interface RunningGateway {
  readonly url: string;
  readonly app: FastifyInstance;
  readonly nats: NatsConnection;
  /** Delivers webhooks when configured (one gateway of the cluster at a time). */
  readonly webhooks: WebhookDelivery | undefined;
  close(): Promise<void>;
}

/**
 * Starts a gateway. NATS is reached before PostgreSQL is opened (and migrated): a gateway that
 * cannot reach NATS (NatsUnreachableError) changes nothing in the database.
 */
export async function startGateway(config: ServiceConfig, logger: Logger = serviceLogger(config.logLevel)): Promise<RunningGateway> {
  const db = requirePostgres(config);
  const nats = await connectNats(config.cluster, 'standing gateway');
  logger.info({ nats: natsJoined(nats, config.cluster) }, 'NATS joined');
  let opened: PostgresStore | undefined;
  let epochs: LeaseEpochs | undefined;
  try {
    // A declaration the server cannot honour is refused here: the connection is closed below.
    announceDurability(logger, nats, config.cluster);
    const store = (opened = await openPostgresStore(db));
    const jsm = await whenPlaced(() => jetstreamManager(nats));
    await ensureStream(jsm, config.cluster);
    await ensureAlertStream(jsm, config, store);
    const js = jetstream(nats);
    const feed = await AlertStreamFeed.start(js, config.cluster, logger);
    const webhooks = await WebhookDelivery.start(nats, js, jsm, config, logger);
    const metrics = new ServiceMetrics();
    const app = await buildHttpBase(store, { bodyLimitBytes: config.bodyLimitBytes, publicRead: config.publicRead, logger, limits: config });
    const maxPayload = nats.info?.max_payload ?? 1024 * 1024;
    epochs = LeaseEpochs.start((await openBuckets(nats, config.cluster)).leases, logger);
    const outcomes = new ApplyOutcomes(nats, config.cluster);
    await gatewayApi(app, {
      store,
      alerts: feed,
      metrics,
      instances: configuredInstances(config),
      limits: config,
      streams: config,
      ingest: {
        js,
        nats,
        epochs,
        outcomes,
        cluster: config.cluster,
        maxBatchEvents: config.maxBatchEvents,
        limits: {
          maxSkewMs: config.maxClockSkewSeconds === null ? Infinity : config.maxClockSkewSeconds * 1000,
          clock: Date.now,
          maxEventDepth: config.maxEventDepth,
        },
        maxPayload,
        metrics,
      },
      erase: { js, outcomes, cluster: config.cluster, waitMs: 10_000 },
      reads: { nats, cluster: config.cluster, maxPayload, epochs },
      playerTokens: config.playerTokens,
    });
    await app.listen({ host: config.host, port: config.port }).catch((error: unknown) => {
      throw listenError(error, config);
    });
    // Every gateway prunes as `standing serve` does: the same DELETE from each is harmless.
    const pruning = startAlertPruning(store, config.alerts.retentionDays, logger);
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : config.port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    const connection = nats;
    const leaseEpochs = epochs;
    let closing: Promise<void> | undefined;
    return {
      url: `http://${host}:${port}`,
      app,
      nats: connection,
      webhooks,
      close() {
        closing ??= (async () => {
          pruning.stop();
          await app.close();
          outcomes.stop();
          await webhooks?.close();
          await feed.stop();
          await leaseEpochs.stop();
          await connection.drain();
          await store.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await epochs?.stop();
    await nats.close().catch(() => undefined);
    await opened?.close();
    throw error;
  }
}
