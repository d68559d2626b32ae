/**
 * What `standing gateway` and `standing worker` do, loaded only when they run: start the role from
 * the configuration (as `standing serve` is configured, plus `cluster` and `--nats`), say where it
 * runs and which NATS server it joined, and stop it cleanly on SIGINT or SIGTERM (a worker hands
 * its partitions over first). No NATS server reachable at start (NatsUnreachableError) is a one-line
 * error (exit 1, main.ts), as a port in use is for `standing serve`.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { loadConfig, type ConfigFlags } from '../../service/load-config.js';
import type { ServiceConfig } from '../../service/config.js';
import { serviceLogger } from '../../http/log-redaction.js';

function stopOnSignal(close: () => Promise<void>, logger: ReturnType<typeof serviceLogger>): void {
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

export async function gateway(flags: ConfigFlags): Promise<void> {
  const config = loadConfig(flags);
  const logger = serviceLogger(config.logLevel);
  const { startGateway } = await import('../../app/gateway.js');
  const running = await startGateway(config, logger);
  stopOnSignal(() => running.close(), logger);
  process.stdout.write(`standing gateway serves at ${running.url} with ${await joined(running.nats, config)}\n`);
}

export async function worker(flags: ConfigFlags & { id?: string }): Promise<void> {
  const config = loadConfig(flags);
  const logger = serviceLogger(config.logLevel);
  const { startWorker } = await import('../../app/worker.js');
  const running = await startWorker(config, logger, flags.id === undefined ? {} : { id: flags.id });
  stopOnSignal(() => running.close(), logger);
  process.stdout.write(`standing worker ${running.id} runs with ${await joined(running.nats, config)}\n`);
}
