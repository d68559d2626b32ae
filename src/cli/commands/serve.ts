/**
 * `standing serve`: the service (HTTP API over the event store, all configured scorers live).
 * With `--demo` (what `npm start` runs) it also loads the bundled demo log into
 * ./standing-demo.sqlite, creates a read key and an ingest key, and prints them with the URL.
 * The service's modules (fastify, the stores, …) take a noticeable time to load, which the other
 * commands and `--help` should not pay: they are imported when serve runs, in `serve`.
 */
import type { Command } from 'commander';
import type { RunningService } from '../../app/serve.js';
import type { ConfigFlags } from '../../service/load-config.js';
import type { EventLog, KeyStore } from '../../store/types.js';

/** The flags naming the configuration and the store: shared by `serve`, `keys` and `erase`. */
export function configFlags(command: Command): Command {
  return command
    .option('--config <file>', 'JSON configuration file (also STANDING_CONFIG)')
    .option('--db <path|url>', 'SQLite file or postgres:// URL (default ./standing.sqlite; also STANDING_DB)');
}

/** `standing serve`'s flags: the configuration's, and `--demo`. */
export interface ServeFlags extends ConfigFlags {
  readonly demo?: boolean;
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
      .option('--defences <setting>', "recommended (each scorer's recommended defences under its configured params, docs/abuse.md; the default) or published (the papers' methods); also STANDING_DEFENCES")
      .option('--queue <weights>', 'attention queue weights as key=value,… (tailShare, tail, breadth, alert, appeal, recency, recencyHalfLifeDays, maxExplained; also STANDING_QUEUE)')
      .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (also STANDING_LOG_LEVEL)')
      .option('--demo', 'load the bundled demo log into ./standing-demo.sqlite and print keys to try it'),
  ).action(serve);
}

/**
 * The demo's keys do not pile up: each demo start revokes the active keys an earlier one made
 * (found by their labels, which `standing keys create` refuses) before making three new ones. Their
 * secrets are not stored, so they cannot be shown again and reused. Returns how many it revoked.
 */
async function revokeDemoKeys(store: KeyStore, demoLabels: readonly string[]): Promise<number> {
  const labels = new Set(demoLabels);
  const now = new Date().toISOString();
  let revoked = 0;
  for (const key of await store.listKeys()) if (key.revokedAt === undefined && labels.has(key.label) && (await store.revokeKey(key.id, now))) revoked++;
  return revoked;
}

/** How old a loaded demo may get before a start says so: its ratings' lifetime (trust's default, 30 days). */
const DEMO_STALE_MS = 30 * 24 * 3_600_000;

async function loadDemo(service: RunningService): Promise<{ accepted: number; lastId: string }> {
  const { demoEvents } = await import('../../service/demo.js');
  const { loadDemoEvents } = await import('../../service/demo-load.js');
  const events = demoEvents(2024, Date.now());
  // Day by day, alerts checked after each: every alert carries the day it was raised.
  const accepted = await loadDemoEvents(service, events);
  return { accepted, lastId: events.at(-1)!.id as string };
}

/**
 * When the demo in `store` was first loaded: the stored time of the demo's last event, which
 * that load dated at its moment (events posted later, whatever their dates, do not change it).
 * Undefined when that event is not in the store (erased, say).
 */
async function demoLoadedAt(store: EventLog, lastId: string): Promise<number | undefined> {
  for (let after = 0; ; ) {
    const page = await store.read('default', after, 1000);
    if (page.length === 0) return undefined;
    for (const stored of page) if (stored.event.id === lastId) return stored.event.time;
    after = page.at(-1)!.sequence;
  }
}

/** Starts the service as configured, and on SIGINT or SIGTERM stops it cleanly and exits. */
async function serve(flags: ServeFlags): Promise<void> {
  const { loadConfig } = await import('../../service/load-config.js');
  const { DEMO_OBSERVERS, DEMO_RULES, DEMO_THRESHOLDS } = await import('../../service/demo.js');
  const { createKey, DEMO_KEY_LABELS } = await import('../../service/keys.js');
  const { startService } = await import('../../app/serve.js');
  const { defenceLines } = await import('../../service/defence-lines.js');
  const demoBase = {
    source: '--demo',
    values: {
      db: './standing-demo.sqlite',
      logLevel: 'warn',
      scorers: [{ scorer: 'cqr' }, { scorer: 'reliability' }, { scorer: 'chat' }, { scorer: 'trust', params: { observers: DEMO_OBSERVERS } }, { scorer: 'reports' }],
      alerts: { thresholds: DEMO_THRESHOLDS },
      rules: DEMO_RULES,
    },
  };
  const config = loadConfig(flags, process.env, flags.demo === true ? demoBase : undefined);
  // A port in use (ListenError), like any StandingError, is one line on standard error (main.ts).
  const service = await startService(config);
  const defences = defenceLines(service.live.instances, config.defences);
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
    const { accepted, lastId } = await loadDemo(service);
    const revoked = await revokeDemoKeys(service.store, Object.values(DEMO_KEY_LABELS));
    const read = await createKey(service.store, ['read'], DEMO_KEY_LABELS.read);
    const ingest = await createKey(service.store, ['ingest'], DEMO_KEY_LABELS.ingest);
    // A senior moderator: the demo's dashboard may suspend, ban and decide appeals.
    const moderator = await createKey(service.store, ['senior'], DEMO_KEY_LABELS.moderate);
    // The demo is dated by the start that first loaded it; on a later start its ids are there already.
    const loadedAt = accepted === 0 ? await demoLoadedAt(service.store, lastId) : undefined;
    const stale = loadedAt !== undefined && Date.now() - loadedAt > DEMO_STALE_MS;
    process.stdout.write(
      [
        `standing serves the demo at ${service.url}  (store: ${config.db}, ${accepted} new demo events${revoked > 0 ? `, ${revoked} earlier demo keys revoked` : ''})`,
        ...(stale ? [`  note: this demo store was loaded on ${new Date(loadedAt).toISOString().slice(0, 10)} and its events are dated up to then, so events dated now find its ratings expired (they live 30 days); delete ${config.db} to load the demo dated now`] : []),
        ...defences,
        `  dashboard:  ${service.url}/#key=${moderator.key}`,
        `  read key:   ${read.key}`,
        `  ingest key: ${ingest.key}`,
        `  demo moderator key: ${moderator.key}`,
        `  try:  curl -H "Authorization: Bearer ${read.key}" ${service.url}/v1/rankings/cqr`,
        `  API reference: ${service.url}/docs    stop with Ctrl-C`,
        '',
      ].join('\n'),
    );
  } else {
    process.stdout.write([`standing serves at ${service.url} (store: ${config.db})`, ...defences, ''].join('\n'));
  }
}
