/**
 * A NATS JetStream cluster of `size` nats-server processes on loopback ports (free ones, or a
 * block from a given first port), each with its own store directory under one temporary directory
 * (removed on stop): for `standing cluster-local` and the cluster tests. NATS_SERVER names the
 * binary (default /usr/sbin/nats-server). Its version (`nats-server --version`) decides the JetStream block: a
 * server that knows `sync_interval` (2.10.0 and later) gets `sync_interval: always`, every write
 * forced to disk before it is acknowledged; an older one refuses that key, and forces its writes to
 * disk every 2 minutes (./durability.ts).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager, StorageType } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { exited, killWithParent, stopChild } from './child-processes.js';
import { supportsSyncAlways } from './durability.js';

/** How long a nats-server may take to exit on SIGTERM before SIGKILL (ms). */
const NATS_STOP_GRACE_MS = 10_000;

export const NATS_SERVER = process.env.NATS_SERVER ?? '/usr/sbin/nats-server';

/** A port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** Resolves when nothing listens on `port` of 127.0.0.1; rejects naming the port and `what` uses it otherwise. */
export function portFree(port: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(`port ${port} on 127.0.0.1 (${what}) ${error.code === 'EADDRINUSE' ? 'is in use' : `cannot be listened on (${error.message})`}`)),
    );
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}

export interface NatsClusterOptions {
  /** The first server's client port: the servers take `firstPort` … `firstPort + size - 1` for clients and the next `size` ports for their routes. Default: free ports. */
  readonly firstPort?: number;
  /**
   * Each server in a process group of its own (`standing cluster-local`): a Ctrl-C at the terminal
   * reaches the parent alone, which stops the servers after the roles using them.
   */
  readonly ownGroup?: boolean;
}

export interface NatsNode {
  readonly name: string;
  readonly url: string;
  process: ChildProcess;
  readonly start: () => ChildProcess;
}

/** The version `nats-server --version` prints (`v2.9.10`), or `unknown`. */
export function natsServerVersion(binary = NATS_SERVER): string {
  const run = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return /v?\d+\.\d+\.\d+\S*/.exec(`${run.stdout ?? ''}${run.stderr ?? ''}`)?.[0] ?? 'unknown';
}

export interface NatsNodeConfig {
  readonly name: string;
  readonly port: number;
  readonly routePort: number;
  /** Every node's route port, its own included. */
  readonly routePorts: readonly number[];
  readonly storeDir: string;
}

/** One node's configuration file for a nats-server of `version`. */
export function natsServerConfig(node: NatsNodeConfig, version: string): string {
  const sync = supportsSyncAlways(version) ? ', sync_interval: always' : '';
  return [
    `server_name: ${node.name}`,
    `listen: 127.0.0.1:${node.port}`,
    'max_payload: 8MB',
    `jetstream { store_dir: "${node.storeDir}"${sync} }`,
    `cluster { name: standing-local, listen: 127.0.0.1:${node.routePort}, routes: [${node.routePorts.map((p) => `nats://127.0.0.1:${p}`).join(', ')}] }`,
  ].join('\n');
}

export interface NatsCluster {
  readonly nodes: NatsNode[];
  /** The servers' version (`nats-server --version`). */
  readonly version: string;
  /** Whether the servers force every JetStream write to disk before acknowledging it (`sync_interval: always`). */
  readonly syncAlways: boolean;
  /** The directory of the servers' configurations and stores. */
  readonly root: string;
  /** Every client URL. */
  readonly urls: string[];
  /** SIGKILLs one server. */
  kill(index: number): Promise<void>;
  /** Stops every server and removes their stores. */
  stop(): Promise<void>;
}

export async function startNatsCluster(size = 3, binary = NATS_SERVER, options: NatsClusterOptions = {}): Promise<NatsCluster> {
  if (!existsSync(binary)) throw new Error(`no nats-server at ${binary} (install it, e.g. apt-get install nats-server, or set NATS_SERVER)`);
  let clientPorts: number[];
  let routePorts: number[];
  const { firstPort } = options;
  if (firstPort === undefined) {
    clientPorts = await Promise.all(Array.from({ length: size }, freePort));
    routePorts = await Promise.all(Array.from({ length: size }, freePort));
  } else {
    clientPorts = Array.from({ length: size }, (_, i) => firstPort + i);
    routePorts = Array.from({ length: size }, (_, i) => firstPort + size + i);
    for (const [i, port] of clientPorts.entries()) await portFree(port, `NATS server n${i + 1}'s client port`);
    for (const [i, port] of routePorts.entries()) await portFree(port, `NATS server n${i + 1}'s route port`);
  }
  const root = mkdtempSync(join(tmpdir(), 'standing-nats-'));
  const version = natsServerVersion(binary);
  const nodes: NatsNode[] = clientPorts.map((port, i) => {
    const name = `n${i + 1}`;
    const file = join(root, `${name}.conf`);
    writeFileSync(file, natsServerConfig({ name, port, routePort: routePorts[i]!, routePorts, storeDir: join(root, name) }, version));
    const start = () => killWithParent(spawn(binary, ['-c', file], { stdio: 'ignore', detached: options.ownGroup === true }));
    return { name, url: `nats://127.0.0.1:${port}`, process: start(), start };
  });
  const urls = nodes.map((n) => n.url);
  try {
    await jetStreamReady(urls, size);
  } catch (error) {
    for (const node of nodes) node.process.kill('SIGKILL');
    await Promise.all(nodes.map((n) => exited(n.process)));
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  return {
    nodes,
    version,
    syncAlways: supportsSyncAlways(version),
    root,
    urls,
    async kill(index) {
      const node = nodes[index]!;
      node.process.kill('SIGKILL');
      await exited(node.process);
    },
    async stop() {
      await Promise.all(nodes.map((n) => stopChild(n.process, NATS_STOP_GRACE_MS)));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * Waits until the cluster has elected its JetStream meta leader and every server has joined it: a
 * probe stream with one replica on each server is placed (then deleted).
 */
/** Resolves once the servers at `urls` place a stream of `size` replicas (a probe made and deleted), within 30 s. */
export async function jetStreamReady(urls: readonly string[], size: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const nc = await connect({ servers: [...urls], timeout: 1000 });
      try {
        const jsm = await jetstreamManager(nc, { timeout: 2000 });
        await jsm.streams.add({ name: 'standing-ready-probe', subjects: ['standing-ready-probe'], num_replicas: size, storage: StorageType.Memory });
        await jsm.streams.delete('standing-ready-probe');
        return;
      } finally {
        await nc.close();
      }
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
