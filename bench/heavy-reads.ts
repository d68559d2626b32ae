/**
 * Heavy reads: a `standing serve` child (all five scorers live) over one community of 300,000
 * events among 100,000 players, in a SQLite file. One after the other, each scorer's history at
 * the default 50 points and at 200 (the most a request may ask) and its explanation of one busy
 * player, by their defaults; meanwhile a
 * probe asks /healthz every 20 ms and another posts a one-event batch to another community
 * every 50 ms. Reported: each answer's time and size, and the probes' p99 and worst latency,
 * against the targets (answers within 5 s; probes under 250 ms at p99). A history asked for
 * again comes from the cache.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKey } from '../src/service/keys.js';
import { openStore } from '../src/store/open.js';
import { validateEvent } from '../src/events/validate.js';
import { seededRng } from '../src/util/random.js';
import { count, heading, seconds, table } from './format.js';
import { serve } from './serve-child.js';
import { atMost, type Figure } from './figures.js';

const EVENTS = 300_000;
const PLAYERS = 100_000;
const BATCH = 10_000;
const ANSWER_TARGET = 5;
const PROBE_TARGET_MS = 250;

/**
 * Mostly actions, with chats, ratings, reports, played counts and matches, in one community;
 * one player in fifty of the events is p7, so that p7's explanations are long.
 */
async function fill(db: string): Promise<void> {
  const store = await openStore(db);
  const rng = seededRng(14);
  const p = () => (rng() < 0.02 ? 'p7' : `p${Math.floor(rng() * PLAYERS)}`);
  let made = 0;
  while (made < EVENTS) {
    const events: Record<string, unknown>[] = [];
    while (events.length < BATCH && made < EVENTS) {
      const base = { id: `h${made}`, time: 1_700_000_000_000 + made * 100, community: 'big' };
      made++;
      const r = rng();
      if (r < 0.55) events.push({ ...base, type: 'action', player: p(), delta: Math.round(rng() * 60 - 30) });
      else if (r < 0.7) events.push({ ...base, type: 'chat', from: p(), to: [p()] });
      else if (r < 0.82) {
        const from = Math.floor(rng() * PLAYERS);
        const to = rng() < 0.02 ? 'p7' : `p${(from + 1 + Math.floor(rng() * 50)) % PLAYERS}`;
        events.push({ ...base, type: 'rating', from: `p${from}`, to, value: rng() < 0.8 ? 1 : -1 });
      } else if (r < 0.87) events.push({ ...base, type: 'report', from: p(), to: p() });
      else if (r < 0.9) events.push({ ...base, type: 'played', player: p(), games: 1 + Math.floor(rng() * 3) });
      else if (r < 0.95) {
        const a = Math.floor(rng() * PLAYERS);
        events.push({ ...base, type: 'match.start', match: `m${made}`, players: [`p${a}`, p() === 'p7' ? 'p7' : `p${(a + 1) % PLAYERS}`] });
      } else events.push({ ...base, type: 'match.end', match: `m${made - Math.floor(rng() * 1000)}` });
    }
    // Checked as ingest checks them: a pair of players may not repeat, and so on.
    await store.append(events.flatMap((e, index) => {
      try {
        return [validateEvent(e, { index })];
      } catch {
        return [];
      }
    }));
  }
  await store.close();
}

interface Probe {
  readonly latencies: number[];
  failed: number;
  stop(): Promise<void>;
}

/** Calls `request` every `everyMs` (never two at once) until stopped, keeping each latency. */
function probe(everyMs: number, request: () => Promise<Response>): Probe {
  const latencies: number[] = [];
  let running = true;
  const result: Probe = {
    latencies,
    failed: 0,
    stop: async () => {
      running = false;
      await loop;
    },
  };
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const response = await request();
        await response.arrayBuffer();
        if (!response.ok) result.failed++;
      } catch {
        result.failed++;
      }
      const elapsed = performance.now() - started;
      latencies.push(elapsed);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - elapsed)));
    }
  })();
  return result;
}

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Read {
  readonly what: string;
  readonly status: number;
  readonly seconds: number;
  readonly bytes: number;
}

export async function runHeavyReads(): Promise<{ text: string; figures: Figure[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'standing-bench-reads-'));
  const db = join(dir, 'events.sqlite');
  await fill(db);
  const store = await openStore(db);
  const ingest = (await createKey(store, ['ingest'])).key;
  const read = (await createKey(store, ['read'])).key;
  await store.close();
  const { child, url } = await serve(db);
  const reads: Read[] = [];
  let health: Probe | undefined;
  let small: Probe | undefined;
  try {
    const get = (path: string) => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${read}` } });
    const scorers = ((await (await get('/v1/scorers')).json()) as { scorers: { name: string }[] }).scorers.map((s) => s.name);
    let n = 0;
    health = probe(20, () => fetch(`${url}/healthz`));
    small = probe(50, () =>
      fetch(`${url}/v1/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ingest}`, 'content-type': 'application/json' },
        body: JSON.stringify([{ type: 'action', id: `s${n++}`, time: 1_700_000_000_000, community: 'small', player: 'q', delta: 1 }]),
      }),
    );
    const timed = async (what: string, path: string) => {
      const started = performance.now();
      const response = await get(path);
      const size = (await response.arrayBuffer()).byteLength;
      reads.push({ what, status: response.status, seconds: (performance.now() - started) / 1000, bytes: size });
    };
    for (const scorer of scorers) {
      const name = encodeURIComponent(scorer);
      await timed(`history ${scorer}`, `/v1/players/p7/history?scorer=${name}&community=big`);
      await timed(`history ${scorer}, points=200`, `/v1/players/p7/history?scorer=${name}&community=big&points=200`);
      await timed(`explain ${scorer}`, `/v1/players/p7/explain?scorer=${name}&community=big`);
    }
    await timed(`history ${scorers[0]}, points=200, again (cached)`, `/v1/players/p7/history?scorer=${encodeURIComponent(scorers[0]!)}&community=big&points=200`);
  } finally {
    await health?.stop();
    await small?.stop();
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true }); // about 100 MB
  }
  const slowest = Math.max(...reads.map((r) => r.seconds));
  const bad = reads.filter((r) => r.status !== 200 && r.status !== 404);
  const probes = [
    { key: 'healthz', name: 'GET /healthz', probe: health! },
    { key: 'ingest', name: 'POST /v1/events (1 event, another community)', probe: small! },
  ];
  const text = [
    heading(`Heavy reads: ${count(EVENTS)} events among ${count(PLAYERS)} players in one community (SQLite), each scorer's history (50 and 200 points) and explanation, one after another`),
    table(
      [{ title: 'read' }, { title: 'status', align: 'right' }, { title: 'time', align: 'right' }, { title: 'answer', align: 'right' }],
      reads.map((r) => [r.what, String(r.status), seconds(r.seconds), `${count(r.bytes)} B`]),
    ),
    '',
    'Meanwhile:',
    table(
      [{ title: 'probe' }, { title: 'requests', align: 'right' }, { title: 'failed', align: 'right' }, { title: 'p50', align: 'right' }, { title: 'p99', align: 'right' }, { title: 'worst', align: 'right' }],
      probes.map(({ name, probe: p }) => [name, count(p.latencies.length), count(p.failed), `${percentile(p.latencies, 50).toFixed(1)} ms`, `${percentile(p.latencies, 99).toFixed(1)} ms`, `${Math.max(...p.latencies).toFixed(1)} ms`]),
    ),
  ].join('\n');
  const figures: Figure[] = [
    {
      id: 'service.heavy-reads.slowest',
      part: 6,
      what: `history or explanation over a ${count(EVENTS)}-event community, the slowest`,
      value: slowest,
      unit: 's',
      ...atMost(ANSWER_TARGET, 's', slowest <= ANSWER_TARGET && bad.length === 0),
    },
    ...probes.map(({ key, name, probe: p }): Figure => {
      const p99 = percentile(p.latencies, 99);
      return { id: `service.heavy-reads.${key}-p99`, part: 6, what: `${name} p99 during heavy reads`, value: p99, unit: 'ms', ...atMost(PROBE_TARGET_MS, 'ms', p99 < PROBE_TARGET_MS && p.failed === 0, '<') };
    }),
  ];
  return { text, figures };
}
