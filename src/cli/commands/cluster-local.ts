/**
 * `standing cluster-local`: a whole cluster on this machine, to try it (docs/deploy.md). When it
 * runs (`runLocalCluster`, which imports the cluster's modules then, not when `--help` registers
 * it) it starts the cluster (../../cluster/local.ts), prints where it is and its keys, and stops it
 * all on SIGINT, SIGTERM or SIGHUP (a closed terminal).
 * The cluster's processes run in process groups of their own, so a Ctrl-C at the terminal reaches
 * this process alone, which stops them in order; a signal that arrives while it stops (npm passes
 * the terminal's SIGINT on a second time, an impatient second Ctrl-C) changes nothing, since every
 * step of the stop is bounded.
 */
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { SCHEMA_NAME } from '../../cluster/local-schema.js';
import { CommandError, UsageError } from '../errors.js';

const count = (name: string) => (value: string) => {
  if (!/^[1-9]\d?$/.test(value)) throw new UsageError(`--${name} must be a number from 1 to 99, got "${value}"`);
  return Number(value);
};

/** A first port of a block of `span` ports: all of them within 1–65535. */
const firstPort = (name: string, span: string) => (value: string) => {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port >= 1 && port <= 65535)) throw new UsageError(`--${name} must be a port number from 1 to 65535 (${span}), got "${value}"`);
  return port;
};

const schemaName = (value: string) => {
  if (!SCHEMA_NAME.test(value)) throw new UsageError(`--schema must be lower-case letters, digits and _ (not first a digit, at most 63), got "${value}"`);
  return value;
};

export interface ClusterLocalFlags {
  readonly db: string;
  readonly workers: number;
  readonly gateways: number;
  readonly natsServer?: string;
  readonly logLevel: string;
  readonly port?: number;
  readonly natsPort?: number;
  readonly schema?: string;
}

export function registerClusterLocal(program: Command): void {
  program
    .command('cluster-local')
    .description('start a cluster on this machine: three nats-server processes, workers and gateways on a schema of its own in PostgreSQL; Ctrl-C stops and removes it all')
    .option('--db <url>', 'PostgreSQL to use (a schema is made there, and dropped on stop)', 'postgres://postgres@127.0.0.1:5432/test')
    .option('--schema <name>', 'the schema to make there (it must not exist; dropped on stop; default standing_local_<random>)', schemaName)
    .option('--workers <n>', 'worker processes', count('workers'), 2)
    .option('--gateways <n>', 'gateway processes', count('gateways'), 2)
    .option('--port <port>', 'the first gateway listens on this port, the next ones on the ports after it (default: free ports)', firstPort('port', 'one port per gateway from it'))
    .option('--nats-port <port>', 'the NATS servers listen for clients on this port and the next two, and for each other on the three after (default: free ports)', firstPort('nats-port', 'six ports from it'))
    .option('--nats-server <path>', 'the nats-server binary (default /usr/sbin/nats-server; also NATS_SERVER)')
    .option('--log-level <level>', "the roles' log level, on standard error", 'warn')
    .action(async (flags: ClusterLocalFlags) => {
      if (flags.port !== undefined && flags.port + flags.gateways - 1 > 65535) throw new UsageError(`--port ${flags.port} leaves no room for ${flags.gateways} gateways below port 65536`);
      if (flags.natsPort !== undefined && flags.natsPort + 5 > 65535) throw new UsageError(`--nats-port ${flags.natsPort} leaves no room for the six NATS ports below port 65536`);
      await runLocalCluster(flags);
    });
}

async function runLocalCluster(flags: ClusterLocalFlags): Promise<void> {
  const { startLocalCluster } = await import('../../cluster/local.js');
  if (!/^postgres(ql)?:\/\//.test(flags.db)) throw new CommandError(`--db must be a postgres:// URL, got "${flags.db}"`);
  // Held from the start: a signal while the cluster starts stops it once it has started.
  let signalled: () => void = () => undefined;
  const stopAsked = new Promise<void>((resolve) => (signalled = resolve));
  let signals = 0;
  const onSignal = () => {
    signals++;
    signalled();
  };
  // SIGHUP too: the cluster's processes are not in the terminal's group, so a closed terminal reaches this process alone.
  const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  const cluster = await startLocalCluster({
    db: flags.db,
    workers: flags.workers,
    gateways: flags.gateways,
    main: fileURLToPath(new URL('../main.js', import.meta.url)),
    logLevel: flags.logLevel,
    ...(flags.natsServer === undefined ? {} : { natsServer: flags.natsServer }),
    ...(flags.port === undefined ? {} : { port: flags.port }),
    ...(flags.natsPort === undefined ? {} : { natsPort: flags.natsPort }),
    ...(flags.schema === undefined ? {} : { schema: flags.schema }),
  }).catch((error: unknown) => {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    throw new CommandError(`the local cluster did not start: ${(error as Error).message}`);
  });
  if (signals === 0) {
    const lines = [
      `standing cluster-local: 3 NATS servers, ${flags.workers} workers, ${flags.gateways} gateways`,
      `  nats:       ${cluster.nats.join(',')}`,
      ...cluster.gateways.map((url) => `  gateway:    ${url}`),
      `  ingest key: ${cluster.ingestKey}`,
      `  admin key:  ${cluster.adminKey}`,
      `  postgres:   schema ${cluster.schema}`,
      `  directory:  ${cluster.dir}`,
      'Ctrl-C stops everything and removes the schema and the directory.',
      '',
    ];
    process.stdout.write(lines.join('\n'));
  }
  await stopAsked;
  process.stdout.write('stopping: gateways, then workers, then NATS servers…\n');
  try {
    await cluster.stop();
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  }
  process.stdout.write('stopped\n');
}
