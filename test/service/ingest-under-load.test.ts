/**
 * Ingest under concurrent load with reads (issue 15): a real `standing serve` child process, on
 * SQLite and on PostgreSQL, takes batches from several clients at once while other clients read
 * players, rankings, histories and alerts. Its configuration makes every write path run beside
 * ingest: alerts checked after every commit with a threshold many players cross (the main
 * connection writes them while the append thread commits), a checkpoint every few hundred events.
 * Every answer must be 200 or one the service documents as retryable (503 with Retry-After, sent
 * again with the same body); in the end every batch is in, once. The service log (warn level) is
 * kept in the run's folder and its warnings and errors are quoted in any failure, so a failure is
 * diagnosable from the test output alone. The default tier runs a small round per store; the
 * stress tier (STANDING_STRESS=1) three larger ones.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/service/keys.js';
import { openStore } from '../../src/store/open.js';
import { seededRng, type Rng } from '../../src/util/random.js';
import { contractFetch } from '../support/contract.js';
import { dropPostgresSchemas, freshPostgresUrl, postgresAvailable } from '../support/postgres.js';
import { tempDb } from './support.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const STRESS = process.env.STANDING_STRESS === '1';
const REPS = STRESS ? 3 : 1;
const CLIENTS = STRESS ? 8 : 4;
const BATCHES = STRESS ? 60 : 12;
const SIZE = STRESS ? 100 : 50;
const READERS = 2;
/** Attempts at one batch answered with a retryable answer. */
const ATTEMPTS = 10;
const COMMUNITIES = ['default', 'eu'];
const PLAYERS = 40;

/**
 * What a client may be answered besides 200, and may send again after Retry-After. Not 503
 * STORE_BUSY: it answers another connection holding the SQLite file's write lock, and nothing
 * but the service touches the file here (its own writes beside ingest must wait for each other).
 */
const RETRYABLE_INGEST = new Set(['503 TOO_MANY_CONNECTIONS', '429 TOO_MANY_REQUESTS']);
const RETRYABLE_READ = new Set(['503 HISTORY_BUSY', '503 TOO_MANY_CONNECTIONS', '429 TOO_MANY_REQUESTS']);

afterAll(dropPostgresSchemas);

interface Served {
  readonly child: ChildProcess;
  readonly url: string;
  readonly log: string;
}

function serve(db: string, folder: string): Promise<Served> {
  const config = join(folder, 'standing.json');
  writeFileSync(
    config,
    JSON.stringify({
      checkpointEvery: 300,
      checkpointSeconds: 0,
      alerts: { intervalMs: 0, thresholds: [{ name: 'cqr-below-0', scorer: 'cqr', below: 0 }] },
    }),
  );
  const log = join(folder, 'service.log');
  const out = createWriteStream(log);
  const child = spawn(process.execPath, [MAIN, 'serve', '--config', config, '--db', db, '--port', '0', '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk) => {
      text += chunk;
      const match = /standing serves at (http:\/\/\S+)/.exec(text);
      if (match !== null) resolve({ child, url: match[1]!, log });
    });
    child.on('exit', (code) => reject(new Error(`serve exited (${code}) before listening; its log: ${log}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** One batch of SIZE events with ids unique to it, in `community`: actions that push players across 0, ratings, reports, chats. */
function batch(rng: Rng, tag: string, community: string): string {
  const T0 = Date.parse('2026-11-01T00:00:00Z');
  const p = () => `p${Math.floor(rng() * PLAYERS)}`;
  return JSON.stringify(
    Array.from({ length: SIZE }, (_, i) => {
      const base = { id: `${tag}-${i}`, community, time: T0 + Math.floor(rng() * 1e7) };
      const r = rng();
      if (r < 0.6) return { ...base, type: 'action', player: p(), delta: Math.round(rng() * 60 - 30) };
      if (r < 0.75) {
        const from = Math.floor(rng() * PLAYERS);
        return { ...base, type: 'rating', from: `p${from}`, to: `p${(from + 1) % PLAYERS}`, value: rng() < 0.7 ? 1 : -1 };
      }
      if (r < 0.85) return { ...base, type: 'report', from: p(), to: p() };
      return { ...base, type: 'chat', from: p(), to: [p()] };
    }),
  );
}

/** Every answer a round got that was not 200, by kind ("503 STORE_BUSY", "error ECONNRESET", …). */
class Tally {
  readonly ingest = new Map<string, number>();
  readonly read = new Map<string, number>();

  add(what: 'ingest' | 'read', kind: string): void {
    const map = this[what];
    map.set(kind, (map.get(kind) ?? 0) + 1);
  }
}

async function kindOf(response: Response): Promise<string> {
  const text = await response.text();
  try {
    return `${response.status} ${(JSON.parse(text) as { error?: string }).error ?? text.slice(0, 200)}`;
  } catch {
    return `${response.status} ${text.slice(0, 200)}`;
  }
}

/** The request's answer, or the kind of its failure ("error ECONNRESET", a contract violation). */
async function request(url: string, init: RequestInit): Promise<Response | string> {
  try {
    return await contractFetch(url, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return `error ${cause?.code ?? (error as Error).message}`;
  }
}

/** Posts `body` until it is answered 200 (sent again after a retryable answer); its `accepted`, or undefined. */
async function ingestOne(url: string, key: string, body: string, tally: Tally): Promise<number | undefined> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const answer = await request(`${url}/v1/events`, { method: 'POST', body, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
    if (typeof answer === 'string') {
      tally.add('ingest', answer);
      return undefined;
    }
    if (answer.status === 200) return ((await answer.json()) as { accepted: number }).accepted;
    const kind = await kindOf(answer);
    tally.add('ingest', kind);
    if (!RETRYABLE_INGEST.has(kind)) return undefined;
    await sleep(Number(answer.headers.get('retry-after') ?? '1') * 1000);
  }
  return undefined;
}

/** Reads players, rankings, histories and alerts until `done` says stop. */
async function reader(url: string, key: string, rng: Rng, tally: Tally, done: () => boolean): Promise<number> {
  let reads = 0;
  while (!done()) {
    const community = COMMUNITIES[Math.floor(rng() * COMMUNITIES.length)]!;
    const player = `p${Math.floor(rng() * 5)}`; // in every community from the first batches on
    const paths = [
      `/v1/players/${player}?community=${community}`,
      `/v1/rankings/cqr?community=${community}&limit=20`,
      `/v1/players/${player}/history?scorer=cqr&community=${community}&points=20`,
      `/v1/alerts?limit=20`,
    ];
    const answer = await request(`${url}${paths[Math.floor(rng() * paths.length)]!}`, { headers: { authorization: `Bearer ${key}` } });
    reads++;
    if (typeof answer === 'string') tally.add('read', answer);
    else if (answer.status !== 200) tally.add('read', await kindOf(answer));
    else await answer.arrayBuffer();
  }
  return reads;
}

/** The service log's warnings and errors, for a failure message. */
function logExcerpt(log: string): string {
  const lines = readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => /"level":(40|50|60)/.test(line));
  return `service log ${log} (${lines.length} warnings and errors, the first 20 cut to 1,000 characters):\n${lines
    .slice(0, 20)
    .map((line) => line.slice(0, 1000))
    .join('\n')}`;
}

async function round(db: string, folder: string, seed: number): Promise<void> {
  const setup = await openStore(db);
  const keys = { ingest: (await createKey(setup, ['ingest'])).key, read: (await createKey(setup, ['read'])).key };
  await setup.close();
  const served = await serve(db, folder);
  const tally = new Tally();
  const accepted: (number | undefined)[] = [];
  let reads = 0;
  try {
    const rng = seededRng(seed);
    // The players readers ask for exist before the readers start.
    for (const community of COMMUNITIES) {
      const first = JSON.stringify(Array.from({ length: 5 }, (_, i) => ({ id: `first-${i}`, community, time: Date.parse('2026-11-01T00:00:00Z'), type: 'action', player: `p${i}`, delta: 1 })));
      accepted.push(await ingestOne(served.url, keys.ingest, first, tally));
    }
    let finished = false;
    const readers = Array.from({ length: READERS }, (_, r) => reader(served.url, keys.read, seededRng(seed * 100 + r), tally, () => finished));
    const clients = Array.from({ length: CLIENTS }, async (_, c) => {
      for (let b = 0; b < BATCHES; b++) accepted.push(await ingestOne(served.url, keys.ingest, batch(rng, `c${c}-b${b}`, COMMUNITIES[(c + b) % COMMUNITIES.length]!), tally));
    });
    await Promise.all(clients);
    finished = true;
    reads = (await Promise.all(readers)).reduce((a, b) => a + b, 0);
  } finally {
    await stop(served.child);
  }

  const why = () => `ingest answers other than 200: ${JSON.stringify([...tally.ingest])}; reads: ${JSON.stringify([...tally.read])}\n${logExcerpt(served.log)}`;
  expect([...tally.ingest.keys()].filter((kind) => !RETRYABLE_INGEST.has(kind)), why()).toEqual([]);
  expect([...tally.read.keys()].filter((kind) => !RETRYABLE_READ.has(kind)), why()).toEqual([]);
  expect(accepted.filter((a) => a === undefined).length, why()).toBe(0);
  expect(reads).toBeGreaterThan(0);
  // Every batch is in, once: each one's events accepted, and the stored sequences count them all.
  expect(accepted.reduce((a, b) => a! + b!, 0), why()).toBe(COMMUNITIES.length * 5 + CLIENTS * BATCHES * SIZE);
  const store = await openStore(db);
  try {
    const sequences = await store.sequences();
    expect([...sequences.values()].reduce((a, b) => a + b, 0)).toBe(COMMUNITIES.length * 5 + CLIENTS * BATCHES * SIZE);
  } finally {
    await store.close();
  }
  expect(readFileSync(served.log, 'utf8'), why()).not.toMatch(/"level":(50|60)/);
}

describe('ingest under concurrent load with reads (issue 15)', () => {
  for (let rep = 0; rep < REPS; rep++) {
    it(`SQLite, round ${rep + 1}: every answer is 200 or a documented retryable one, every batch stored once`, async () => {
      const db = tempDb();
      await round(db, dirname(db), 15 + rep);
    });

    it.skipIf(!postgresAvailable)(`PostgreSQL, round ${rep + 1}: every answer is 200 or a documented retryable one, every batch stored once`, async () => {
      await round(await freshPostgresUrl(), dirname(tempDb()), 150 + rep);
    });
  }
});
