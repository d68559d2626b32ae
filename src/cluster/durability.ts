/**
 * A batch a gateway answers 200 is committed in PostgreSQL (applied). What a message the event
 * log acknowledged and no worker has applied yet survives depends on when the NATS servers write
 * JetStream to disk.
 * nats-server before 2.10.0 has no setting for it: it writes to the operating system at once and
 * forces the data to disk (fsync) every 2 minutes, so a power loss of a majority of a stream's
 * replicas can lose what they acknowledged since. From 2.10.0 the `jetstream` block takes
 * `sync_interval` (same default), and `sync_interval: always` forces every write to disk before
 * it is acknowledged (nats.docs, running-a-nats-service/configuration, JetStream table, version
 * column). A client sees a server's version (in its INFO) but not its settings, so the operator
 * declares the setting (`cluster.serverSync`), a declaration the connected server's version
 * cannot honour is refused, and a gateway or worker states at start the mode it runs in, claiming
 * no more than the declaration and the version allow.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import { ConfigError } from '../errors.js';
import type { ClusterConfig } from './nats.js';

/** The first nats-server version that knows `sync_interval` (and so `always`). */
export const SYNC_ALWAYS_SINCE = [2, 10, 0] as const;

/** The `major.minor.patch` numbers of a version string (`v2.9.10`, `nats-server: v2.10.4`, `2.11.0-beta.1`), or undefined. */
export function parseVersion(text: string): [number, number, number] | undefined {
  const found = /(\d+)\.(\d+)\.(\d+)/.exec(text);
  return found === null ? undefined : [Number(found[1]), Number(found[2]), Number(found[3])];
}

/** Whether a nats-server of `version` takes `sync_interval: always` (false when the version cannot be read). */
export function supportsSyncAlways(version: string): boolean {
  const numbers = parseVersion(version);
  if (numbers === undefined) return false;
  for (let i = 0; i < 3; i++) if (numbers[i] !== SYNC_ALWAYS_SINCE[i]) return numbers[i]! > SYNC_ALWAYS_SINCE[i]!;
  return true;
}

export interface DurabilityMode {
  /** The connected server's version, from its INFO. */
  readonly natsServer: string;
  /** `always`: every acknowledged message is on disk; `interval`: on disk within the servers' sync interval. */
  readonly serverSync: ClusterConfig['serverSync'];
  readonly replicas: number;
  /** What an answered batch and a message not yet applied survive, in one sentence. */
  readonly survives: string;
}

/**
 * The mode `cluster` declares, checked against the version of the server `version` names: a
 * declared `always` on a server older than 2.10.0 is refused (it has no such setting).
 */
export function durabilityMode(version: string, cluster: Pick<ClusterConfig, 'serverSync' | 'replicas'>): DurabilityMode {
  if (cluster.serverSync === 'always' && !supportsSyncAlways(version)) {
    throw new ConfigError(
      'cluster',
      'cluster.serverSync',
      `"always" is declared but the NATS server connected to is ${version}, which has no sync_interval setting (it came with 2.10.0): it forces JetStream to disk every 2 minutes; upgrade the servers or declare "interval"`,
    );
  }
  const majority = Math.floor(cluster.replicas / 2) + 1;
  // A 200 is a PostgreSQL commit (the batch is applied); what the servers' sync decides is the fate of messages not yet applied.
  const applied = 'a batch answered 200 is committed in PostgreSQL and survives every NATS failure';
  const survives =
    cluster.serverSync === 'always'
      ? `${applied}; a message the log acknowledged is on disk on ${majority} of ${cluster.replicas} replicas: one not yet applied survives process crashes and power losses`
      : cluster.replicas >= 3
        ? `${applied}; a message the log acknowledged is in the memory of ${majority} of ${cluster.replicas} replicas and on disk within the servers' sync interval (2 min by default): one not yet applied survives process crashes and one server's power loss alone, not power losses of ${majority} servers within that interval`
        : `${applied}; a message the log acknowledged is on disk within the servers' sync interval (2 min by default): one not yet applied survives process crashes, not a power loss within that interval`;
  return { natsServer: version, serverSync: cluster.serverSync, replicas: cluster.replicas, survives };
}

/** Checks and logs the mode a gateway or worker runs in, once connected. */
export function announceDurability(logger: Logger, nats: NatsConnection, cluster: Pick<ClusterConfig, 'serverSync' | 'replicas'>): DurabilityMode {
  const mode = durabilityMode(nats.info?.version ?? 'unknown', cluster);
  logger.info({ natsServer: mode.natsServer, serverSync: mode.serverSync, replicas: mode.replicas }, `durability: nats-server ${mode.natsServer}, sync ${mode.serverSync}; ${mode.survives}`);
  return mode;
}
