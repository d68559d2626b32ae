/**
 * Part 6: the service over HTTP. A `standing serve` child (all five scorers live) takes batches
 * of 100 events from autocannon on 127.0.0.1 for a fixed time, while a second autocannon reads
 * `GET /v1/players/:id`; reported are events/s acknowledged durable, the server's CPU per
 * acknowledged event while it ingests alone (the child process's user and system time from
 * /proc, every thread of it: ./process-cpu.ts) and the read latency p99. Once on SQLite (the
 * default store) and once on PostgreSQL (whose backends' CPU serving it is reported apart, when
 * the database runs on this machine: ./postgres-cpu.ts). The baseline,
 * measured first in the same run with the same batches: fastify alone parsing each batch and
 * answering 200 without storing anything (./fastify-alone-child.ts). The server and the load
 * generator share the machine's two cores, as a game server and standing would.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createKey } from '../src/service/keys.js';
import { openStore } from '../src/store/open.js';
import { seededRng } from '../src/util/random.js';
import { count, heading, rate, table } from './format.js';
import { Failures } from './failures.js';
import { dropSchema, postgresUrl, serve, serveFastifyAlone } from './serve-child.js';
import { cpuSince } from './process-cpu.js';
import { postgresCpuSince } from './postgres-cpu.js';
import { against, atMost, ratioTarget, type Figure } from './figures.js';

const SECONDS = 10;
const BATCH = 100;
const PLAYERS = 10_000;

interface Phase {
  readonly eventsPerSecond: number;
  /** The server process's CPU (user and system, all its threads) per acknowledged event, µs; NaN when /proc does not say. */
  readonly cpuMicrosPerEvent: number;
  /** On PostgreSQL, its backends' CPU serving the server per acknowledged event, µs; NaN when unknown or on SQLite. */
  readonly postgresMicrosPerEvent: number;
  /** Ingest requests that got no 2xx, by kind. */
  readonly failures: Failures;
}

interface Run {
  readonly store: string;
  /** Ingest alone. */
  readonly alone: Phase;
  /** Ingest while reads run. */
  readonly mixed: Phase;
  readonly reads: number;
  readonly readP50: number;
  readonly readP99: number;
  /** Reads that got no 2xx, by kind. */
  readonly readFailures: Failures;
  /** The service's log (warn level): a failed request's error and stack are there. */
  readonly log: string;
}

/** One batch body: mostly actions, with ratings, chats, reports and matches; ids unique per run. */
function batchBody(rng: () => number, n: number): string {
  const events = [];
  const time = 1_700_000_000_000 + n * 1000;
  for (let i = 0; i < BATCH; i++) {
    const p = () => `p${Math.floor(rng() * PLAYERS)}`;
    const id = `b${n}-${i}`;
    const r = rng();
    if (r < 0.6) events.push({ type: 'action', id, time, player: p(), delta: Math.round(rng() * 60 - 30) });
    else if (r < 0.75) events.push({ type: 'chat', id, time, from: p(), to: [p()] });
    else if (r < 0.85) {
      const from = Math.floor(rng() * PLAYERS);
      events.push({ type: 'rating', id, time, from: `p${from}`, to: `p${(from + 1 + Math.floor(rng() * 50)) % PLAYERS}`, value: rng() < 0.8 ? 1 : -1 });
    } else if (r < 0.9) events.push({ type: 'report', id, time, from: p(), to: p() });
    else {
      const a = Math.floor(rng() * PLAYERS);
      events.push({ type: 'match.start', id, time, match: `m${n}-${i}`, players: [`p${a}`, `p${(a + 1) % PLAYERS}`] });
    }
  }
  return JSON.stringify(events);
}

/**
 * autocannon, each request that got no answer counted in `failures` (non-2xx answers are counted
 * by each request's onResponse). autocannon counts a timeout both in its `errors` and its
 * `timeouts`: here it is counted once.
 */
function loadCounting(failures: Failures, options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error: unknown, result) => (error ? reject(error as Error) : resolve(result)));
    instance.on('reqError', (error: Error) => failures.error(error));
  });
}

/**
 * Ingest for SECONDS over 8 connections, each request the next batch of `batches`; the CPU `pid`
 * spent meanwhile, and with `postgres` the CPU of its PostgreSQL backends.
 */
async function ingestFor(url: string, key: string, batches: () => string, pid: number | undefined, postgres?: PostgresBackends): Promise<Phase> {
  const failures = new Failures();
  const postgresCpu = postgres === undefined ? undefined : await postgresCpuSince(postgres.url, postgres.application);
  const cpu = cpuSince([pid]);
  const w = await loadCounting(failures, {
    url,
    connections: 8,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        path: '/v1/events',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: batches() }),
        onResponse: (status, body) => {
          if (status < 200 || status >= 300) failures.answer(status, body);
        },
      },
    ],
  });
  const seconds = cpu();
  const postgresSeconds = await postgresCpu?.();
  const events = w['2xx'] * BATCH;
  const perEvent = (s: number | undefined) => (s === undefined || events === 0 ? Number.NaN : (s * 1e6) / events);
  return { eventsPerSecond: events / SECONDS, cpuMicrosPerEvent: perEvent(seconds), postgresMicrosPerEvent: perEvent(postgresSeconds), failures };
}

/** The PostgreSQL database a server uses, and the application name its connections carry. */
interface PostgresBackends {
  readonly url: string;
  readonly application: string;
}

/** The batches every run takes, in the same order: batch n of the run is the same in each. */
function sameBatches(): () => string {
  const rng = seededRng(6);
  let n = 0;
  return () => batchBody(rng, n++);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The baseline: fastify alone taking the same batches, parsing them and answering 200, storing nothing. */
async function measureFastifyAlone(): Promise<Phase> {
  const { child, url } = await serveFastifyAlone();
  try {
    return await ingestFor(url, 'none', sameBatches(), child.pid);
  } finally {
    await stopChild(child);
  }
}

async function measure(db: string, name: string, log: string, postgres?: PostgresBackends): Promise<Run> {
  const store = await openStore(db);
  const ingest = (await createKey(store, ['ingest'])).key;
  const read = (await createKey(store, ['read'])).key;
  await store.close();
  const { child, url } = await serve(db, log);
  try {
    const batches = sameBatches();
    const alone = await ingestFor(url, ingest, batches, child.pid, postgres);
    const readFailures = new Failures();
    const reads = loadCounting(readFailures, {
      url,
      connections: 2,
      duration: SECONDS,
      requests: [
        {
          method: 'GET',
          path: '/v1/players/p7',
          headers: { authorization: `Bearer ${read}` },
          onResponse: (status, body) => {
            if (status < 200 || status >= 300) readFailures.answer(status, body);
          },
        },
      ],
    });
    const [mixed, r] = await Promise.all([ingestFor(url, ingest, batches, child.pid), reads]);
    return { store: name, alone, mixed, reads: r['2xx'], readP50: r.latency.p50, readP99: r.latency.p99, readFailures, log };
  } finally {
    await stopChild(child);
  }
}

/**
 * What failed in a run, by kind (a timeout is the load generator's: the request may still have
 * been served; a 503 carries Retry-After; a 500 is a fault, its error and stack in the log).
 */
function failureLines(r: Run): string[] {
  const parts = [
    ['ingest alone', r.alone.failures],
    ['ingest with reads', r.mixed.failures],
    ['reads', r.readFailures],
  ] as const;
  const failed = parts.filter(([, f]) => f.total > 0).map(([what, f]) => `${what}: ${f.text()}`);
  return failed.length === 0 ? [] : [`${r.store} failed requests: ${failed.join('; ')} (service log: ${r.log})`];
}

/** `12.3 µs`, `—` when unknown. */
const micros = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(1)} µs` : '—');

/** SQLite's server CPU per event may be at most this (µs). */
const SQLITE_CPU_TARGET = 25;

export async function runService(): Promise<{ text: string; figures: Figure[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'standing-bench-'));
  const baseline = await measureFastifyAlone();
  const runs: Run[] = [await measure(join(dir, 'events.sqlite'), 'SQLite', join(dir, 'service-sqlite.log'))];
  const schema = `standing_bench_${process.pid}`;
  const pgUrl = await postgresUrl(schema);
  if (pgUrl !== undefined) {
    // The server's connections carry this name, so its backends' CPU can be told apart from other clients'.
    const url = `${pgUrl}&application_name=${schema}`;
    runs.push(await measure(url, 'PostgreSQL', join(dir, 'service-postgresql.log'), { url, application: schema }).finally(() => dropSchema(schema)));
  }
  const text = [
    heading(`Service: POST /v1/events, batches of ${BATCH}, 8 connections, ${SECONDS} s alone, then ${SECONDS} s beside GET /v1/players/:id on 2 connections`),
    table(
      [
        { title: 'server' },
        { title: 'ingest alone', align: 'right' },
        { title: 'server CPU per event', align: 'right' },
        { title: 'PostgreSQL CPU per event', align: 'right' },
        { title: 'ingest with reads', align: 'right' },
        { title: 'failed', align: 'right' },
        { title: 'reads', align: 'right' },
        { title: 'read p50', align: 'right' },
        { title: 'read p99', align: 'right' },
      ],
      [
        ['fastify alone (stores nothing)', rate(baseline.eventsPerSecond, 'events'), micros(baseline.cpuMicrosPerEvent), '—', '—', count(baseline.failures.total), '—', '—', '—'],
        ...runs.map((r) => [
          `standing serve, ${r.store}`,
          rate(r.alone.eventsPerSecond, 'events'),
          micros(r.alone.cpuMicrosPerEvent),
          micros(r.alone.postgresMicrosPerEvent),
          rate(r.mixed.eventsPerSecond, 'events'),
          count(r.alone.failures.total + r.mixed.failures.total),
          count(r.reads),
          `${r.readP50} ms`,
          `${r.readP99} ms`,
        ]),
      ],
    ),
    ...(baseline.failures.total > 0 ? [`fastify alone failed requests: ${baseline.failures.text()}`] : []),
    ...runs.flatMap((r) => failureLines(r)),
    'Every acknowledged batch is durable (SQLite synchronous=FULL, one commit per group of waiting batches).',
    'Server CPU: user and system time of the server process (all its threads) while it ingests alone, per acknowledged event. PostgreSQL CPU: that of the PostgreSQL backends serving it (when the server runs here), not counted in the server\'s.',
    pgUrl === undefined ? '(PostgreSQL not reachable: its run was skipped)' : '',
  ].join('\n');
  const baselineName = 'fastify alone, the same batches, nothing stored';
  const sqlite = runs[0]!.alone;
  const figures: Figure[] = [
    { id: 'service.ingest.fastify-alone', part: 6, what: `fastify alone taking the same batches of ${BATCH} over HTTP, parsing them and answering 200, storing nothing`, value: baseline.eventsPerSecond, unit: 'events/s' },
    { id: 'service.cpu.fastify-alone', part: 6, what: 'server CPU per event, fastify alone (user and system time of the process)', value: baseline.cpuMicrosPerEvent, unit: 'µs' },
    ...runs.flatMap((r, i): Figure[] => {
      const key = r.store.toLowerCase();
      const held = i === 0; // the default store is held to the targets; PostgreSQL's ingest to SQLite's in this run
      const ok = r.alone.failures.total === 0;
      const toBaseline = r.alone.eventsPerSecond / baseline.eventsPerSecond;
      const toSqlite = r.alone.eventsPerSecond / sqlite.eventsPerSecond;
      return [
        {
          id: `service.ingest.${key}`,
          part: 6,
          what: `service ingest over HTTP, ${r.store}, batches of ${BATCH}, every batch durable before its answer`,
          value: r.alone.eventsPerSecond,
          unit: 'events/s',
          ...(held
            ? { ...against(baselineName, baseline.eventsPerSecond, 'events/s', toBaseline, "× the baseline's rate"), ...ratioTarget('>=', 0.5, "× the baseline's rate", toBaseline >= 0.5 && ok) }
            : { ...against('the same on SQLite', sqlite.eventsPerSecond, 'events/s', toSqlite, "× the baseline's rate"), ...ratioTarget('>=', 1, "× the baseline's rate", toSqlite >= 1 && ok) }),
        },
        {
          id: `service.cpu.${key}`,
          part: 6,
          what: `server CPU per event ingested, ${r.store} (user and system time of the standing process, all its threads${held ? '' : '; not PostgreSQL\'s'})`,
          value: r.alone.cpuMicrosPerEvent,
          unit: 'µs',
          ...against(baselineName, baseline.cpuMicrosPerEvent, 'µs', r.alone.cpuMicrosPerEvent / baseline.cpuMicrosPerEvent, "× the baseline's CPU"),
          ...(held ? atMost(SQLITE_CPU_TARGET, 'µs', r.alone.cpuMicrosPerEvent <= SQLITE_CPU_TARGET) : {}),
        },
        ...(held
          ? []
          : [
              {
                id: `service.cpu.${key}-backends`,
                part: 6,
                what: `CPU per event ingested of the ${r.store} backends serving the standing process (from /proc, when the database runs on this machine)`,
                value: r.alone.postgresMicrosPerEvent,
                unit: 'µs',
              } satisfies Figure,
            ]),
        {
          id: `service.read-p99.${key}`,
          part: 6,
          what: `GET /v1/players/:id p99 under ingest, ${r.store}`,
          value: r.readP99,
          unit: 'ms',
          ...(held ? atMost(10, 'ms', r.readP99 < 10, '<') : {}),
        },
      ];
    }),
  ];
  return { text, figures };
}
