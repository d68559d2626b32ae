/**
 * `standing gateway`'s composition root: a stateless HTTP front of the cluster. It checks keys
 * against the PostgreSQL store, validates each batch as the single-node service does and
 * publishes it to the event log on NATS JetStream (../cluster/gateway-routes.ts); it forwards
 * reads to the workers owning the communities (../cluster/gateway-reads.ts; the current owner's
 * answers only, by the lease epochs of ../cluster/lease-epochs.ts), serves alerts and their
 * stream from PostgreSQL and the alert stream (../cluster/alert-stream.ts), the dashboard's files
 * and the OpenAPI document, and delivers webhooks while it holds their lease
 * (../cluster/webhook-delivery.ts). Any number may run side by side.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { AlertStreamFeed, ensureAlertStream } from '../cluster/alert-stream.js';
import { ApplyOutcomes } from '../cluster/apply-outcomes.js';
import { announceDurability } from '../cluster/durability.js';
import { gatewayEraseRoute } from '../cluster/gateway-erase.js';
import { gatewayHealth } from '../cluster/gateway-health.js';
import { gatewayRefusalsRoute } from '../cluster/gateway-refusals.js';
import { forwardReads } from '../cluster/gateway-reads.js';
import { gatewayEventRoutes } from '../cluster/gateway-routes.js';
import { LeaseEpochs } from '../cluster/lease-epochs.js';
import { connectNats, ensureStream, jetstreamManager, natsJoined, openBuckets, whenPlaced } from '../cluster/nats.js';
import { WebhookDelivery } from '../cluster/webhook-delivery.js';
import type { HttpContext } from '../http/context.js';
import { serviceLogger } from '../http/log-redaction.js';
import { ServiceMetrics } from '../http/metrics.js';
import { apiRoutes, buildHttpBase, registerDashboard } from '../http/server.js';
import { startAlertPruning } from '../service/alert-pruning.js';
import { type ServiceConfig, configuredInstances } from '../service/config.js';
import { openPostgresStore, type PostgresStore } from '../store/postgres.js';
import { qualityOf } from './engine-options.js';
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
 * The routes' context on a gateway: what needs no community state is real (the configured
 * scorer instances and limits, the store for keys and alerts, the alert feed, metrics); the
 * rest belongs to the workers, and a route reaching for it is a route the gateway forgot to
 * forward (an error, answered 500).
 */
function gatewayContext(config: ServiceConfig, store: PostgresStore, alerts: AlertStreamFeed, metrics: ServiceMetrics): HttpContext {
  const workers = (what: string, known: object = {}) =>
    new Proxy(known, {
      get(target, key) {
        if (key in target) return (target as Record<string | symbol, unknown>)[key];
        throw new Error(`${what}.${String(key)} is held by the workers: a gateway forwards the routes that read it`);
      },
    });
  const live = { instances: configuredInstances(config), maxBatchEvents: config.maxBatchEvents, maxEventDepth: config.maxEventDepth, maxClockSkewSeconds: config.maxClockSkewSeconds };
  return {
    live: workers('live', live),
    store,
    views: workers('views'),
    alerts: alerts as unknown as HttpContext['alerts'],
    metrics,
    quality: qualityOf(config),
    history: workers('history'),
    moderation: workers('moderation'),
    queue: config.queue,
  } as unknown as HttpContext;
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
    forwardReads(app, { nats, cluster: config.cluster, maxPayload, epochs, health: gatewayHealth(store) });
    await registerDashboard(app);
    app.get('/v1/health', { config: {}, schema: { hide: true } }, async () => ({ status: 'ok', role: 'gateway' }));
    const outcomes = new ApplyOutcomes(nats, config.cluster);
    gatewayEventRoutes(app, {
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
    });
    gatewayEraseRoute(app, { js, outcomes, cluster: config.cluster, waitMs: 10_000 });
    gatewayRefusalsRoute(app, store, metrics);
    apiRoutes(app, gatewayContext(config, store, feed, metrics), { bodyLimitBytes: config.bodyLimitBytes, limits: config }, { erase: false });
    await app.listen({ host: config.host, port: config.port });
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
