/**
 * `standing serve`: the service (HTTP API over the event store, all configured scorers live).
 * With `--demo` (what `npm start` runs) it also loads the bundled demo log into
 * ./standing-demo.sqlite, creates a read key and an ingest key, and prints them with the URL.
 */
import type { Command } from 'commander';
import type { ServeFlags } from '../service/serve.js';

/** The flags naming the configuration and the store: shared by `serve` and `keys`. */
export function configFlags(command: Command): Command {
  return command
    .option('--config <file>', 'JSON configuration file (also STANDING_CONFIG)')
    .option('--db <path|url>', 'SQLite file or postgres:// URL (default ./standing.sqlite; also STANDING_DB)');
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
      .option('--max-clock-skew <seconds>', 'refuse events dated more than this after the clock (default 300; "off" for historical logs; also STANDING_MAX_CLOCK_SKEW_SECONDS)')
      .option('--queue <weights>', 'attention queue weights as key=value,… (tailShare, tail, breadth, alert, appeal, recency, recencyHalfLifeDays, maxExplained; also STANDING_QUEUE)')
      .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (also STANDING_LOG_LEVEL)')
      .option('--demo', 'load the bundled demo log into ./standing-demo.sqlite and print keys to try it'),
  ).action(async (flags: ServeFlags) => {
    const { serve } = await import('../service/serve.js');
    await serve(flags);
  });
}
