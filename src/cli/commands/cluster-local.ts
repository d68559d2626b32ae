/** `standing cluster-local`: a whole cluster on this machine, to try it (docs/deploy.md). */
import type { Command } from 'commander';
import { UsageError } from '../usage-error.js';

const count = (name: string) => (value: string) => {
  if (!/^[1-9]\d?$/.test(value)) throw new UsageError(`--${name} must be a number from 1 to 99, got "${value}"`);
  return Number(value);
};

export function registerClusterLocal(program: Command): void {
  program
    .command('cluster-local')
    .description("start a cluster on this machine: three nats-server processes, workers and gateways on a schema of its own in PostgreSQL; Ctrl-C stops and removes it all")
    .option('--db <url>', 'PostgreSQL to use (a schema is made there, and dropped on stop)', 'postgres://postgres@127.0.0.1:5432/test')
    .option('--workers <n>', 'worker processes', count('workers'), 2)
    .option('--gateways <n>', 'gateway processes', count('gateways'), 2)
    .option('--nats-server <path>', 'the nats-server binary (default /usr/sbin/nats-server; also NATS_SERVER)')
    .option('--log-level <level>', "the roles' log level, on standard error", 'warn')
    .action(async (flags: { db: string; workers: number; gateways: number; natsServer?: string; logLevel: string }) => {
      const { runLocalCluster } = await import('../service/cluster-local.js');
      await runLocalCluster(flags);
    });
}
