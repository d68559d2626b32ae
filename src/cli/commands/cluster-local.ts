/** `standing cluster-local`: a whole cluster on this machine, to try it (docs/deploy.md). */
import type { Command } from 'commander';
import { SCHEMA_NAME } from '../../cluster/local-schema.js';
import { UsageError } from '../usage-error.js';

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
      const { runLocalCluster } = await import('../service/cluster-local.js');
      await runLocalCluster(flags);
    });
}
