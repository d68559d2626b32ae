/**
 * Part 6: the service over HTTP. A `standing serve` child (all five scorers live) takes batches
 * of 100 events from autocannon on 127.0.0.1 for a fixed time, while a second autocannon reads
 * `GET /v1/players/:id`; reported are events/s acknowledged durable and the read latency p99.
 * Once on SQLite (the default store) and once on PostgreSQL. The server and the load generator
 * share the machine's two cores, as a game server and standing would.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createKey } from '../src/service/keys.js';
import { openStore } from '../src/store/open.js';
import { seededRng } from '../src/util/random.js';
import { count, heading, rate, table } from './format.js';
import { postgresUrl, serve } from './serve-child.js';
import { atLeast, atMost, type Figure } from './figures.js';

const SECONDS = 10;
const BATCH = 100;
const PLAYERS = 10_000;

interface Phase {
  readonly eventsPerSecond: number;
  readonly failed: number;
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

async function measure(db: string, name: string): Promise<Run> {
  const store = await openStore(db);
  const ingest = (await createKey(store, ['ingest'])).key;
  const read = (await createKey(store, ['read'])).key;
  await store.close();
  const { child, url } = await serve(db);
  try {
    const rng = seededRng(6);
    let n = 0;
    const ingestFor = (): Promise<autocannon.Result> =>
      autocannon({
        url,
        connections: 8,
        duration: SECONDS,
        requests: [
          {
            method: 'POST',
            path: '/v1/events',
            headers: { authorization: `Bearer ${ingest}`, 'content-type': 'application/json' },
            setupRequest: (request) => ({ ...request, body: batchBody(rng, n++) }),
          },
        ],
      });
    const phase = (w: autocannon.Result): Phase => ({ eventsPerSecond: (w['2xx'] * BATCH) / SECONDS, failed: w.non2xx + w.errors + w.timeouts });
    const alone = phase(await ingestFor());
    const reads = autocannon({
      url,
      connections: 2,
      duration: SECONDS,
      requests: [{ method: 'GET', path: '/v1/players/p7', headers: { authorization: `Bearer ${read}` } }],
    });
    const [w, r] = await Promise.all([ingestFor(), reads]);
    return { store: name, alone, mixed: phase(w), reads: r['2xx'], readP50: r.latency.p50, readP99: r.latency.p99 };
  } finally {
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

export async function runService(): Promise<{ text: string; figures: Figure[] }> {
  const runs: Run[] = [await measure(join(mkdtempSync(join(tmpdir(), 'standing-bench-')), 'events.sqlite'), 'SQLite')];
  const pgUrl = await postgresUrl(`standing_bench_${process.pid}`);
  if (pgUrl !== undefined) runs.push(await measure(pgUrl, 'PostgreSQL'));
  const text = [
    heading(`Service: POST /v1/events, batches of ${BATCH}, 8 connections, ${SECONDS} s alone, then ${SECONDS} s beside GET /v1/players/:id on 2 connections`),
    table(
      [
        { title: 'store' },
        { title: 'ingest alone', align: 'right' },
        { title: 'ingest with reads', align: 'right' },
        { title: 'failed', align: 'right' },
        { title: 'reads', align: 'right' },
        { title: 'read p50', align: 'right' },
        { title: 'read p99', align: 'right' },
      ],
      runs.map((r) => [r.store, rate(r.alone.eventsPerSecond, 'events'), rate(r.mixed.eventsPerSecond, 'events'), count(r.alone.failed + r.mixed.failed), count(r.reads), `${r.readP50} ms`, `${r.readP99} ms`]),
    ),
    'Every acknowledged batch is durable (SQLite synchronous=FULL, one commit per group of waiting batches).',
    pgUrl === undefined ? '(PostgreSQL not reachable: its run was skipped)' : '',
  ].join('\n');
  const figures: Figure[] = runs.flatMap((r, i): Figure[] => {
    const key = r.store.toLowerCase();
    const held = i === 0; // the default store is held to the targets, PostgreSQL reported beside it
    return [
      {
        id: `service.ingest.${key}`,
        part: 6,
        what: `service ingest over HTTP, ${r.store}, batches of ${BATCH}, every batch durable before its answer`,
        value: r.alone.eventsPerSecond,
        unit: 'events/s',
        ...(held ? atLeast(50_000, 'events/s', r.alone.eventsPerSecond >= 50_000 && r.alone.failed === 0) : {}),
      },
      {
        id: `service.read-p99.${key}`,
        part: 6,
        what: `GET /v1/players/:id p99 under ingest, ${r.store}`,
        value: r.readP99,
        unit: 'ms',
        ...(held ? atMost(10, 'ms', r.readP99 < 10, '<') : {}),
      },
    ];
  });
  return { text, figures };
}
