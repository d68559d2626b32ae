/**
 * Webhooks in a cluster: one gateway at a time delivers them. It holds the lease on the key
 * `holder` of the `<stream>-webhooks` bucket (./lease-bucket.ts: taken only when absent, renewed
 * by compare-and-set, lapsing after `leaseSeconds`) and reads the alert stream through the
 * durable consumer `webhooks`, one alert at a time: it POSTs it to every configured URL as
 * `standing serve` does (../service/webhooks.ts: signed, retried), then acknowledges it. The
 * next holder goes on from the first alert not acknowledged, so an alert is delivered once; only
 * a holder that stops between a receiver's answer and the acknowledgement leaves that one alert
 * to be delivered again.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Consumer, JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import type { ServiceConfig } from '../service/config.js';
import { WebhookSender } from '../service/webhooks.js';
import type { StoredAlert } from '../store/types.js';
import { alertStreamName, webhookConsumerConfig } from './alert-stream.js';
import { LeaseBucket } from './lease-bucket.js';
import { whenPlaced } from './nats.js';

const KEY = 'holder';
/** How long the stream may wait for a delivery's acknowledgement before giving the alert to another reader; a delivery in progress extends it. */
const ACK_WAIT_MS = 30_000;

export class WebhookDelivery {
  private revision: number | undefined;
  private renewed = 0;
  private timer: NodeJS.Timeout | undefined;
  private loop: Promise<void> | undefined;
  private ticking: Promise<void> = Promise.resolve();
  private closing = false;
  private readonly sender: WebhookSender;
  private readonly leaseMs: number;

  private constructor(
    private readonly id: string,
    config: ServiceConfig,
    private readonly lease: LeaseBucket,
    private readonly consumer: Consumer,
    private readonly logger: Logger,
  ) {
    this.leaseMs = config.cluster.leaseSeconds * 1000;
    this.sender = new WebhookSender(config.alerts.webhooks, config.alerts.webhookRetryMs, (d) => (d.ok ? logger.debug(d, 'webhook delivered') : logger.warn(d, 'webhook delivery failed')));
  }

  /** Competes for the delivery lease when webhooks are configured; undefined when none are. */
  static async start(nats: NatsConnection, js: JetStreamClient, jsm: JetStreamManager, config: ServiceConfig, logger: Logger): Promise<WebhookDelivery | undefined> {
    if (config.alerts.webhooks.length === 0) return undefined;
    const cluster = config.cluster;
    // Each step tried again while the JetStream API pauses (a server just lost), as the streams are.
    const kv = await whenPlaced(() => new Kvm(nats).create(`${cluster.stream}-webhooks`, { replicas: cluster.replicas, history: 1, ttl: cluster.leaseSeconds * 1000 }));
    // Made by the first gateway with webhooks: alerts from then on wait for a delivery.
    const wanted = webhookConsumerConfig(cluster, ACK_WAIT_MS);
    await whenPlaced(() =>
      jsm.consumers.add(alertStreamName(cluster), wanted).catch(async (error: unknown) => {
        const made = await jsm.consumers.info(alertStreamName(cluster), 'webhooks').catch(() => undefined);
        if (made === undefined) throw error;
        // Made by an earlier version, for alerts on one subject per partition: every alert subject from now on.
        if (made.config.filter_subject !== wanted.filter_subject) await jsm.consumers.update(alertStreamName(cluster), 'webhooks', { filter_subject: wanted.filter_subject });
        return made;
      }),
    );
    const consumer = await whenPlaced(() => js.consumers.get(alertStreamName(cluster), 'webhooks'));
    const delivery = new WebhookDelivery(`${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`, config, new LeaseBucket(kv), consumer, logger);
    await delivery.tick();
    delivery.timer = setInterval(() => {
      delivery.ticking = delivery.ticking.then(() => delivery.tick());
    }, Math.max(100, Math.floor(delivery.leaseMs / 3)));
    return delivery;
  }

  /** Whether this gateway delivers webhooks now. */
  get holding(): boolean {
    return this.revision !== undefined;
  }

  private async tick(): Promise<void> {
    if (this.closing) return;
    if (this.revision === undefined) {
      const taken = await this.lease.take(KEY, this.id);
      if (taken === undefined) return; // held by another gateway
      this.revision = taken;
      this.renewed = Date.now();
      this.logger.info({ holder: this.id }, 'delivering webhooks');
      this.loop = this.deliverAll();
      return;
    }
    const renewed = await this.lease.renew(KEY, this.id, this.revision);
    if (typeof renewed === 'number') {
      this.revision = renewed;
      this.renewed = Date.now();
    } else if (renewed === 'lost' || Date.now() - this.renewed >= this.leaseMs) {
      this.logger.warn({ holder: this.id }, 'webhook lease lost: delivery stops');
      this.revision = undefined;
    }
  }

  /** Takes alerts one at a time while holding the lease: deliver, then acknowledge. */
  private async deliverAll(): Promise<void> {
    while (this.revision !== undefined && !this.closing) {
      const message = await this.consumer.next({ expires: Math.min(5_000, Math.max(1_000, this.leaseMs)) }).catch((error: unknown) => {
        this.logger.warn({ err: error }, 'reading the alert stream for webhooks failed');
        return null;
      });
      if (message === null) continue;
      const progress = setInterval(() => message.working(), ACK_WAIT_MS / 3);
      try {
        this.sender.send([message.json<StoredAlert>()]);
        await this.sender.settled();
      } catch (error) {
        this.logger.error({ err: error, streamSequence: message.seq }, 'alert message unreadable: not delivered');
      } finally {
        clearInterval(progress);
      }
      await message.ackAck().catch(() => message.ack());
    }
  }

  /** Finishes the delivery in progress, acknowledges it and gives the lease up. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    await this.ticking;
    await this.loop;
    this.sender.stop();
    if (this.revision !== undefined) await this.lease.release(KEY, this.revision);
    this.revision = undefined;
  }
}
