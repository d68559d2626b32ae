/**
 * `standing gateway` and `standing worker`: the two roles of a cluster over NATS JetStream and
 * PostgreSQL (docs/deploy.md). Both are configured as `standing serve` is, plus `cluster` and
 * `--nats`; their store is PostgreSQL only. When one runs (`gateway`, `worker`: the service and
 * NATS modules are imported then, not when `--help` registers them) it starts the role, says where
 * it runs and which NATS server it joined, and stops it cleanly on SIGINT or SIGTERM (a worker
 * hands its partitions over first). No NATS server reachable at start (NatsUnreachableError) is a
 * one-line error (exit 1, main.ts), as a port in use is for `standing serve`.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import type { Command } from 'commander';
import type { Logger } from 'pino';
import type { ServiceConfig } from '../../service/config.js';
import type { ConfigFlags } from '../../service/load-config.js';

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
      .option('--defences <setting>', 'recommended (the default) or published: as the workers run, for GET /v1/scorers (also STANDING_DEFENCES)')
      .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (also STANDING_LOG_LEVEL)'),
  ).action(gateway);
}

export function registerWorker(program: Command): void {
  clusterFlags(
    program
      .command('worker')
      .description('run a cluster worker: the scorers of the partitions it holds leases on (docs/deploy.md)')
      .option('--id <name>', "the worker's name in leases (default: host, process id and a random suffix)")
      .option('--observers <ids>', 'trust observers, comma-separated: runs trust seen by them (also STANDING_OBSERVERS)')
      .option('--defences <setting>', "recommended (each scorer's recommended defences under its configured params, docs/abuse.md; the default) or published (the papers' methods); also STANDING_DEFENCES")
      .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (also STANDING_LOG_LEVEL)'),
  ).action(worker);
}

function stopOnSignal(close: () => Promise<void>, logger: Logger): void {
  const stop = (signal: string) => {
    logger.info({ signal }, 'stopping');
    void close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'stopping failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

/** Which NATS server the role joined, for its start line. */
async function joined(nats: NatsConnection, config: ServiceConfig): Promise<string> {
  const { describeNats, natsJoined } = await import('../../cluster/nats.js');
  return describeNats(natsJoined(nats, config.cluster));
}

async function gateway(flags: ConfigFlags): Promise<void> {
  const { loadConfig } = await import('../../service/load-config.js');
  const { serviceLogger } = await import('../../http/log-redaction.js');
  const { startGateway } = await import('../../app/gateway.js');
  const config = loadConfig(flags);
  const logger = serviceLogger(config.logLevel);
  const running = await startGateway(config, logger);
  stopOnSignal(() => running.close(), logger);
  process.stdout.write(`standing gateway serves at ${running.url} with ${await joined(running.nats, config)}\n`);
}

async function worker(flags: ConfigFlags & { id?: string }): Promise<void> {
  const { loadConfig } = await import('../../service/load-config.js');
  const { serviceLogger } = await import('../../http/log-redaction.js');
  const { startWorker } = await import('../../app/worker.js');
  const config = loadConfig(flags);
  const logger = serviceLogger(config.logLevel);
  const running = await startWorker(config, logger, flags.id === undefined ? {} : { id: flags.id });
  stopOnSignal(() => running.close(), logger);
  const { configuredInstances } = await import('../../service/config.js');
  const { defenceLines } = await import('../../service/defence-lines.js');
  process.stdout.write([`standing worker ${running.id} runs with ${await joined(running.nats, config)}`, ...defenceLines(configuredInstances(config), config.defences), ''].join('\n'));
}
