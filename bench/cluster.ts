/**
 * Part 8: the cluster. A three-node NATS JetStream cluster (the machine's nats-server, replicas
 * 3) and one `standing gateway` process take batches of 100 events (each batch one of 16
 * communities) from autocannon for a fixed time, with no worker running: reported are the events/s
 * the gateway acknowledged durable in the log. Then 1 (in a second run, 2) `standing worker`
 * processes start on the filled stream and drain it into PostgreSQL: reported are the events/s
 * they apply, timed from the workers running to the last event stored, so the figure is the
 * workers' and not bounded by the gateway's. Beside them, in the same run and with the same
 * batches: `standing serve` on SQLite and on PostgreSQL, and each stage alone (publishing to
 * JetStream from this process; fenced appends to PostgreSQL from this process, in the groups a
 * draining worker forms), to show where the time goes. Everything shares the machine's cores:
 * these are not the figures of separate machines (docs/deploy.md projects those). The PostgreSQL
 * schemas it makes are dropped at the end.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import autocannon from 'autocannon';
import pg from 'pg';
import { startRole, stopChild } from '../src/cluster/child-processes.js';
import { startNatsCluster, type NatsCluster } from '../src/cluster/local-nats.js';
import { connectNats, ensureStream, jetstreamManager, openBuckets, partitionSubject } from '../src/cluster/nats.js';
import { partitionOf } from '../src/cluster/partition.js';
import type { StandingEvent } from '../src/events/types.js';
import { resolveConfig, type ServiceConfig } from '../src/service/config.js';
import { createKey } from '../src/service/keys.js';
import { openStore } from '../src/store/open.js';
import { openPostgresStore } from '../src/store/postgres.js';
import { seededRng } from '../src/util/random.js';
import { count, heading, rate, table } from './format.js';
import type { Figure } from './figures.js';
import { GROUP_BYTES, GROUP_MESSAGES } from '../src/cluster/partition-runner.js';
import { dropSchema, postgresUrl, serve } from './serve-child.js';

const SECONDS = 10;
const BATCH = 100;
const PLAYERS = 10_000;
const COMMUNITIES = 16;
const CONNECTIONS = 8;
const MAIN = new URL('../../dist/cli/main.js', import.meta.url).pathname;

/** Batch `n`: BATCH events of community `c<n mod COMMUNITIES>`, ids unique per run. */
function batchEvents(rng: () => number, n: number): StandingEvent[] {
  const community = `c${n % COMMUNITIES}`;
  const time = 1_700_000_000_000 + n * 1000;
  const p = () => `p${Math.floor(rng() * PLAYERS)}`;
  return Array.from({ length: BATCH }, (_, i): StandingEvent => {
    const id = `b${n}-${i}`;
    const r = rng();
    if (r < 0.6) return { type: 'action', id, community, time, player: p(), delta: Math.round(rng() * 60 - 30) };
    if (r < 0.75) return { type: 'chat', id, community, time, from: p(), to: [p()] };
    if (r < 0.85) {
      const from = Math.floor(rng() * PLAYERS);
      return { type: 'rating', id, community, time, from: `p${from}`, to: `p${(from + 1 + Math.floor(rng() * 50)) % PLAYERS}`, value: rng() < 0.8 ? 1 : -1 };
    }
    if (r < 0.9) return { type: 'report', id, community, time, from: p(), to: p() };
    const a = Math.floor(rng() * PLAYERS);
    return { type: 'match.start', id, community, time, match: `m${n}-${i}`, players: [`p${a}`, `p${(a + 1) % PLAYERS}`] };
  });
}

/** autocannon posting fresh batches to `url` for SECONDS: acknowledged events/s and failures. */
async function load(url: string, key: string, seed: number): Promise<{ events: number; perSecond: number; failed: number }> {
  const rng = seededRng(seed);
  let n = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        path: '/v1/events',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: JSON.stringify(batchEvents(rng, n++)) }),
      },
    ],
  });
  return { events: result['2xx'] * BATCH, perSecond: (result['2xx'] * BATCH) / SECONDS, failed: result.non2xx + result.errors + result.timeouts };
}

/** Starts a role, `children` told of it at once (stopped whatever happens), bounded in how long it may take to run. */
function role(children: ChildProcess[], args: readonly string[], ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  return startRole(MAIN, args, ready, { spawned: (child) => children.push(child) });
}

/** SIGTERM each, SIGKILL after a bound. */
async function stopAll(children: readonly ChildProcess[]): Promise<void> {
  await Promise.all(children.map((child) => stopChild(child)));
}

function config(db: string, nats: readonly string[], stream: string): ServiceConfig {
  return resolveConfig([{ source: 'bench', values: { db, port: 0, logLevel: 'error', maxClockSkewSeconds: null, cluster: { nats: [...nats], stream, replicas: 3 } } }]);
}

/** Events stored: each community's last sequence (sequences are gapless from 1), summed. */
async function storedEvents(db: string): Promise<number> {
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  try {
    return Number((await client.query<{ n: string | null }>('SELECT sum(last_sequence) AS n FROM communities')).rows[0]!.n ?? 0);
  } finally {
    await client.end();
  }
}

interface ClusterRun {
  readonly workers: number;
  /** Events/s the gateway acknowledged, no worker running. */
  readonly acknowledged: number;
  readonly failed: number;
  /** Events/s the workers stored draining the filled stream, from their running to the last stored. */
  readonly applied: number;
}

/** Fills a new stream through the gateway, then drains it with `workers` workers. */
async function clusterRun(nats: NatsCluster, workers: number): Promise<ClusterRun> {
  const schema = `standing_bench_cluster_${workers}_${process.pid}`;
  const db = (await postgresUrl(schema))!;
  const settings = config(db, nats.urls, `bench-${process.pid}-${workers}`);
  const dir = mkdtempSync(join(tmpdir(), 'standing-bench-cluster-'));
  const file = join(dir, 'standing.json');
  writeFileSync(file, JSON.stringify(settings));
  const children: ChildProcess[] = [];
  const nc = await connectNats(settings.cluster, 'bench');
  try {
    const store = await openStore(db);
    const key = (await createKey(store, ['ingest'])).key;
    await store.close();
    const gateway = await role(children, ['gateway', '--config', file], /standing gateway serves at (\S+)\n/);
    const acked = await load(gateway.match[1]!, key, 8);
    // Announced before they start, each worker's first share is its part (no take-then-hand-over).
    const buckets = await openBuckets(nc, settings.cluster);
    for (let i = 1; i <= workers; i++) await buckets.workers.put(`bench-${i}`, JSON.stringify({ at: Date.now() }));
    await Promise.all(Array.from({ length: workers }, (_, i) => role(children, ['worker', '--config', file, '--id', `bench-${i + 1}`], /standing worker \S+ runs/)));
    const started = performance.now();
    const before = await storedEvents(db);
    for (let tries = 0; (await storedEvents(db)) < acked.events; tries++) {
      if (tries > 3000) throw new Error('the workers never stored every acknowledged event');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const elapsed = (performance.now() - started) / 1000;
    return { workers, acknowledged: acked.perSecond, failed: acked.failed, applied: (acked.events - before) / elapsed };
  } finally {
    await stopAll(children);
    await nc.close();
    rmSync(dir, { recursive: true, force: true });
    await dropSchema(schema);
  }
}

/** JetStream alone: the same batches published from this process, CONNECTIONS at a time, as a gateway does. */
async function natsAlone(nats: NatsCluster): Promise<number> {
  const settings = config('postgres://unused', nats.urls, `bench-${process.pid}-nats`);
  const nc = await connectNats(settings.cluster, 'bench');
  try {
    await ensureStream(await jetstreamManager(nc), settings.cluster);
    const js = jetstream(nc);
    const rng = seededRng(9);
    let n = 0;
    let events = 0;
    const deadline = performance.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (performance.now() < deadline) {
          const batch = batchEvents(rng, n++);
          await js.publish(partitionSubject(settings.cluster, partitionOf(batch[0]!.community, settings.cluster.partitions)), JSON.stringify(batch));
          events += BATCH;
        }
      }),
    );
    return events / SECONDS;
  } finally {
    await nc.close();
  }
}

/**
 * The groups a worker forms draining one partition's backlog (./../src/cluster/waiting-groups.ts):
 * up to GROUP_MESSAGES messages (batches) and GROUP_BYTES of them, the partition of community c0.
 */
function drainGroups(partitions: number, rng: () => number): () => StandingEvent[] {
  const partition = partitionOf('c0', partitions);
  let n = 0;
  return () => {
    const group: StandingEvent[] = [];
    let messages = 0;
    let bytes = 0;
    while (messages < GROUP_MESSAGES) {
      for (; partitionOf(`c${n % COMMUNITIES}`, partitions) !== partition; n++);
      const batch = batchEvents(rng, n);
      const size = Buffer.byteLength(JSON.stringify(batch));
      if (messages > 0 && bytes + size > GROUP_BYTES) break;
      n++;
      group.push(...batch);
      messages++;
      bytes += size;
    }
    return group;
  };
}

/** PostgreSQL alone: fenced appends of the groups a draining worker forms, from this process; only the appends are timed. */
async function postgresAlone(): Promise<{ perSecond: number; groupEvents: number }> {
  const schema = `standing_bench_cluster_pg_${process.pid}`;
  const db = (await postgresUrl(schema))!;
  const store = await openPostgresStore(db);
  try {
    const partitions = resolveConfig([]).cluster.partitions;
    const claim = await store.claimPartition({ name: 'bench', id: 'bench', partitions }, partitionOf('c0', partitions));
    const next = drainGroups(partitions, seededRng(10));
    let seq = 0;
    let events = 0;
    let groups = 0;
    let appending = 0;
    const deadline = performance.now() + SECONDS * 1000;
    while (performance.now() < deadline) {
      const group = next();
      const start = performance.now();
      await store.appendFenced(group, claim, ++seq);
      appending += performance.now() - start;
      events += group.length;
      groups++;
    }
    return { perSecond: events / (appending / 1000), groupEvents: events / groups };
  } finally {
    await store.close();
    await dropSchema(schema);
  }
}

async function singleNode(db: string): Promise<number> {
  const store = await openStore(db);
  const key = (await createKey(store, ['ingest'])).key;
  await store.close();
  const { child, url } = await serve(db);
  try {
    return (await load(url, key, 8)).perSecond;
  } finally {
    await stopAll([child]);
  }
}

export async function runCluster(): Promise<{ text: string; figures: Figure[] }> {
  const singleSchema = `standing_bench_single_${process.pid}`;
  const pgUrl = await postgresUrl(singleSchema);
  if (pgUrl === undefined) return { text: `${heading('Cluster')}\n(PostgreSQL not reachable: the cluster part was skipped)`, figures: [] };
  let nats: NatsCluster;
  try {
    nats = await startNatsCluster(3);
  } catch (error) {
    await dropSchema(singleSchema);
    return { text: `${heading('Cluster')}\n(${(error as Error).message}: the cluster part was skipped)`, figures: [] };
  }
  let runs: ClusterRun[];
  let natsRate: number;
  try {
    runs = [await clusterRun(nats, 1), await clusterRun(nats, 2)];
    natsRate = await natsAlone(nats);
  } finally {
    await nats.stop();
  }
  const sqlite = await singleNode(join(mkdtempSync(join(tmpdir(), 'standing-bench-')), 'events.sqlite'));
  const postgres = await singleNode(pgUrl).finally(() => dropSchema(singleSchema));
  const pgAlone = await postgresAlone();
  const micros = (perSecond: number) => (perSecond > 0 ? `${(1e6 / perSecond).toFixed(1)} µs` : '–');
  const text = [
    heading(`Cluster: POST /v1/events to one gateway, batches of ${BATCH} (one of ${COMMUNITIES} communities each), ${CONNECTIONS} connections, ${SECONDS} s; 3 nats-server, replicas 3`),
    table(
      [{ title: 'setup' }, { title: 'acknowledged', align: 'right' }, { title: 'applied', align: 'right' }, { title: 'failed', align: 'right' }],
      [
        ...runs.map((r) => [`cluster, ${r.workers} worker${r.workers > 1 ? 's' : ''}`, rate(r.acknowledged, 'events'), rate(r.applied, 'events'), count(r.failed)]),
        ['standing serve, SQLite', rate(sqlite, 'events'), rate(sqlite, 'events'), '–'],
        ['standing serve, PostgreSQL', rate(postgres, 'events'), rate(postgres, 'events'), '–'],
      ],
    ),
    'Acknowledged: durable in the log (cluster, no worker running) or in the store (serve). Applied (cluster): the workers, started on the filled stream, draining it into PostgreSQL, from their running to the last event stored.',
    heading('Cluster: where the time goes (each stage alone, same batches, this machine)'),
    table(
      [{ title: 'stage' }, { title: 'events/s', align: 'right' }, { title: 'per event', align: 'right' }],
      [
        ['gateway + JetStream (the cluster, acknowledged, no worker running)', rate(runs[0]!.acknowledged, 'events'), micros(runs[0]!.acknowledged)],
        ['JetStream alone (publish from this process, replicas 3)', rate(natsRate, 'events'), micros(natsRate)],
        [`PostgreSQL alone (fenced appends of a draining worker's groups, ${Math.round(pgAlone.groupEvents)} events each, one connection)`, rate(pgAlone.perSecond, 'events'), micros(pgAlone.perSecond)],
        ['worker end to end (consume, engine, append; 1 worker draining)', rate(runs[0]!.applied, 'events'), micros(runs[0]!.applied)],
      ],
    ),
    'The gateway costs the difference between its line and JetStream alone; the worker (engine and consuming) the difference between its line and PostgreSQL alone.',
  ].join('\n');
  const figure = (id: string, what: string, value: number): Figure => ({ id, part: 8, what, value, unit: 'events/s' });
  const figures: Figure[] = [
    ...runs.flatMap((r) => [
      figure(`cluster.acknowledged.w${r.workers}`, `cluster ingest acknowledged by the gateway, no worker running (run of ${r.workers} worker(s)), 3 nats-server replicas 3, one machine`, r.acknowledged),
      figure(`cluster.applied.w${r.workers}`, `cluster events applied and stored by ${r.workers} worker(s) draining a filled stream, one machine`, r.applied),
    ]),
    figure('cluster.single-node.sqlite', 'standing serve on SQLite, the same batches and load', sqlite),
    figure('cluster.single-node.postgres', 'standing serve on PostgreSQL, the same batches and load', postgres),
    figure('cluster.stage.jetstream', 'JetStream alone: the same batches published from one process, replicas 3', natsRate),
    figure('cluster.stage.postgres', "PostgreSQL alone: fenced appends of a draining worker's groups, from one process", pgAlone.perSecond),
  ];
  return { text, figures };
}
