/**
 * Issue 25, point 4: after a gateway answers that a player is erased, nothing of the player is left in the
 * cluster — not in the alert stream, not in the nats-servers' JetStream files, not in any
 * PostgreSQL table, not in the gateway's and workers' logs — and a batch naming them sent again
 * afterwards is applied again, as `standing serve` applies it (the erasure forgot its ids).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { alertStreamName } from '../../src/cluster/alert-stream.js';
import { startGateway } from '../../src/app/gateway.js';
import { connectNats, jetstreamManager } from '../../src/cluster/nats.js';
import { partitionOf } from '../../src/store/partitions.js';
import { startWorker } from '../../src/app/worker.js';
import type { ServiceConfig } from '../../src/service/config.js';
import { createKey } from '../../src/service/keys.js';
import { serviceLogger } from '../../src/http/log-redaction.js';
import { openPostgresStore } from '../../src/store/postgres.js';
import { freshPostgresUrl } from '../support/postgres.js';
import { clusterPerFile } from './per-file.js';
import { clusterConfig, liveRankings, post, replayRankings, until } from './support.js';

const cluster = clusterPerFile();

const T = Date.parse('2026-11-01T10:00:00Z');
const COMMUNITIES = ['c0', 'c1', 'c2', 'c3'];

/** Every file under `dir` whose bytes hold `needle`. */
function filesHolding(dir: string, needle: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      try {
        if (statSync(path).isDirectory()) walk(path);
        else if (readFileSync(path).includes(needle)) found.push(path);
      } catch {
        // A file the server removed while it was read.
      }
    }
  };
  walk(dir);
  return found;
}

/** Each row of every table of the store's schema, as text, that holds `needle` (`table: row`). */
async function rowsHolding(db: string, needle: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
    );
    expect(tables.map((t) => t.name)).toContain('event_pages');
    const found: string[] = [];
    for (const { name } of tables) {
      const { rows } = await client.query<{ row: string }>(`SELECT t::text AS row FROM "${name}" t`);
      for (const { row } of rows) if (row.includes(needle)) found.push(`${name}: ${row}`);
    }
    return found;
  } finally {
    await client.end();
  }
}

/** Every message `stream` holds, as text. */
async function streamTexts(config: ServiceConfig, stream: string): Promise<string[]> {
  const connection = await connectNats(config.cluster, 'standing test reader');
  try {
    const jsm = await jetstreamManager(connection);
    const info = await jsm.streams.info(stream);
    const texts: string[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
      const message = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
      if (message !== null) texts.push(`${message.subject} ${message.string()}`);
    }
    return texts;
  } finally {
    await connection.close();
  }
}

/** A pino logger writing where the test reads it, as `standing gateway` and `standing worker` log (their own serializers). */
function capturedLogger(): { logger: ReturnType<typeof serviceLogger>; text(): string } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: serviceLogger('info', sink), text: () => lines.join('') };
}

describe('issue 25: erasure in the cluster leaves nothing of the player', () => {
  it(
    'leaves the player in no alert, no JetStream file, no PostgreSQL row and no log line of a gateway or worker',
    async () => {
      // A distinctive id: no other test's data holds these bytes.
      const PLAYER = 'zq-erasable-3f9c1d';
      const db = await freshPostgresUrl();
      const base = clusterConfig(db, cluster.nats.urls, { partitions: 4 });
      const config: ServiceConfig = { ...base, alerts: { ...base.alerts, thresholds: [{ name: 'low', scorer: 'cqr', below: -50 }], intervalMs: 20 } };
      const store = await openPostgresStore(db);
      const [ingest, admin] = [(await createKey(store, ['ingest'])).key, (await createKey(store, ['admin'])).key];
      await store.close();
      const logs = capturedLogger();
      const g = cluster.closeAfter(await startGateway(config, logs.logger));
      const workers = [cluster.closeAfter(await startWorker(config, logs.logger, { id: 'w1' })), cluster.closeAfter(await startWorker(config, logs.logger, { id: 'w2' }))];
      await until('both workers to hold partitions', () => (workers.every((w) => w.partitions().length === 2) ? true : undefined));

      // The player in every community: actions low enough for an alert, ratings, chat, reports; another player alike.
      const sent: Record<string, unknown>[] = [];
      for (const community of COMMUNITIES) {
        sent.push(
          { id: `${community}-a`, community, time: T, type: 'action', player: PLAYER, delta: -60 },
          { id: `${community}-b`, community, time: T + 1, type: 'action', player: 'bystander', delta: -70 },
          { id: `${community}-r`, community, time: T + 2, type: 'rating', from: 'bystander', to: PLAYER, value: 1 },
          { id: `${community}-c`, community, time: T + 3, type: 'chat', from: PLAYER, to: ['bystander', 'third'] },
          { id: `${community}-p`, community, time: T + 4, type: 'report', from: 'third', to: PLAYER },
        );
      }
      expect((await post(g.url, ingest, sent)).status).toBe(200);
      // Two appeals naming no sanction, in two batches: the worker refuses the second, recorded and logged without naming the player.
      const appeal = (id: string) => ({ id, community: 'c1', time: T + 10, type: 'appeal', player: PLAYER, status: 'opened', text: 'please' });
      expect((await post(g.url, ingest, [appeal('ap1')])).status).toBe(200);
      expect((await post(g.url, ingest, [appeal('ap2')])).status).toBe(400);
      for (const community of COMMUNITIES) {
        await liveRankings(workers, partitionOf(community, 4), community, sent.filter((e) => e.community === community).length + (community === 'c1' ? 1 : 0));
      }
      const alertsAbout = async (player: string) => {
        const reader = await openPostgresStore(db);
        try {
          return (await reader.readAlerts({ player })).length;
        } finally {
          await reader.close();
        }
      };
      await until('an alert about the player and the bystander in every community', async () => ((await alertsAbout(PLAYER)) === 4 && (await alertsAbout('bystander')) === 4 ? true : undefined));
      await until('the alerts published', async () => {
        const texts = await streamTexts(config, alertStreamName(config.cluster));
        return texts.filter((t) => t.includes(PLAYER)).length === 4 && texts.filter((t) => t.includes('"bystander"') && t.includes('"raised"')).length === 4 ? true : undefined;
      });
      // What is checked afterwards does see the player beforehand.
      expect(filesHolding(cluster.nats.root, PLAYER).length).toBeGreaterThan(0);
      expect((await rowsHolding(db, PLAYER)).length).toBeGreaterThan(0);

      const answer = await fetch(`${g.url}/v1/players/${PLAYER}`, { method: 'DELETE', headers: { authorization: `Bearer ${admin}` } });
      expect(answer.status).toBe(200);
      // Each community's action, rating, chat and report, and the appeal the worker stored: removed.
      expect(await answer.json()).toEqual({ player: PLAYER, communities: COMMUNITIES, removed: 4 * COMMUNITIES.length + 1, rewritten: 0 });

      // Later events in every partition: the blocks that held the player's messages stay in use
      // (a purge that empties a whole block removes its file, which would prove nothing).
      const later = COMMUNITIES.map((community) => ({ id: `${community}-later`, community, time: T + 20, type: 'action', player: 'bystander', delta: 1 }));
      expect((await post(g.url, ingest, later)).status).toBe(200);
      const reread = await openPostgresStore(db);
      try {
        for (const community of COMMUNITIES) {
          await until(`the later event of ${community} stored`, async () => ((await reread.read(community)).some((s) => s.event.id === `${community}-later`) ? true : undefined));
        }
      } finally {
        await reread.close();
      }

      // The alert stream: the player's alerts are gone, the bystander's stay.
      const alerts = await streamTexts(config, alertStreamName(config.cluster));
      expect(alerts.filter((t) => t.includes(PLAYER))).toEqual([]);
      expect(alerts.filter((t) => t.includes('"bystander"') && t.includes('"raised"'))).toHaveLength(4);
      // The event stream holds no message naming the player, nor the erase commands.
      expect((await streamTexts(config, config.cluster.stream)).filter((t) => t.includes(PLAYER))).toEqual([]);
      // No PostgreSQL row names them: events, ids, checkpoints, alerts, partitions, audit, keys.
      expect(await rowsHolding(db, PLAYER)).toEqual([]);
      // No log line of the gateway or the workers names them (each said what it did).
      const logged = logs.text();
      expect(logged).toContain('player erased from every partition');
      expect(logged).toContain('player erased');
      expect(logged).toContain('message refused whole and recorded (GET /v1/refusals)');
      expect(logged).toContain('durability: nats-server');
      expect(logged.split('\n').filter((line) => line.includes(PLAYER))).toEqual([]);
      // The streams' own files on every server: the erased messages were overwritten.
      const streamDirs = cluster.nats.nodes.flatMap((n) => [config.cluster.stream, alertStreamName(config.cluster)].map((s) => join(cluster.nats.root, n.name, 'jetstream', '$G', 'streams', s)));
      for (const dir of streamDirs) expect(statSync(dir).isDirectory()).toBe(true);
      expect(streamDirs.flatMap((dir) => filesHolding(dir, PLAYER))).toEqual([]);
      // Every file of the servers' stores, their replication (raft) logs included: those keep
      // the replicated messages until the server compacts them, every 2 to 3 minutes.
      await until('no file of the NATS stores to hold the player', () => (filesHolding(cluster.nats.root, PLAYER).length === 0 ? true : undefined), 240_000);
    },
    400_000,
  );

  it('applies a batch sent again after its player was erased, as standing serve does (the erasure forgot its ids)', async () => {
    const PLAYER = 'zq-resent-8e2b';
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 2 });
    const store = await openPostgresStore(db);
    const [ingest, admin] = [(await createKey(store, ['ingest'])).key, (await createKey(store, ['admin'])).key];
    await store.close();
    const g = await cluster.gateway(config);
    const w = await cluster.worker(config, 'w-resend');
    await until('the worker to hold both partitions', () => (w.partitions().length === 2 ? true : undefined));
    const batch = [
      { id: 'rs-1', community: 'c0', time: T, type: 'action', player: PLAYER, delta: 7 },
      { id: 'rs-2', community: 'c0', time: T + 1, type: 'rating', from: 'other', to: PLAYER, value: 1 },
    ];
    expect((await post(g.url, ingest, batch)).status).toBe(200);
    await liveRankings([w], partitionOf('c0', 2), 'c0', 2);
    const erased = await fetch(`${g.url}/v1/players/${PLAYER}`, { method: 'DELETE', headers: { authorization: `Bearer ${admin}` } });
    expect(await erased.json()).toEqual({ player: PLAYER, communities: ['c0'], removed: 2, rewritten: 0 });

    // The same batch again, within the duplicate window: stored and applied again.
    expect((await post(g.url, ingest, batch)).status).toBe(200);
    const reader = await openPostgresStore(db);
    const stored = await until('the batch stored again', async () => {
      const events = await reader.read('c0');
      return events.some((s) => s.event.id === 'rs-1') && events.some((s) => s.event.id === 'rs-2') ? events : undefined;
    }).finally(() => reader.close());
    expect(stored.map((s) => s.event.id).filter((id) => id === 'rs-1' || id === 'rs-2')).toEqual(['rs-1', 'rs-2']);
    const live = await liveRankings([w], partitionOf('c0', 2), 'c0', stored.at(-1)!.sequence);
    expect(live).toEqual(await replayRankings(config, 'c0'));
    expect(JSON.stringify(live)).toContain(PLAYER);
  });
});
