/**
 * `standing cluster-local`: a whole cluster on this machine, to try it. A three-node NATS
 * JetStream cluster (the machine's nats-server, loopback ports, free ones or a block from a given
 * port, stores in a temporary directory), a schema of its own in the PostgreSQL given (named, or
 * `standing_local_<random>`), an ingest key and an admin key, two `standing worker` and two
 * `standing gateway` processes (replicas 3, `cluster.serverSync` as the servers were configured,
 * ./local-nats.ts; the gateways on free ports or from a given port). It is started once the
 * workers serve every partition where it stays (./local-settle.ts). Every
 * process runs in a process group of its own, so a Ctrl-C at the terminal reaches this one alone;
 * stopping it stops the gateways first (no request arrives any more), then the workers (each hands
 * its partitions over, writing to NATS and PostgreSQL), then the NATS servers, and removes the
 * directory and the schema. Each role must say it runs within a bound, and gets SIGKILL if SIGTERM
 * does not stop it within another (./child-processes.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { resolveConfig } from '../service/config.js';
import { createKey } from '../service/keys.js';
import { openPostgresStore } from '../store/postgres.js';
import { startRole, stopChild } from './child-processes.js';
import { portFree, startNatsCluster, type NatsCluster } from './local-nats.js';
import { settled } from './local-settle.js';
import { SCHEMA_NAME } from './local-schema.js';

export interface LocalClusterOptions {
  /** A PostgreSQL URL; the cluster makes and drops a schema of its own there. */
  readonly db: string;
  readonly workers: number;
  readonly gateways: number;
  /** The program's entry (dist/cli/main.js) the roles run from. */
  readonly main: string;
  readonly natsServer?: string;
  readonly logLevel: string;
  /** The first gateway's port, the others following; default: free ports. */
  readonly port?: number;
  /** The first NATS server's client port (./local-nats.ts); default: free ports. */
  readonly natsPort?: number;
  /** The PostgreSQL schema to make (and drop on stop); it must not exist. Default `standing_local_<random>`. */
  readonly schema?: string;
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
  const schema = options.schema ?? `standing_local_${randomBytes(4).toString('hex')}`;
  if (!SCHEMA_NAME.test(schema)) throw new Error(`schema "${schema}" is not a name cluster-local takes (lower-case letters, digits and _, not first a digit, at most 63)`);
  const gatewayPorts = Array.from({ length: options.gateways }, (_, i) => (options.port === undefined ? 0 : options.port + i));
  for (const [i, port] of gatewayPorts.entries()) if (port !== 0) await portFree(port, `gateway ${i + 1}`);
  const admin = new pg.Client({ connectionString: options.db });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  const db = withSchema(options.db, schema);
  const gatewayProcesses: ChildProcess[] = [];
  const workerProcesses: ChildProcess[] = [];
  let nats: NatsCluster | undefined;
  const stop = async () => {
    // SIGTERM, SIGKILL after a bound: the gateways, then the workers (they hand their partitions
    // over through NATS and PostgreSQL), then the NATS servers they needed until then.
    await Promise.all(gatewayProcesses.map((child) => stopChild(child)));
    await Promise.all(workerProcesses.map((child) => stopChild(child)));
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
    nats = await startNatsCluster(3, options.natsServer, { ...(options.natsPort === undefined ? {} : { firstPort: options.natsPort }), ownGroup: true });
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
    const values = { db, port: 0, logLevel: options.logLevel, maxClockSkewSeconds: null, cluster: { nats: nats.urls, replicas: 3, serverSync: nats.syncAlways ? 'always' : 'interval' } };
    writeFileSync(config, JSON.stringify(values));
    for (let i = 1; i <= options.workers; i++) {
      await startRole(options.main, ['worker', '--config', config, '--id', `local-worker-${i}`], /standing worker \S+ runs/, { spawned: (child) => workerProcesses.push(child), ownGroup: true });
    }
    const gateways: string[] = [];
    for (const port of gatewayPorts) {
      const { match } = await startRole(options.main, ['gateway', '--config', config, '--port', String(port)], /standing gateway serves at (\S+) with /, {
        spawned: (child) => gatewayProcesses.push(child),
        ownGroup: true,
      });
      gateways.push(match[1]!);
    }
    // Said to run only once the workers serve every partition where it stays (./local-settle.ts).
    await settled(resolveConfig([{ source: 'cluster-local', values }]).cluster, options.workers);
    return { nats: nats.urls, gateways, ingestKey, adminKey, schema, dir: nats.root, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
