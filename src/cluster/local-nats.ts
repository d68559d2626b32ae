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
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager, StorageType } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { StandingError } from '../errors.js';
import { exited, killWithParent, stopChild } from './child-processes.js';
import { supportsSyncAlways } from './durability.js';

/** How long a nats-server may take to exit on SIGTERM before SIGKILL (ms). */
const NATS_STOP_GRACE_MS = 10_000;

export const NATS_SERVER = process.env.NATS_SERVER ?? '/usr/sbin/nats-server';

/** A port nobody listens on now. */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}

/**
 * `count` distinct ports nobody listens on now: each held until all are chosen, so none is given
 * twice. Another process may still take one before it is used; startNatsCluster starts again on
 * other ports when a server could not listen.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      ports.push(
        await new Promise<number>((resolve, reject) => {
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => {
            const address = server.address();
            resolve(typeof address === 'object' && address !== null ? address.port : 0);
          });
        }),
      );
    }
    return ports;
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
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

/** How many times startNatsCluster starts the servers on other free ports when one could not run. */
const START_ATTEMPTS = 3;
/** How much of each server's own output is kept, to say why it stopped (bytes). */
const OUTPUT_KEPT = 4096;

export async function startNatsCluster(size = 3, binary = NATS_SERVER, options: NatsClusterOptions = {}): Promise<NatsCluster> {
  if (!existsSync(binary)) throw new Error(`no nats-server at ${binary} (install it, e.g. apt-get install nats-server, or set NATS_SERVER)`);
  const { firstPort } = options;
  if (firstPort !== undefined) {
    const clientPorts = Array.from({ length: size }, (_, i) => firstPort + i);
    const routePorts = Array.from({ length: size }, (_, i) => firstPort + size + i);
    for (const [i, port] of clientPorts.entries()) await portFree(port, `NATS server n${i + 1}'s client port`);
    for (const [i, port] of routePorts.entries()) await portFree(port, `NATS server n${i + 1}'s route port`);
    return startOn(clientPorts, routePorts, binary, options);
  }
  // Free ports can be taken by another process before a server listens on them: then the servers
  // start again on others.
  for (let attempt = 1; ; attempt++) {
    const ports = await freePorts(2 * size);
    try {
      return await startOn(ports.slice(0, size), ports.slice(size), binary, options);
    } catch (error) {
      if (!(error instanceof NatsServerStoppedError) || attempt >= START_ATTEMPTS) throw error;
    }
  }
}

/** A server of a cluster being started stopped by itself (its port taken, say). */
class NatsServerStoppedError extends StandingError {
  readonly code = 'NATS_SERVER_STOPPED' as const;
}

async function startOn(clientPorts: readonly number[], routePorts: readonly number[], binary: string, options: NatsClusterOptions): Promise<NatsCluster> {
  const size = clientPorts.length;
  const root = mkdtempSync(join(tmpdir(), 'standing-nats-'));
  const version = natsServerVersion(binary);
  const outputs = new Map<string, string>();
  const nodes: NatsNode[] = clientPorts.map((port, i) => {
    const name = `n${i + 1}`;
    const file = join(root, `${name}.conf`);
    writeFileSync(file, natsServerConfig({ name, port, routePort: routePorts[i]!, routePorts, storeDir: join(root, name) }, version));
    const start = () => {
      const child = killWithParent(spawn(binary, ['-c', file], { stdio: ['ignore', 'ignore', 'pipe'], detached: options.ownGroup === true }));
      // The last of what it says, kept to name why it stopped if it does.
      child.stderr!.on('data', (chunk: Buffer) => outputs.set(name, `${outputs.get(name) ?? ''}${chunk.toString()}`.slice(-OUTPUT_KEPT)));
      return child;
    };
    return { name, url: `nats://127.0.0.1:${port}`, process: start(), start };
  });
  const urls = nodes.map((n) => n.url);
  const stopped = () => {
    const node = nodes.find((n) => n.process.exitCode !== null || n.process.signalCode !== null);
    if (node === undefined) return undefined;
    const said = (outputs.get(node.name) ?? '').trim().split('\n').slice(-3).join(' | ');
    return new NatsServerStoppedError(`NATS server ${node.name} (${node.url}) stopped while the cluster started (${node.process.exitCode ?? node.process.signalCode}): ${said}`);
  };
  try {
    await jetStreamReady(urls, size, stopped);
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
 * Resolves once the servers at `urls` place a stream of `size` replicas (a probe made and
 * deleted): the cluster has elected its JetStream meta leader and every server has joined it.
 * Within 30 s; at once with the error `stopped` gives when it gives one (a server has exited).
 */
export async function jetStreamReady(urls: readonly string[], size: number, stopped: () => Error | undefined = () => undefined): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const gone = stopped();
    if (gone !== undefined) throw gone;
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
      if (Date.now() > deadline) throw new Error(`the NATS servers at ${urls.join(', ')} did not place a stream of ${size} replicas within 30 s, every one of them running: ${(error as Error).message}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
