/**
 * Part 8: the cluster, on a three-node NATS JetStream cluster (the machine's nats-server,
 * replicas 3) and PostgreSQL. End to end: one `standing gateway` and 1 (in a second run, 2)
 * `standing worker` processes, settled on every partition, take batches of 100 events (each batch
 * one of 16 communities) from autocannon for a fixed time; a gateway answers 200 only once the
 * owning worker has stored and applied the batch, so reported are the events/s acknowledged
 * (stored and applied) and the CPU each role spent per acknowledged event (/proc, ./process-cpu.ts).
 * The drain: this process fills a new stream with the messages a gateway publishes for the same
 * batches (./../src/cluster/publish.ts, an outcome subject nobody hears), then 1 (2) workers start
 * on it and drain it into PostgreSQL: reported are the events/s they apply, timed from the workers
 * running to the last event stored, so the figure is the workers' and not bounded by a gateway's.
 * Beside them, in the same run and with the same batches: `standing serve` on SQLite and on
 * PostgreSQL, and each stage alone (publishing a gateway's messages to JetStream from this
 * process; fenced appends to PostgreSQL from this process, in the groups a draining worker forms),
 * to show where the time goes. Everything shares the machine's cores: these are not the figures
 * of separate machines (docs/deploy.md projects those). The PostgreSQL schemas it makes are
 * dropped at the end.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import autocannon from 'autocannon';
import pg from 'pg';
import { startRole, stopChild } from '../src/cluster/child-processes.js';
import { startNatsCluster, type NatsCluster } from '../src/cluster/local-nats.js';
import { outcomeSubject } from '../src/cluster/ingest-protocol.js';
import { settled } from '../src/cluster/local-settle.js';
import { connectNats, ensureStream, jetstreamManager, openBuckets, type ClusterConfig } from '../src/cluster/nats.js';
import { partitionOf } from '../src/store/partitions.js';
import { partitionParts, publishParts } from '../src/cluster/publish.js';
import type { StandingEvent } from '../src/events/types.js';
import { resolveConfig, type ServiceConfig } from '../src/service/config.js';
import { createKey } from '../src/service/keys.js';
import { openStore } from '../src/store/open.js';
import { openPostgresStore } from '../src/store/postgres.js';
import { seededRng } from '../src/util/random.js';
import { count, heading, rate, table } from './format.js';
import { formatValue, type Figure, type Unit } from './figures.js';
import { GROUP_BYTES, GROUP_MESSAGES } from '../src/cluster/partition-runner.js';
import { cpuSince } from './process-cpu.js';
import { dropSchema, postgresUrl, serve } from './serve-child.js';

const SECONDS = 10;
const BATCH = 100;
const PLAYERS = 10_000;
const COMMUNITIES = 16;
const CONNECTIONS = 8;
/** Batches the drain's stream is filled with. */
const DRAIN_BATCHES = 5_000;
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

/** A new stream and schema for one run, with the configuration file the roles read; `close` removes them. */
async function runSetting(nats: NatsCluster, name: string): Promise<{ db: string; settings: ServiceConfig; file: string; close(): Promise<void> }> {
  const schema = `standing_bench_cluster_${name}_${process.pid}`;
  const db = (await postgresUrl(schema))!;
  const settings = config(db, nats.urls, `bench-${process.pid}-${name}`);
  const dir = mkdtempSync(join(tmpdir(), 'standing-bench-cluster-'));
  const file = join(dir, 'standing.json');
  writeFileSync(file, JSON.stringify(settings));
  return {
    db,
    settings,
    file,
    async close() {
      rmSync(dir, { recursive: true, force: true });
      await dropSchema(schema);
    },
  };
}

/**
 * Starts `workers` workers on the stream of `file`. Announced before they start, each worker's
 * first share is its part (no take-then-hand-over).
 */
async function startWorkers(children: ChildProcess[], nc: NatsConnection, settings: ServiceConfig, file: string, workers: number): Promise<ChildProcess[]> {
  const buckets = await openBuckets(nc, settings.cluster);
  for (let i = 1; i <= workers; i++) await buckets.workers.put(`bench-${i}`, JSON.stringify({ at: Date.now() }));
  const started = await Promise.all(Array.from({ length: workers }, (_, i) => role(children, ['worker', '--config', file, '--id', `bench-${i + 1}`], /standing worker \S+ runs/)));
  return started.map((s) => s.child);
}

/** CPU time per event (µs), NaN when unknown. */
function cpuPerEvent(cpuSeconds: number | undefined, events: number): number {
  return cpuSeconds === undefined || events === 0 ? Number.NaN : (cpuSeconds * 1e6) / events;
}

interface EndToEndRun {
  readonly workers: number;
  /** Events/s the gateway answered 200 for: each stored and applied by its worker. */
  readonly acknowledged: number;
  readonly failed: number;
  /** CPU per acknowledged event (µs): the gateway, the workers together, the three nats-server together. */
  readonly cpu: { readonly gateway: number; readonly workers: number; readonly nats: number };
}

/** One gateway and `workers` workers, settled on every partition, under the load for SECONDS. */
async function endToEndRun(nats: NatsCluster, workers: number): Promise<EndToEndRun> {
  const run = await runSetting(nats, `e2e_${workers}`);
  const children: ChildProcess[] = [];
  const nc = await connectNats(run.settings.cluster, 'bench');
  try {
    const store = await openStore(run.db);
    const key = (await createKey(store, ['ingest'])).key;
    await store.close();
    const workerProcesses = await startWorkers(children, nc, run.settings, run.file, workers);
    await settled(run.settings.cluster, workers);
    const gateway = await role(children, ['gateway', '--config', run.file], /standing gateway serves at (\S+) with /);
    const gatewayCpu = cpuSince([gateway.child.pid]);
    const workersCpu = cpuSince(workerProcesses.map((w) => w.pid));
    const natsCpu = cpuSince(nats.nodes.map((n) => n.process.pid));
    const acked = await load(gateway.match[1]!, key, 8);
    const cpu = { gateway: cpuPerEvent(gatewayCpu(), acked.events), workers: cpuPerEvent(workersCpu(), acked.events), nats: cpuPerEvent(natsCpu(), acked.events) };
    const stored = await storedEvents(run.db);
    if (stored < acked.events) throw new Error(`the gateway acknowledged ${acked.events} events, but only ${stored} are stored`);
    return { workers, acknowledged: acked.perSecond, failed: acked.failed, cpu };
  } finally {
    await stopAll(children);
    await nc.close();
    await run.close();
  }
}

/**
 * The messages a gateway publishes for the batches `next` gives (one per partition a batch
 * touches, with its batch id and an outcome subject), CONNECTIONS batches at a time, until `more`
 * says stop: the events published.
 */
async function publishBatches(nc: NatsConnection, cluster: ClusterConfig, next: () => StandingEvent[], more: (events: number) => boolean): Promise<number> {
  const js = jetstream(nc);
  const outcomeTo = outcomeSubject(cluster, 'bench-unheard');
  let events = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (more(events)) {
        const batch = next();
        events += batch.length;
        await publishParts(js, cluster, partitionParts(batch, cluster.partitions), { batch: randomUUID(), outcomeTo });
      }
    }),
  );
  return events;
}

interface DrainRun {
  readonly workers: number;
  /** Events/s the workers stored draining the filled stream, from their running to the last stored. */
  readonly applied: number;
  /** CPU per applied event (µs), the workers together. */
  readonly cpu: number;
}

/** Fills a new stream with DRAIN_BATCHES batches from this process, then drains it with `workers` workers. */
async function drainRun(nats: NatsCluster, workers: number): Promise<DrainRun> {
  const run = await runSetting(nats, `drain_${workers}`);
  const children: ChildProcess[] = [];
  const nc = await connectNats(run.settings.cluster, 'bench');
  try {
    await ensureStream(await jetstreamManager(nc), run.settings.cluster);
    const rng = seededRng(8);
    let n = 0;
    const filled = await publishBatches(nc, run.settings.cluster, () => batchEvents(rng, n++), () => n < DRAIN_BATCHES);
    const workerProcesses = await startWorkers(children, nc, run.settings, run.file, workers);
    const started = performance.now();
    const workersCpu = cpuSince(workerProcesses.map((w) => w.pid));
    const before = await storedEvents(run.db);
    for (let tries = 0; (await storedEvents(run.db)) < filled; tries++) {
      if (tries > 3000) throw new Error(`the workers never stored every published event (${filled})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const elapsed = (performance.now() - started) / 1000;
    return { workers, applied: (filled - before) / elapsed, cpu: cpuPerEvent(workersCpu(), filled - before) };
  } finally {
    await stopAll(children);
    await nc.close();
    await run.close();
  }
}

/** JetStream alone: the messages a gateway publishes for the same batches, from this process, CONNECTIONS batches at a time, for SECONDS. */
async function natsAlone(nats: NatsCluster): Promise<number> {
  const settings = config('postgres://unused', nats.urls, `bench-${process.pid}-nats`);
  const nc = await connectNats(settings.cluster, 'bench');
  try {
    await ensureStream(await jetstreamManager(nc), settings.cluster);
    const rng = seededRng(9);
    let n = 0;
    const start = performance.now();
    const deadline = start + SECONDS * 1000;
    const events = await publishBatches(nc, settings.cluster, () => batchEvents(rng, n++), () => performance.now() < deadline);
    return events / ((performance.now() - start) / 1000);
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
  let endToEnd: EndToEndRun[];
  let drains: DrainRun[];
  let natsRate: number;
  try {
    endToEnd = [await endToEndRun(nats, 1), await endToEndRun(nats, 2)];
    drains = [await drainRun(nats, 1), await drainRun(nats, 2)];
    natsRate = await natsAlone(nats);
  } finally {
    await nats.stop();
  }
  const sqlite = await singleNode(join(mkdtempSync(join(tmpdir(), 'standing-bench-')), 'events.sqlite'));
  const postgres = await singleNode(pgUrl).finally(() => dropSchema(singleSchema));
  const pgAlone = await postgresAlone();
  const micros = (value: number) => formatValue(value, 'µs');
  const perEvent = (perSecond: number) => micros(perSecond > 0 ? 1e6 / perSecond : Number.NaN);
  const workersWord = (n: number) => `${n} worker${n > 1 ? 's' : ''}`;
  const text = [
    heading(`Cluster end to end: POST /v1/events to one gateway, batches of ${BATCH} (one of ${COMMUNITIES} communities each), ${CONNECTIONS} connections, ${SECONDS} s; 3 nats-server, replicas 3`),
    table(
      [
        { title: 'setup' },
        { title: 'acknowledged', align: 'right' },
        { title: 'failed', align: 'right' },
        { title: 'CPU/event: gateway', align: 'right' },
        { title: 'workers', align: 'right' },
        { title: 'nats-server ×3', align: 'right' },
      ],
      [
        ...endToEnd.map((r) => [`cluster, ${workersWord(r.workers)}`, rate(r.acknowledged, 'events'), count(r.failed), micros(r.cpu.gateway), micros(r.cpu.workers), micros(r.cpu.nats)]),
        ['standing serve, SQLite', rate(sqlite, 'events'), '–', '–', '–', '–'],
        ['standing serve, PostgreSQL', rate(postgres, 'events'), '–', '–', '–', '–'],
      ],
    ),
    'Acknowledged: answered 200, every event stored in PostgreSQL and applied by its worker (cluster), or stored (serve). CPU per acknowledged event, each role\'s processes together (user + system, every thread).',
    heading(`Cluster drain: workers started on a stream holding ${count(DRAIN_BATCHES * BATCH)} events (a gateway's messages, published from this process)`),
    table(
      [{ title: 'setup' }, { title: 'applied', align: 'right' }, { title: 'per event', align: 'right' }, { title: 'CPU/event: workers', align: 'right' }],
      drains.map((r) => [workersWord(r.workers), rate(r.applied, 'events'), perEvent(r.applied), micros(r.cpu)]),
    ),
    'Applied: from the workers running to the last event stored in PostgreSQL.',
    heading('Cluster: where the time goes (each stage alone, same batches, this machine)'),
    table(
      [{ title: 'stage' }, { title: 'events/s', align: 'right' }, { title: 'per event', align: 'right' }],
      [
        ['JetStream alone (a gateway\'s messages published from this process, replicas 3)', rate(natsRate, 'events'), perEvent(natsRate)],
        [`PostgreSQL alone (fenced appends of a draining worker's groups, ${Math.round(pgAlone.groupEvents)} events each, one connection)`, rate(pgAlone.perSecond, 'events'), perEvent(pgAlone.perSecond)],
        ['worker end to end (consume, engine, append; 1 worker draining)', rate(drains[0]!.applied, 'events'), perEvent(drains[0]!.applied)],
      ],
    ),
    'The worker (engine and consuming) costs the difference between its line and PostgreSQL alone.',
  ].join('\n');
  const figure = (id: string, what: string, value: number, unit: Unit = 'events/s'): Figure => ({ id, part: 8, what, value, unit });
  const figures: Figure[] = [
    ...endToEnd.flatMap((r) => [
      figure(`cluster.end-to-end.w${r.workers}`, `cluster ingest end to end, one gateway and ${workersWord(r.workers)}: acknowledged once stored and applied, 3 nats-server replicas 3, one machine`, r.acknowledged),
      figure(`cluster.end-to-end.w${r.workers}.cpu.gateway`, `CPU of the gateway per acknowledged event (one gateway and ${workersWord(r.workers)})`, r.cpu.gateway, 'µs'),
      figure(`cluster.end-to-end.w${r.workers}.cpu.workers`, `CPU of the ${workersWord(r.workers)} per acknowledged event`, r.cpu.workers, 'µs'),
      figure(`cluster.end-to-end.w${r.workers}.cpu.nats`, `CPU of the three nats-server per acknowledged event (one gateway and ${workersWord(r.workers)})`, r.cpu.nats, 'µs'),
    ]),
    ...drains.flatMap((r) => [
      figure(`cluster.drain.w${r.workers}`, `cluster events applied and stored by ${workersWord(r.workers)} draining a filled stream, one machine`, r.applied),
      figure(`cluster.drain.w${r.workers}.cpu.workers`, `CPU of the ${workersWord(r.workers)} per event drained`, r.cpu, 'µs'),
    ]),
    figure('cluster.single-node.sqlite', 'standing serve on SQLite, the same batches and load', sqlite),
    figure('cluster.single-node.postgres', 'standing serve on PostgreSQL, the same batches and load', postgres),
    figure('cluster.stage.jetstream', "JetStream alone: a gateway's messages for the same batches, published from one process, replicas 3", natsRate),
    figure('cluster.stage.postgres', "PostgreSQL alone: fenced appends of a draining worker's groups, from one process", pgAlone.perSecond),
  ];
  return { text, figures };
}
