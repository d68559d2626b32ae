/**
 * What `standing serve` does, loaded only when it runs: the service's modules (fastify, the
 * stores, …) take a noticeable time to load, which the other commands should not pay.
 */
import { loadConfig, type ConfigFlags } from '../../service/load-config.js';
import { DEMO_OBSERVERS, DEMO_THRESHOLDS, demoEvents } from '../../service/demo.js';
import { createKey, DEMO_KEY_LABELS } from '../../service/keys.js';
import type { EventLog, KeyStore } from '../../store/types.js';
import { startService, type RunningService } from '../../app/serve.js';

const DEMO_BASE = {
  source: '--demo',
  values: {
    db: './standing-demo.sqlite',
    logLevel: 'warn',
    scorers: [{ scorer: 'cqr' }, { scorer: 'reliability' }, { scorer: 'chat' }, { scorer: 'trust', params: { observers: DEMO_OBSERVERS } }, { scorer: 'reports' }],
    alerts: { thresholds: DEMO_THRESHOLDS },
  },
};

/** `standing serve`'s flags: the configuration's, and `--demo`. */
export interface ServeFlags extends ConfigFlags {
  readonly demo?: boolean;
}

/**
 * The demo's keys do not pile up: each demo start revokes the active keys an earlier one made
 * (found by their labels, which `standing keys create` refuses) before making three new ones. Their
 * secrets are not stored, so they cannot be shown again and reused. Returns how many it revoked.
 */
async function revokeDemoKeys(store: KeyStore): Promise<number> {
  const labels = new Set<string>(Object.values(DEMO_KEY_LABELS));
  const now = new Date().toISOString();
  let revoked = 0;
  for (const key of await store.listKeys()) if (key.revokedAt === undefined && labels.has(key.label) && (await store.revokeKey(key.id, now))) revoked++;
  return revoked;
}

/** How old a loaded demo may get before a start says so: its ratings' lifetime (trust's default, 30 days). */
const DEMO_STALE_MS = 30 * 24 * 3_600_000;

async function loadDemo(service: RunningService): Promise<{ accepted: number; lastId: string }> {
  const events = demoEvents(2024, Date.now());
  let accepted = 0;
  for (let i = 0; i < events.length; i += 500) accepted += (await service.live.ingest(events.slice(i, i + 500))).accepted;
  await service.alerts.flush();
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
export async function serve(flags: ServeFlags): Promise<void> {
  const config = loadConfig(flags, process.env, flags.demo === true ? DEMO_BASE : undefined);
  // A port in use (ListenError), like any StandingError, is one line on standard error (main.ts).
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
    const { accepted, lastId } = await loadDemo(service);
    const revoked = await revokeDemoKeys(service.store);
    const read = await createKey(service.store, ['read'], DEMO_KEY_LABELS.read);
    const ingest = await createKey(service.store, ['ingest'], DEMO_KEY_LABELS.ingest);
    const moderator = await createKey(service.store, ['moderate'], DEMO_KEY_LABELS.moderate);
    // The demo is dated by the start that first loaded it; on a later start its ids are there already.
    const loadedAt = accepted === 0 ? await demoLoadedAt(service.store, lastId) : undefined;
    const stale = loadedAt !== undefined && Date.now() - loadedAt > DEMO_STALE_MS;
    process.stdout.write(
      [
        `standing serves the demo at ${service.url}  (store: ${config.db}, ${accepted} new demo events${revoked > 0 ? `, ${revoked} earlier demo keys revoked` : ''})`,
        ...(stale ? [`  note: this demo store was loaded on ${new Date(loadedAt).toISOString().slice(0, 10)} and its events are dated up to then, so events dated now find its ratings expired (they live 30 days); delete ${config.db} to load the demo dated now`] : []),
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
    process.stdout.write(`standing serves at ${service.url} (store: ${config.db})\n`);
  }
}
