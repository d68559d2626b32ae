/**
 * Alerts in a cluster. A worker raises alerts for the communities of the partitions it holds, as
 * `standing serve` does (../service/alerts.ts), stores them in PostgreSQL fenced by its lease's
 * epoch (a worker that lost its lease raises nothing), then publishes each to the alert stream
 * `<stream>-alerts` on subject `<stream>-alerts.<partition>.<player hash>` (the FNV-1a-32 of the
 * alert's player, 8 hex digits), in id order, with message id `alert-<id>` (JetStream drops a
 * second publish of it within the duplicate window). What a partition's owner has published is
 * read back from the stream (the last message on its subjects), so a new owner publishes exactly
 * what its predecessor stored and did not publish. An erasure finds a player's alerts by their
 * subject and deletes them with JetStream's erasing delete (./erasing-delete.ts). Streams made
 * by earlier versions (subjects `<stream>-alerts.*`, one per partition) are widened to
 * `<stream>-alerts.>` on start; the alerts they already hold stay on `<stream>-alerts.<partition>`,
 * where an erasure reads them all. Gateways read the stream: every gateway feeds its SSE streams
 * from it, and one of them delivers webhooks (./webhook-delivery.ts).
 */
import { AckPolicy, DeliverPolicy, StorageType, type ConsumerMessages, type JetStreamClient, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import { headers as natsHeaders, nanos } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import { ConfigError } from '../errors.js';
import type { ServiceConfig } from '../service/config.js';
import { alertPagesAfter } from '../store/pages.js';
import type { AlertStore, StoredAlert } from '../store/types.js';
import { fnv1a32 } from '../util/fnv1a.js';
import { eraseNaming, lastMessageOn } from './erasing-delete.js';
import { whenPlaced, type ClusterConfig } from './nats.js';
import { partitionOf } from '../store/partitions.js';

export const alertStreamName = (config: Pick<ClusterConfig, 'stream'>) => `${config.stream}-alerts`;
/** The subject of partition `partition`'s alerts about `player`. */
export const alertSubject = (config: Pick<ClusterConfig, 'stream'>, partition: number, player: string) =>
  `${alertStreamName(config)}.${partition}.${fnv1a32(player).toString(16).padStart(8, '0')}`;
/** Every subject of partition `partition`'s alerts. */
const partitionAlerts = (config: Pick<ClusterConfig, 'stream'>, partition: number) => `${alertStreamName(config)}.${partition}.*`;
/** The one subject of a partition's alerts in a stream made by an earlier version. */
const legacyAlertSubject = (config: Pick<ClusterConfig, 'stream'>, partition: number) => `${alertStreamName(config)}.${partition}`;
/** The subjects of the alert stream. */
export const alertSubjects = (config: Pick<ClusterConfig, 'stream'>) => `${alertStreamName(config)}.>`;
/** The header naming the alert a message carries. */
export const ALERT_ID_HEADER = 'Standing-Alert-Id';

/** The stream's description names the last alert id PostgreSQL held when it was made: older alerts are not published. */
const description = (after: number) => `standing alerts after id ${after}`;
const DESCRIBED = /^standing alerts after id (\d+)$/;

/**
 * Creates the alert stream when missing (kept as long as `alerts.retentionDays` keeps alerts,
 * or for ever), and answers the alert id publishing starts after.
 */
export async function ensureAlertStream(jsm: JetStreamManager, config: Pick<ServiceConfig, 'cluster' | 'alerts'>, store: AlertStore): Promise<number> {
  const name = alertStreamName(config.cluster);
  let info;
  try {
    info = await whenPlaced(() => jsm.streams.info(name));
  } catch (error) {
    if ((error as { name?: string }).name !== 'StreamNotFoundError' && (error as { code?: number }).code !== 404) throw error;
    const newest = await store.readAlerts({ newestFirst: true, limit: 1 });
    const after = newest[0]?.id ?? 0;
    try {
      await jsm.streams.add({
        name,
        subjects: [alertSubjects(config.cluster)],
        storage: StorageType.File,
        num_replicas: config.cluster.replicas,
        duplicate_window: nanos(config.cluster.duplicateWindowSeconds * 1000),
        max_age: config.alerts.retentionDays > 0 ? nanos(config.alerts.retentionDays * 86_400_000) : 0,
        description: description(after),
      });
      return after;
    } catch (raced) {
      info = await jsm.streams.info(name).catch(() => {
        throw raced;
      });
    }
  }
  const found = DESCRIBED.exec(info.config.description ?? '');
  if (found === null) throw new ConfigError('cluster', 'cluster.stream', `the NATS stream "${name}" exists and was not created by standing (its description is "${info.config.description ?? ''}")`);
  // Made by an earlier version: one subject per partition, widened to take a player's hash.
  const subjects = info.config.subjects ?? [];
  if (subjects.length !== 1 || subjects[0] !== alertSubjects(config.cluster)) await jsm.streams.update(name, { ...info.config, subjects: [alertSubjects(config.cluster)] });
  return Number(found[1]);
}

/**
 * A partition owner's publisher of stored alerts: it publishes every alert of the partition's
 * communities stored after the last one the stream holds for the partition, in id order.
 */
export class AlertOutbox {
  private published = 0;
  private chain: Promise<void> = Promise.resolve();

  private constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly store: AlertStore,
    private readonly config: ClusterConfig,
    private readonly partition: number,
    private readonly logger: Logger,
  ) {}

  /** Reads how far the stream holds the partition's alerts, then publishes what is missing. */
  static async open(js: JetStreamClient, jsm: JetStreamManager, store: AlertStore, config: ClusterConfig, partition: number, startAfter: number, logger: Logger): Promise<AlertOutbox> {
    const outbox = new AlertOutbox(js, jsm, store, config, partition, logger);
    const ids = await Promise.all([partitionAlerts(config, partition), legacyAlertSubject(config, partition)].map((subject) => lastAlertId(jsm, config, subject)));
    outbox.published = Math.max(startAfter, ...ids);
    await outbox.publish();
    return outbox;
  }

  /**
   * Deletes with `erase` the partition's alerts about `player` from the stream (those on the
   * player's subject, and those of an earlier version's stream on the partition's one), after
   * every publish asked for before: PostgreSQL no longer holds them, so none is published again.
   * Answers how many. A failure is the caller's: the erase command is applied again.
   */
  erase(player: string): Promise<number> {
    const stream = alertStreamName(this.config);
    const about = (message: JsMsg) => {
      try {
        return message.json<StoredAlert>().player === player;
      } catch {
        return false;
      }
    };
    const done = this.chain.then(async () => {
      const erased = await Promise.all([alertSubject(this.config, this.partition, player), legacyAlertSubject(this.config, this.partition)].map((subject) => eraseNaming(this.js, this.jsm, stream, subject, about)));
      return erased.flat().length;
    });
    this.chain = done.then(
      () => undefined,
      () => undefined,
    );
    return done;
  }

  /** Publishes the partition's alerts stored since the last publish (one at a time, in id order); a failure is retried by the next call. */
  publish(): Promise<void> {
    this.chain = this.chain.then(() =>
      this.publishPending().catch((error: unknown) => this.logger.warn({ err: error, partition: this.partition }, 'publishing alerts failed (retried with the next ones)')),
    );
    return this.chain;
  }

  private async publishPending(): Promise<void> {
    for await (const page of alertPagesAfter(this.store, { after: this.published })) {
      for (const alert of page) {
        if (partitionOf(alert.community, this.config.partitions) !== this.partition) continue;
        const h = natsHeaders();
        h.set(ALERT_ID_HEADER, String(alert.id));
        await this.js.publish(alertSubject(this.config, this.partition, alert.player), JSON.stringify(alert), { msgID: `alert-${alert.id}`, headers: h });
        this.published = alert.id;
      }
    }
  }
}

/**
 * A gateway's feed of the alert stream: from the moment it starts, every alert published, once,
 * to every listener (an ordered consumer, recreated by the client after a connection loss).
 */
export class AlertStreamFeed {
  private readonly listeners = new Set<(alerts: readonly StoredAlert[]) => void>();
  private loop: Promise<void> = Promise.resolve();

  private constructor(private readonly messages: ConsumerMessages) {}

  static async start(js: JetStreamClient, config: ClusterConfig, logger: Logger): Promise<AlertStreamFeed> {
    const consumer = await whenPlaced(() => js.consumers.get(alertStreamName(config), { deliver_policy: DeliverPolicy.New }));
    const feed = new AlertStreamFeed(await consumer.consume());
    feed.loop = (async () => {
      for await (const message of feed.messages) {
        const alert = message.json<StoredAlert>();
        for (const listener of feed.listeners) listener([alert]);
      }
    })().catch((error: unknown) => logger.error({ err: error }, 'alert feed stopped'));
    return feed;
  }

  subscribe(listener: (alerts: readonly StoredAlert[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async stop(): Promise<void> {
    this.messages.stop();
    await this.loop;
  }
}

/** The durable consumer that delivers webhooks: one delivery at a time, acknowledged after it. */
export const webhookConsumerConfig = (config: ClusterConfig, ackWaitMs: number) => ({
  durable_name: 'webhooks',
  ack_policy: AckPolicy.Explicit,
  deliver_policy: DeliverPolicy.New,
  max_ack_pending: 1,
  ack_wait: nanos(ackWaitMs),
  filter_subject: alertSubjects(config),
});

/** The id of the last alert on `subject` (0 when it holds none). */
async function lastAlertId(jsm: JetStreamManager, config: ClusterConfig, subject: string): Promise<number> {
  const last = await lastMessageOn(jsm, alertStreamName(config), subject);
  const id = Number(last?.header?.get(ALERT_ID_HEADER) ?? NaN);
  return Number.isInteger(id) ? id : 0;
}
