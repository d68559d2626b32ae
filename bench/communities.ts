/**
 * Part 7: many small communities. A service with the default configuration (cqr, reliability,
 * chat, reports) over a fresh store takes 20,000 communities of six events each (two actions,
 * a chat, a report, a match started and ended) through its live engine in batches covering
 * many communities; reported are the memory the communities added (heap and typed arrays after
 * a full collection, per community), the seconds to stop (close: checkpoints written), the
 * seconds to start again until ready (state restored, listening), and the checkpoint bytes
 * stored per community. Once on SQLite (the default store) and once on PostgreSQL.
 *
 * Beside the heap, the memory the operating system counts: a `standing serve` child over a
 * fresh store of its own takes the same communities over HTTP, and its resident memory (VmRSS)
 * is read from outside after the first batch answered and after the last, without a collection:
 * the growth per community after the first batch (which also warms the process up). With the
 * default configuration on both stores, and on SQLite also with trust (five scorers).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { resolveConfig } from '../src/service/config.js';
import { startService, type RunningService } from '../src/app/serve.js';
import { serviceLogger } from '../src/http/log-redaction.js';
import { count, heading, seconds, table } from './format.js';
import { collectGarbage, now } from './measure.js';
import { atMost, type Figure } from './figures.js';
import { residentKiB } from './process-memory.js';
import { dropSchema, postgresUrl, serve } from './serve-child.js';
import { openStore } from '../src/store/open.js';
import { createKey } from '../src/service/keys.js';

const COMMUNITIES = Number(process.env.STANDING_BENCH_COMMUNITIES ?? 20_000);
/** Communities per ingested batch (six events each). */
const PER_BATCH = 500;
const MEMORY_TARGET_KIB = 16;
const RESIDENT_TARGET_KIB = 16;
const STOP_TARGET_S = 10;
const RESTART_TARGET_S = 10;

interface Run {
  readonly store: string;
  readonly kibPerCommunity: number;
  readonly ingestSeconds: number;
  readonly stopSeconds: number;
  readonly restartSeconds: number;
  /** A second stop with nothing new: nothing to write. */
  readonly idleStopSeconds: number;
  readonly restored: number;
  readonly checkpointBytesPerCommunity: number;
  /** Restart after one more event in every community and a crash (no checkpoint of them). */
  readonly crashRestartSeconds: number;
}

/** Resident memory per community of a `standing serve` child (see the header); undefined where /proc does not say. */
async function residentPerCommunity(db: string, observers: string | null): Promise<number | undefined> {
  const store = await openStore(db);
  const key = (await createKey(store, ['ingest'])).key;
  await store.close();
  const { child, url } = await serve(db, undefined, observers);
  try {
    const post = async (first: number): Promise<void> => {
      const batch: object[] = [];
      for (let c = first; c < Math.min(COMMUNITIES, first + PER_BATCH); c++) batch.push(...events(c));
      const response = await fetch(`${url}/v1/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(batch),
      });
      if (!response.ok) throw new Error(`standing serve answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    };
    await post(0);
    const before = residentKiB(child.pid);
    for (let first = PER_BATCH; first < COMMUNITIES; first += PER_BATCH) await post(first);
    const after = residentKiB(child.pid);
    return before === undefined || after === undefined || COMMUNITIES <= PER_BATCH ? undefined : (after - before) / (COMMUNITIES - PER_BATCH);
  } finally {
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

interface Resident {
  readonly store: string;
  readonly scorers: string;
  /** Held to the target (the default store); the others are reported beside it. */
  readonly held: boolean;
  readonly kibPerCommunity: number | undefined;
}

async function measureResident(): Promise<Resident[]> {
  const fresh = (): string => join(mkdtempSync(join(tmpdir(), 'standing-bench-')), 'events.sqlite');
  const runs: Resident[] = [
    { store: 'SQLite', scorers: 'default', held: true, kibPerCommunity: await residentPerCommunity(fresh(), null) },
    { store: 'SQLite', scorers: 'default and trust', held: true, kibPerCommunity: await residentPerCommunity(fresh(), 'p1,p2') },
  ];
  const schema = `standing_bench_communities_rss_${process.pid}`;
  const pgUrl = await postgresUrl(schema);
  if (pgUrl !== undefined) {
    try {
      runs.push({ store: 'PostgreSQL', scorers: 'default', held: false, kibPerCommunity: await residentPerCommunity(pgUrl, null) });
    } finally {
      await dropSchema(schema);
    }
  }
  return runs;
}

async function ingestAll(service: RunningService, eventsOf: (community: number) => object[]): Promise<void> {
  for (let first = 0; first < COMMUNITIES; first += PER_BATCH) {
    const batch: object[] = [];
    for (let c = first; c < Math.min(COMMUNITIES, first + PER_BATCH); c++) batch.push(...eventsOf(c));
    await service.live.ingest(batch);
  }
}

/** A stop without checkpoints, as a killed process leaves the store: only what was committed. */
async function crash(service: RunningService): Promise<void> {
  await service.abandon();
}

function events(community: number): object[] {
  const c = `c${community}`;
  const time = 1_700_000_000_000 + community * 1000;
  const [a, b] = [`a${community % 97}`, `b${community % 89}`];
  return [
    { type: 'action', community: c, id: `${c}-1`, time, player: a, delta: 12 },
    { type: 'action', community: c, id: `${c}-2`, time: time + 1, player: b, delta: -15 },
    { type: 'chat', community: c, id: `${c}-3`, time: time + 2, from: a, to: [b] },
    { type: 'report', community: c, id: `${c}-4`, time: time + 3, from: b, to: a },
    { type: 'match.start', community: c, id: `${c}-5`, time: time + 4, match: 'm', players: [a, b] },
    { type: 'match.end', community: c, id: `${c}-6`, time: time + 5, match: 'm' },
  ];
}

function heapBytes(): number {
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

function start(db: string): Promise<RunningService> {
  const config = resolveConfig([{ source: 'bench', values: { db, port: 0, logLevel: 'silent' } }]);
  return startService(config, serviceLogger('silent'));
}

async function checkpointBytes(db: string): Promise<number> {
  const sql = 'SELECT COALESCE(SUM(LENGTH(text)), 0) AS bytes FROM checkpoint_chunks';
  if (!db.startsWith('postgres')) {
    const sqlite = new Database(db, { readonly: true });
    try {
      return Number((sqlite.prepare(sql).get() as { bytes: number }).bytes);
    } finally {
      sqlite.close();
    }
  }
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  try {
    return Number((await client.query<{ bytes: string }>(sql)).rows[0]!.bytes);
  } finally {
    await client.end();
  }
}

async function measure(db: string, name: string): Promise<Run> {
  let service = await start(db);
  const before = heapBytes();
  const ingestStart = now();
  await ingestAll(service, events);
  const ingestSeconds = now() - ingestStart;
  const kibPerCommunity = (heapBytes() - before) / COMMUNITIES / 1024;

  const stopStart = now();
  await service.close();
  const stopSeconds = now() - stopStart;

  const restartStart = now();
  service = await start(db);
  const restartSeconds = now() - restartStart;
  const restored = service.live.communities().length;
  const idleStart = now();
  await service.close();
  const idleStopSeconds = now() - idleStart;
  const checkpointBytesPerCommunity = (await checkpointBytes(db)) / COMMUNITIES;

  service = await start(db);
  await ingestAll(service, (c) => [{ type: 'action', community: `c${c}`, id: `c${c}-7`, time: 1_700_000_100_000 + c * 1000, player: 'late', delta: 11 }]);
  await crash(service);
  const crashStart = now();
  service = await start(db);
  const crashRestartSeconds = now() - crashStart;
  await service.close();
  return {
    store: name,
    kibPerCommunity,
    ingestSeconds,
    stopSeconds,
    restartSeconds,
    idleStopSeconds,
    restored,
    checkpointBytesPerCommunity,
    crashRestartSeconds,
  };
}

export async function runCommunities(): Promise<{ text: string; figures: Figure[] }> {
  const runs: Run[] = [await measure(join(mkdtempSync(join(tmpdir(), 'standing-bench-')), 'events.sqlite'), 'SQLite')];
  const schema = `standing_bench_communities_${process.pid}`;
  const pgUrl = await postgresUrl(schema);
  if (pgUrl !== undefined) runs.push(await measure(pgUrl, 'PostgreSQL').finally(() => dropSchema(schema)));
  const resident = await measureResident();
  const text = [
    heading(`Many small communities: ${count(COMMUNITIES)} communities of 6 events, default configuration (cqr, reliability, chat, reports)`),
    table(
      [
        { title: 'store' },
        { title: 'memory per community', align: 'right' },
        { title: 'ingest', align: 'right' },
        { title: 'stop', align: 'right' },
        { title: 'restart until ready', align: 'right' },
        { title: 'restored', align: 'right' },
        { title: 'stop with nothing new', align: 'right' },
        { title: 'checkpoint per community', align: 'right' },
        { title: 'restart after a crash', align: 'right' },
      ],
      runs.map((r) => [
        r.store,
        `${r.kibPerCommunity.toFixed(2)} KiB`,
        seconds(r.ingestSeconds),
        seconds(r.stopSeconds),
        seconds(r.restartSeconds),
        count(r.restored),
        seconds(r.idleStopSeconds),
        `${count(Math.round(r.checkpointBytesPerCommunity))} B`,
        seconds(r.crashRestartSeconds),
      ]),
    ),
    '',
    table(
      [{ title: 'store' }, { title: 'scorers' }, { title: 'resident memory per community (standing serve, VmRSS)', align: 'right' }],
      resident.map((r) => [r.store, r.scorers, r.kibPerCommunity === undefined ? 'unknown (no /proc)' : `${r.kibPerCommunity.toFixed(2)} KiB`]),
    ),
    'Memory: heap and typed arrays after a full collection, before and after the ingest. Resident memory: a standing serve',
    'child over a fresh store takes the same communities over HTTP; its VmRSS after the first batch answered and after the',
    'last (no collection forced), per community after the first batch. Stop: closing the service, which',
    'checkpoints every community with new events. Restart: starting the service again until it listens, every community restored.',
    'Restart after a crash: one more event in every community, the process state dropped without checkpoints, then a start:',
    'each community restored from its checkpoint plus a one-event tail of its log.',
    pgUrl === undefined ? '(PostgreSQL not reachable: its run was skipped)' : '',
  ].join('\n');
  const figures: Figure[] = runs.flatMap((r, i): Figure[] => {
    const held = i === 0; // the default store is held to the targets, PostgreSQL reported beside it
    const key = r.store.toLowerCase();
    const n = count(COMMUNITIES);
    return [
      {
        id: `communities.memory.${key}`,
        part: 7,
        what: `memory per small community, ${r.store}`,
        value: r.kibPerCommunity,
        unit: 'KiB',
        ...(held ? atMost(MEMORY_TARGET_KIB, 'KiB', r.kibPerCommunity <= MEMORY_TARGET_KIB) : {}),
      },
      { id: `communities.stop.${key}`, part: 7, what: `stop with ${n} communities, ${r.store}`, value: r.stopSeconds, unit: 's', ...(held ? atMost(STOP_TARGET_S, 's', r.stopSeconds <= STOP_TARGET_S) : {}) },
      {
        id: `communities.restart.${key}`,
        part: 7,
        what: `restart with ${n} communities, ${r.store}`,
        value: r.restartSeconds,
        unit: 's',
        ...(held ? atMost(RESTART_TARGET_S, 's', r.restartSeconds <= RESTART_TARGET_S && r.restored === COMMUNITIES) : {}),
      },
      { id: `communities.crash-restart.${key}`, part: 7, what: `restart after a crash, ${n} communities, ${r.store}`, value: r.crashRestartSeconds, unit: 's' },
    ];
  });
  for (const r of resident) {
    const value = r.kibPerCommunity ?? Number.NaN; // unknown: written as null
    const trust = r.scorers === 'default' ? '' : '.trust';
    figures.push({
      id: `communities.resident.${r.store.toLowerCase()}${trust}`,
      part: 7,
      what: `resident memory per small community (standing serve), ${r.store}${trust === '' ? '' : ', with trust'}`,
      value,
      unit: 'KiB',
      ...(r.held ? atMost(RESIDENT_TARGET_KIB, 'KiB', value <= RESIDENT_TARGET_KIB) : {}),
    });
  }
  return { text, figures };
}
