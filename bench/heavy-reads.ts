/**
 * Heavy reads: a `standing serve` child (all five scorers live) over one community of 300,000
 * events in a SQLite file, for each shape of ./heavy-read-shapes.ts in turn (100,000 players;
 * 5,000 players over ten days). One after the other, each scorer's history at the default 50
 * points and at 200 (the most a request may ask) and its explanation of the busy player, by their
 * defaults; meanwhile a probe asks /healthz every 20 ms and another posts a one-event batch to
 * another community every 50 ms. Reported per shape: each answer's time, the CPU the service
 * spent on it (all its threads, from /proc) and its size; per scorer its slowest history and its
 * explanation against the target (within 5 s); and the probes' p99 and worst latency (under
 * 250 ms at p99). A history asked for again comes from the cache.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKey } from '../src/service/keys.js';
import { openStore } from '../src/store/open.js';
import { count, heading, seconds, table } from './format.js';
import { atMost, type Figure } from './figures.js';
import { FEW_PLAYERS_SHAPE, fillShape, MANY_PLAYERS_SHAPE, type ReadShape } from './heavy-read-shapes.js';
import { percentile, probe, type Probe } from './probe.js';
import { cpuSeconds } from './process-cpu.js';
import { serve } from './serve-child.js';

const ANSWER_TARGET = 5;
const PROBE_TARGET_MS = 250;

interface Read {
  readonly scorer: string;
  readonly kind: 'history' | 'explain';
  readonly what: string;
  readonly status: number;
  readonly seconds: number;
  /** CPU seconds of the service's process (every thread) while it answered; undefined off Linux. */
  readonly cpu: number | undefined;
  readonly bytes: number;
}

function cpuText(value: number | undefined): string {
  return value === undefined ? '—' : seconds(value);
}

/** The heavy reads of one shape: its text and figures (ids `service.heavy-reads.*`, the 100,000-player shape's without its key as they always were). */
async function readShape(shape: ReadShape, seed: number, keyed: boolean): Promise<{ text: string; figures: Figure[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'standing-bench-reads-'));
  const db = join(dir, 'events.sqlite');
  await fillShape(db, shape, seed);
  const store = await openStore(db);
  const ingest = (await createKey(store, ['ingest'])).key;
  const read = (await createKey(store, ['read'])).key;
  await store.close();
  const { child, url } = await serve(db);
  const reads: Read[] = [];
  let health: Probe | undefined;
  let small: Probe | undefined;
  const community = encodeURIComponent(shape.community);
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
    const timed = async (scorer: string, kind: Read['kind'], what: string, path: string) => {
      const cpuBefore = cpuSeconds(child.pid);
      const started = performance.now();
      const response = await get(path);
      const size = (await response.arrayBuffer()).byteLength;
      const elapsed = (performance.now() - started) / 1000;
      const cpuAfter = cpuSeconds(child.pid);
      const cpu = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
      reads.push({ scorer, kind, what, status: response.status, seconds: elapsed, cpu, bytes: size });
    };
    for (const scorer of scorers) {
      const name = encodeURIComponent(scorer);
      await timed(scorer, 'history', `history ${scorer}`, `/v1/players/p7/history?scorer=${name}&community=${community}`);
      await timed(scorer, 'history', `history ${scorer}, points=200`, `/v1/players/p7/history?scorer=${name}&community=${community}&points=200`);
      await timed(scorer, 'explain', `explain ${scorer}`, `/v1/players/p7/explain?scorer=${name}&community=${community}`);
    }
    const first = scorers[0]!;
    await timed(first, 'history', `history ${first}, points=200, again (cached)`, `/v1/players/p7/history?scorer=${encodeURIComponent(first)}&community=${community}&points=200`);
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
  const byScorer = [...new Set(reads.map((r) => r.scorer))].map((scorer) => {
    const slowestOf = (kind: Read['kind']) =>
      reads.filter((r) => r.scorer === scorer && r.kind === kind).reduce<Read | undefined>((a, r) => (a === undefined || r.seconds > a.seconds ? r : a), undefined)!;
    return { scorer, history: slowestOf('history'), explain: slowestOf('explain') };
  });
  const met = (r: Read) => (r.seconds <= ANSWER_TARGET && (r.status === 200 || r.status === 404) ? 'yes' : 'NO');
  const text = [
    heading(`Heavy reads: ${count(shape.events)} events among ${count(shape.players)} players in one community (SQLite), each scorer's history (50 and 200 points) and explanation, one after another`),
    `Events: ${shape.description}; the busy player p7 is in about one event in fifty.`,
    table(
      [{ title: 'read' }, { title: 'status', align: 'right' }, { title: 'time', align: 'right' }, { title: 'service CPU', align: 'right' }, { title: 'answer', align: 'right' }],
      reads.map((r) => [r.what, String(r.status), seconds(r.seconds), cpuText(r.cpu), `${count(r.bytes)} B`]),
    ),
    '',
    `Per scorer, against the target (≤ ${ANSWER_TARGET} s):`,
    table(
      [
        { title: 'scorer' },
        { title: 'slowest history', align: 'right' },
        { title: 'its CPU', align: 'right' },
        { title: 'met', align: 'right' },
        { title: 'explanation', align: 'right' },
        { title: 'its CPU', align: 'right' },
        { title: 'met', align: 'right' },
      ],
      byScorer.map(({ scorer, history, explain }) => [scorer, seconds(history.seconds), cpuText(history.cpu), met(history), seconds(explain.seconds), cpuText(explain.cpu), met(explain)]),
    ),
    '',
    'Meanwhile:',
    table(
      [{ title: 'probe' }, { title: 'requests', align: 'right' }, { title: 'failed', align: 'right' }, { title: 'p50', align: 'right' }, { title: 'p99', align: 'right' }, { title: 'worst', align: 'right' }],
      probes.map(({ name, probe: p }) => [name, count(p.latencies.length), count(p.failed), `${percentile(p.latencies, 50).toFixed(1)} ms`, `${percentile(p.latencies, 99).toFixed(1)} ms`, `${Math.max(...p.latencies).toFixed(1)} ms`]),
    ),
  ].join('\n');
  const prefix = keyed ? `service.heavy-reads.${shape.key}` : 'service.heavy-reads';
  const among = `among ${count(shape.players)} players`;
  const figures: Figure[] = [
    {
      id: `${prefix}.slowest`,
      part: 6,
      what: `history or explanation over a ${count(shape.events)}-event community ${among}, the slowest`,
      value: slowest,
      unit: 's',
      ...atMost(ANSWER_TARGET, 's', slowest <= ANSWER_TARGET && bad.length === 0),
    },
    ...probes.map(({ key, name, probe: p }): Figure => {
      const p99 = percentile(p.latencies, 99);
      return { id: `${prefix}.${key}-p99`, part: 6, what: `${name} p99 during heavy reads ${among}`, value: p99, unit: 'ms', ...atMost(PROBE_TARGET_MS, 'ms', p99 < PROBE_TARGET_MS && p.failed === 0, '<') };
    }),
  ];
  return { text, figures };
}

/** The heavy reads of every shape, one after another. */
export async function runHeavyReads(): Promise<{ text: string; figures: Figure[] }> {
  const many = await readShape(MANY_PLAYERS_SHAPE, 14, false);
  const few = await readShape(FEW_PLAYERS_SHAPE, 27, true);
  return { text: [many.text, few.text].join('\n'), figures: [...many.figures, ...few.figures] };
}
