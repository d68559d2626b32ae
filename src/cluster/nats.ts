/**
 * The cluster's connection to NATS and what it keeps there: the event stream (one subject per
 * partition, created once with its number of partitions, which every later start checks, and a
 * random identity of its own, which PostgreSQL records with each partition's sequences), and the
 * key-value buckets of partition leases and live workers.
 */
import { jetstreamManager, StorageType, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import { randomUUID } from 'node:crypto';
import { ConfigError, StandingError } from '../errors.js';
import type { StreamIdentity } from '../store/partitions.js';
import type { ServiceConfig } from '../service/config.js';

export type ClusterConfig = ServiceConfig['cluster'];

/** The subject of partition `partition`'s events. */
export function partitionSubject(config: Pick<ClusterConfig, 'stream'>, partition: number): string {
  return `${config.stream}.${partition}`;
}

/**
 * What the stream's description says, and how its number of partitions and its identity are read
 * back from it. The identity is new each time the stream is made, so a stream deleted and made
 * again (sequences restarting at 1) is told from the one PostgreSQL's sequences count in.
 */
const description = (partitions: number, id: string) => `standing event log: ${partitions} partitions, instance ${id}`;
const DESCRIBED = /^standing event log: (\d+) partitions, instance (\S+)$/;

/**
 * JetStream's answers while a cluster is still forming: not every server has joined the meta group
 * yet ("no suitable peers for placement", 10005) or it has no leader for the moment (10008,
 * "JetStream system temporarily unavailable", also while it elects a new one after a server died).
 */
const FORMING = new Set([10005, 10008]);
/** How long a creation waits for a forming cluster before giving up (ms). */
const FORMING_WAIT_MS = 30_000;

/** Whether `error` says the JetStream API is paused (forming, electing, or a request timing out meanwhile). */
function paused(error: unknown): boolean {
  const { code, name, cause } = error as { code?: unknown; name?: unknown; cause?: { name?: unknown } };
  return (typeof code === 'number' && FORMING.has(code)) || name === 'TimeoutError' || cause?.name === 'TimeoutError';
}

/** Errors of the NATS client that say the servers are away for now, not that the request is wrong. */
const AWAY = new Set(['TimeoutError', 'NoResponders', 'ClosedConnectionError', 'ConnectionError']);

/**
 * Whether `error` says NATS is away for the moment rather than that anything is wrong with what
 * was asked: the JetStream API paused (forming, electing, 503), a request not answered in time or
 * by nobody, the connection lost. A partition that fails so is not held against it (./backoff.ts).
 */
export function natsAway(error: unknown): boolean {
  for (let e = error as { code?: unknown; status?: unknown; name?: unknown; cause?: unknown } | undefined, depth = 0; e !== undefined && e !== null && depth < 4; e = e.cause as typeof e, depth++) {
    if (paused(e) || e.status === 503 || (typeof e.name === 'string' && AWAY.has(e.name))) return true;
  }
  return false;
}

/**
 * Runs `create` (a stream's or a bucket's, or a look at one), trying again every 250 ms while the
 * JetStream API answers that the cluster is forming or has no leader, or does not answer in time,
 * for at most 30 s: a gateway or worker started alongside a fresh NATS cluster, or just after one of
 * its servers died, waits for the servers instead of failing.
 */
export async function whenPlaced<T>(create: () => Promise<T>, waitMs = FORMING_WAIT_MS): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return await create();
    } catch (error) {
      if (!paused(error) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** No NATS server of the configuration could be reached at start: names them and the reason. */
export class NatsUnreachableError extends StandingError {
  readonly code = 'NATS_UNREACHABLE' as const;
  constructor(
    readonly servers: readonly string[],
    readonly reason: string,
  ) {
    super(`no NATS server answered at ${servers.join(', ')} (${reason}): start one there, or name yours with --nats, STANDING_NATS or cluster.nats`);
  }
}

/** A connection failure in one line: the client's message and the system's (`connection refused: connect ECONNREFUSED 127.0.0.1:4222`). */
function connectFailure(error: unknown): string {
  const message = (error as Error).message;
  const cause = (error as { cause?: { message?: unknown } }).cause?.message;
  return typeof cause === 'string' && cause !== message ? `${message}: ${cause}` : message;
}

/**
 * Connects to any of `config.nats`, reconnecting for as long as the process runs once connected.
 * The first connection is tried once on each server: when none answers, NatsUnreachableError.
 */
export async function connectNats(config: Pick<ClusterConfig, 'nats'>, name: string): Promise<NatsConnection> {
  try {
    return await connect({ servers: [...config.nats], name, maxReconnectAttempts: -1, reconnectTimeWait: 250 });
  } catch (error) {
    throw new NatsUnreachableError(config.nats, connectFailure(error));
  }
}

/** The NATS server a connection joined, as a start line names it. */
export interface NatsJoined {
  /** The server's URL (`nats://host:port`). */
  readonly url: string;
  /** Its `server_name` (its id when it was given none). */
  readonly server: string;
  readonly serverId: string;
  readonly version: string;
  /** The name of its cluster; undefined for a server alone. */
  readonly cluster: string | undefined;
}

export function natsJoined(nc: NatsConnection, config: Pick<ClusterConfig, 'nats'>): NatsJoined {
  const at = nc.getServer();
  const info = nc.info;
  return {
    url: config.nats.find((url) => url.replace(/\/+$/, '').endsWith(`//${at}`)) ?? `nats://${at}`,
    server: info?.server_name ?? info?.server_id ?? 'unknown',
    serverId: info?.server_id ?? 'unknown',
    version: info?.version ?? 'unknown',
    cluster: info?.cluster,
  };
}

/** `NATS nats://127.0.0.1:4222 (server n1, id NB4X…, version 2.9.10, cluster standing-local)`: for start lines. */
export function describeNats(joined: NatsJoined): string {
  const id = joined.server === joined.serverId ? '' : `, id ${joined.serverId}`;
  const cluster = joined.cluster === undefined ? 'no cluster' : `cluster ${joined.cluster}`;
  return `NATS ${joined.url} (server ${joined.server}${id}, version ${joined.version}, ${cluster})`;
}

/**
 * Creates the event stream when it is missing; refuses one created with another number of
 * partitions (a community's partition would change, and its order with it), or not by standing.
 * Answers the stream's identity.
 */
export async function ensureStream(jsm: JetStreamManager, config: ClusterConfig): Promise<StreamIdentity> {
  let info;
  try {
    info = await whenPlaced(() => jsm.streams.info(config.stream));
  } catch (error) {
    if ((error as { name?: string }).name !== 'StreamNotFoundError' && (error as { code?: number }).code !== 404) throw error;
    const id = randomUUID();
    try {
      await whenPlaced(() =>
        jsm.streams.add({
          name: config.stream,
          subjects: [`${config.stream}.*`],
          storage: StorageType.File,
          num_replicas: config.replicas,
          duplicate_window: nanos(config.duplicateWindowSeconds * 1000),
          description: description(config.partitions, id),
        }),
      );
      return { name: config.stream, id, partitions: config.partitions };
    } catch (raced) {
      // Another process created it first: check that one.
      info = await jsm.streams.info(config.stream).catch(() => {
        throw raced;
      });
    }
  }
  const found = DESCRIBED.exec(info.config.description ?? '');
  if (found === null) throw new ConfigError('cluster', 'cluster.stream', `the NATS stream "${config.stream}" exists and was not created by standing (its description is "${info.config.description ?? ''}")`);
  if (Number(found[1]) !== config.partitions) {
    throw new ConfigError(
      'cluster',
      'cluster.partitions',
      `the NATS stream "${config.stream}" was created with ${found[1]} partitions, the configuration says ${config.partitions}: a community's partition would change (set cluster.partitions to ${found[1]}, or use a new stream)`,
    );
  }
  return { name: config.stream, id: found[2]!, partitions: config.partitions };
}

/**
 * The keys of `kv`, listed within `ms` or refused with an error: the listing goes through an
 * ordered consumer whose end is only signalled by a message or a heartbeat, and under load (or with
 * entries expiring as it starts) it can wait on neither for ever, which would stall whoever awaits it.
 */
export async function keysWithin(kv: KV, ms: number): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  let stop: ((error: Error) => void) | undefined;
  let timedOut: Error | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = new Error(`listing the keys of a NATS bucket took over ${ms} ms`);
      stop?.(timedOut);
      reject(timedOut);
    }, ms);
  });
  try {
    return await Promise.race([
      (async () => {
        const keys = await kv.keys();
        // A listing that starts after the bound is stopped at once (its consumer would linger).
        if (timedOut !== undefined) keys.stop(timedOut);
        stop = (error) => keys.stop(error);
        // Once each: the listing's consumer, made again after a server is lost, can deliver a key twice.
        const names = new Set<string>();
        for await (const name of keys) names.add(name);
        return [...names];
      })(),
      late,
    ]);
  } finally {
    clearTimeout(timer);
    late.catch(() => undefined);
  }
}

/** The buckets the workers coordinate through. */
export interface Buckets {
  /** One key per partition (`p<N>`): the lease on it. */
  readonly leases: KV;
  /** One key per live worker, renewed with its leases; gone when it stops renewing. */
  readonly workers: KV;
}

/** Opens (creating when missing) the lease and worker buckets; their entries expire after a lease's length. */
export async function openBuckets(nc: NatsConnection, config: ClusterConfig): Promise<Buckets> {
  const kvm = new Kvm(nc);
  const options = { replicas: config.replicas, history: 1, ttl: config.leaseSeconds * 1000 };
  const leases = await whenPlaced(() => kvm.create(`${config.stream}-leases`, options));
  const workers = await whenPlaced(() => kvm.create(`${config.stream}-workers`, options));
  return { leases, workers };
}

export { jetstreamManager };
