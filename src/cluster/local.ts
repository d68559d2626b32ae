/**
 * `standing cluster-local`: a whole cluster on this machine, to try it. A three-node NATS
 * JetStream cluster (the machine's nats-server, free loopback ports, stores in a temporary
 * directory), a schema of its own in the PostgreSQL given, an ingest key and an admin key, two
 * `standing worker` and two `standing gateway` processes (replicas 3; `cluster.serverSync` as the
 * servers were configured, ./local-nats.ts). Stopping it (SIGINT or
 * SIGTERM) stops the processes, the NATS servers, and removes the directory and the schema. Each
 * role must say it runs within a bound, and gets SIGKILL if SIGTERM does not stop it within another
 * (./child-processes.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { createKey } from '../service/keys.js';
import { openPostgresStore } from '../store/postgres.js';
import { startRole, stopChild } from './child-processes.js';
import { startNatsCluster, type NatsCluster } from './local-nats.js';

export interface LocalClusterOptions {
  /** A PostgreSQL URL; the cluster makes and drops a schema of its own there. */
  readonly db: string;
  readonly workers: number;
  readonly gateways: number;
  /** The program's entry (dist/cli/main.js) the roles run from. */
  readonly main: string;
  readonly natsServer?: string;
  readonly logLevel: string;
}

export interface LocalCluster {
  readonly nats: readonly string[];
  readonly gateways: readonly string[];
  readonly ingestKey: string;
  readonly adminKey: string;
  readonly schema: string;
  /** The temporary directory (NATS stores, configuration): removed on stop. */
  readonly dir: string;
  stop(): Promise<void>;
}

/** The URL whose connections use `schema`. */
function withSchema(db: string, schema: string): string {
  return `${db}${db.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

export async function startLocalCluster(options: LocalClusterOptions): Promise<LocalCluster> {
  const schema = `standing_local_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: options.db });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  const db = withSchema(options.db, schema);
  const children: ChildProcess[] = [];
  let nats: NatsCluster | undefined;
  const stop = async () => {
    // SIGTERM (workers hand their partitions over), SIGKILL after a bound.
    await Promise.all(children.map((child) => stopChild(child)));
    await nats?.stop();
    const client = new pg.Client({ connectionString: options.db });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    } finally {
      await client.end();
    }
  };
  try {
    nats = await startNatsCluster(3, options.natsServer);
    const store = await openPostgresStore(db);
    let ingestKey: string;
    let adminKey: string;
    try {
      ingestKey = (await createKey(store, ['ingest'], 'cluster-local ingest')).key;
      adminKey = (await createKey(store, ['admin'], 'cluster-local admin')).key;
    } finally {
      await store.close();
    }
    const config = join(nats.root, 'standing.json');
    writeFileSync(config, JSON.stringify({ db, port: 0, logLevel: options.logLevel, maxClockSkewSeconds: null, cluster: { nats: nats.urls, replicas: 3, serverSync: nats.syncAlways ? 'always' : 'interval' } }));
    for (let i = 1; i <= options.workers; i++) {
      await startRole(options.main, ['worker', '--config', config, '--id', `local-worker-${i}`], /standing worker \S+ runs/, { spawned: (child) => children.push(child) });
    }
    const gateways: string[] = [];
    for (let i = 0; i < options.gateways; i++) {
      const { match } = await startRole(options.main, ['gateway', '--config', config], /standing gateway serves at (\S+)\n/, { spawned: (child) => children.push(child) });
      gateways.push(match[1]!);
    }
    return { nats: nats.urls, gateways, ingestKey, adminKey, schema, dir: nats.root, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
