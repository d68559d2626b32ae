/**
 * `standing gateway` and `standing worker`: the two roles of a cluster over NATS JetStream and
 * PostgreSQL (docs/deploy.md). Both are configured as `standing serve` is, plus `--nats`; their
 * store is PostgreSQL only.
 */
import type { Command } from 'commander';

const collect = (value: string, previous: string[] = []) => [...previous, value];

function clusterFlags(command: Command): Command {
  return command
    .option('--config <file>', 'JSON configuration file (also STANDING_CONFIG)')
    .option('--db <url>', 'PostgreSQL URL, postgres://… (required: the cluster keeps its state there, SQLite is refused; also STANDING_DB)')
    .option(
      '--nats <urls>',
      'NATS servers, comma-separated or the flag repeated (default nats://127.0.0.1:4222, whatever NATS server runs there; the start line names the server joined; also STANDING_NATS)',
      collect,
    );
}

export function registerGateway(program: Command): void {
  clusterFlags(
    program
      .command('gateway')
      .description('run a cluster gateway: validates batches and publishes them to the event log on NATS (docs/deploy.md)')
      .option('--host <host>', 'address to bind (default 127.0.0.1; also STANDING_HOST)')
      .option('--port <port>', 'port (default 8080, 0 picks a free one; also STANDING_PORT)')
      .option('--max-clock-skew <seconds>', 'refuse events dated more than this after the clock (default 300; "off" for historical logs; also STANDING_MAX_CLOCK_SKEW_SECONDS)')
      .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (also STANDING_LOG_LEVEL)'),
  ).action(async (flags) => {
    const { gateway } = await import('../service/cluster.js');
    await gateway(flags as Parameters<typeof gateway>[0]);
  });
}

export function registerWorker(program: Command): void {
  clusterFlags(
    program
      .command('worker')
      .description('run a cluster worker: the scorers of the partitions it holds leases on (docs/deploy.md)')
      .option('--id <name>', "the worker's name in leases (default: host, process id and a random suffix)")
      .option('--observers <ids>', 'trust observers, comma-separated: runs trust seen by them (also STANDING_OBSERVERS)')
      .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (also STANDING_LOG_LEVEL)'),
  ).action(async (flags) => {
    const { worker } = await import('../service/cluster.js');
    await worker(flags as Parameters<typeof worker>[0]);
  });
}
