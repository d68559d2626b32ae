/**
 * `standing serve`: the service (HTTP API over the event store, all configured scorers live).
 * With `--demo` (what `npm start` runs) it also loads the bundled demo log into
 * ./standing-demo.sqlite, creates a read key and an ingest key, and prints them with the URL.
 */
import type { Command } from 'commander';
import { loadConfig, type ConfigFlags } from '../../service/config.js';
import { DEMO_OBSERVERS, DEMO_THRESHOLDS, demoEvents } from '../../service/demo.js';
import { createKey } from '../../service/keys.js';
import { startService, type RunningService } from '../../service/service.js';

export interface ServeFlags extends ConfigFlags {
  readonly demo?: boolean;
}

const DEMO_BASE = {
  source: '--demo',
  values: {
    db: './standing-demo.sqlite',
    logLevel: 'warn',
    scorers: [{ scorer: 'cqr' }, { scorer: 'reliability' }, { scorer: 'chat' }, { scorer: 'trust', params: { observers: DEMO_OBSERVERS } }, { scorer: 'reports' }],
    alerts: { thresholds: DEMO_THRESHOLDS },
  },
};

export function configFlags(command: Command): Command {
  return command
    .option('--config <file>', 'JSON configuration file (also STANDING_CONFIG)')
    .option('--db <path|url>', 'SQLite file or postgres:// URL (default ./standing.sqlite; also STANDING_DB)')
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (also STANDING_LOG_LEVEL)');
}

async function loadDemo(service: RunningService): Promise<number> {
  const events = demoEvents();
  let accepted = 0;
  for (let i = 0; i < events.length; i += 500) accepted += (await service.live.ingest(events.slice(i, i + 500))).accepted;
  await service.alerts.flush();
  return accepted;
}

export function registerServe(program: Command): void {
  configFlags(
    program
      .command('serve')
      .description('run the service: HTTP API, event store, all scorers live (see /docs)')
      .option('--host <host>', 'address to bind (default 127.0.0.1; also STANDING_HOST)')
      .option('--port <port>', 'port (default 8080, 0 picks a free one; also STANDING_PORT)')
      .option('--public-read', 'serve reads without a key (also STANDING_PUBLIC_READ=true)')
      .option('--observers <ids>', 'trust observers, comma-separated: runs trust seen by them (also STANDING_OBSERVERS)')
      .option('--demo', 'load the bundled demo log into ./standing-demo.sqlite and print keys to try it'),
  ).action(async (flags: ServeFlags) => {
    const config = loadConfig(flags, process.env, flags.demo === true ? DEMO_BASE : undefined);
    const service = await startService(config);
    const stop = (signal: string) => {
      service.logger.info({ signal }, 'stopping');
      void service.close().then(
        () => process.exit(0),
        (error: unknown) => {
          service.logger.error({ err: error }, 'stopping failed');
          process.exit(1);
        },
      );
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
    if (flags.demo === true) {
      const accepted = await loadDemo(service);
      const read = await createKey(service.store, ['read'], 'demo read key');
      const ingest = await createKey(service.store, ['ingest'], 'demo ingest key');
      process.stdout.write(
        [
          `standing serves the demo at ${service.url}  (store: ${config.db}, ${accepted} new demo events)`,
          `  dashboard:  ${service.url}/#key=${read.key}`,
          `  read key:   ${read.key}`,
          `  ingest key: ${ingest.key}`,
          `  try:  curl -H "Authorization: Bearer ${read.key}" ${service.url}/v1/rankings/cqr`,
          `  API reference: ${service.url}/docs    stop with Ctrl-C`,
          '',
        ].join('\n'),
      );
    } else {
      process.stdout.write(`standing serves at ${service.url} (store: ${config.db})\n`);
    }
  });
}
