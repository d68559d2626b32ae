/**
 * Nothing acknowledged is ever lost: a real `standing serve` child process over a SQLite file is
 * killed with SIGKILL in the middle of concurrent ingestion, restarted, and checked to hold every
 * acknowledged event and to serve exactly the scores a full replay of its log gives. The default
 * tier runs it once; the stress tier (STANDING_STRESS=1) repeats it 20 times with other seeds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { BUILTIN_DOMAINS } from '../../src/quality/index.js';
import { QualityStage } from '../../src/quality/stage.js';
import { loadConfig } from '../../src/service/load-config.js';
import { createKey } from '../../src/service/keys.js';
import { configuredInstances } from '../../src/service/config.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import { seededRng, type Rng } from '../../src/util/random.js';
import { tempDb } from './support.js';
import { contractFetch } from '../support/contract.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const REPS = process.env.STANDING_STRESS === '1' ? 20 : 1;
const OBSERVERS = 'p0,p1';

function serve(db: string): Promise<{ child: ChildProcess; url: string }> {
  // Checkpoints every 200 events, so a restart restores checkpoints and replays a tail.
  const config = join(dirname(db), 'standing.json');
  writeFileSync(config, JSON.stringify({ checkpointEvery: 200, checkpointSeconds: 0 }));
  const args = [MAIN, 'serve', '--config', config, '--db', db, '--port', '0', '--log-level', 'warn', '--observers', OBSERVERS];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /standing serves at (http:\/\/\S+)/.exec(out);
      if (match !== null) resolve({ child, url: match[1]! });
    });
    child.stderr!.on('data', (chunk) => (err += chunk));
    child.on('exit', (code) => reject(new Error(`serve exited (${code}) before listening: ${err}`)));
  });
}

/** A batch of valid events with unique ids: actions (plain and forum), matches, ratings, reports, chats. */
function batch(rng: Rng, tag: string, size: number): Record<string, unknown>[] {
  const p = () => `p${Math.floor(rng() * 12)}`;
  return Array.from({ length: size }, (_, i) => {
    const id = `${tag}-${i}`;
    const time = Date.parse('2026-11-01T00:00:00Z') + Math.floor(rng() * 1e6);
    const r = rng();
    if (r < 0.3) return { id, time, type: 'action', player: p(), delta: Math.round(rng() * 80 - 40) };
    if (r < 0.4) return { id, time, type: 'action', player: p(), domain: 'forum', op: 'post', post: id, text: rng() < 0.5 ? 'hello' : 'HEY idiot' };
    if (r < 0.5) return { id, time, type: 'match.start', match: `m${Math.floor(rng() * 20)}`, players: [p(), `q${Math.floor(rng() * 5)}`] };
    if (r < 0.55) return { id, time, type: 'disconnect', player: p() };
    if (r < 0.6) return { id, time, type: 'match.end', match: `m${Math.floor(rng() * 20)}` };
    if (r < 0.75) {
      const from = p();
      const to = from === 'p11' ? 'p0' : `p${Number(from.slice(1)) + 1}`;
      return { id, time, type: 'rating', from, to, value: rng() < 0.7 ? 1 : -0.5 };
    }
    if (r < 0.85) return { id, time, type: 'report', from: p(), to: p() };
    return { id, time, type: 'chat', from: p(), to: [p()] };
  });
}

/** The rankings of every configured instance after replaying the whole stored log from nothing. */
async function replayRankings(db: string): Promise<Record<string, unknown>> {
  const config = loadConfig({ db, observers: OBSERVERS }, {});
  const engine = new Engine(configuredInstances(config), { quality: new QualityStage({ domains: BUILTIN_DOMAINS, options: config.quality }) });
  const store = openSqliteStore(db);
  try {
    for (const { event } of await store.read('default')) {
      const resolved = engine.resolve(event);
      if (resolved !== null) engine.evolve(resolved);
    }
  } finally {
    await store.close();
  }
  return Object.fromEntries(engine.instances.map((i) => [i.name, i.scorer.rank(i.state, { community: 'default' })]));
}

async function killAndRestart(seed: number): Promise<void> {
  const rng = seededRng(seed);
  const db = tempDb();
  const keyStore = openSqliteStore(db);
  const ingest = (await createKey(keyStore, ['ingest'])).key;
  const read = (await createKey(keyStore, ['read'])).key;
  await keyStore.close();

  const first = await serve(db);
  const acknowledged: string[] = [];
  /** Statuses other than 200 that the live server gave: there must be none. */
  const refused: number[] = [];
  let killed = false;
  const post = (url: string, events: unknown[]) =>
    fetch(`${url}/v1/events`, { method: 'POST', body: JSON.stringify(events), headers: { authorization: `Bearer ${ingest}`, 'content-type': 'application/json' } });
  const writer = async (w: number) => {
    for (let b = 0; !killed; b++) {
      const events = batch(rng, `s${seed}-w${w}-b${b}`, 20 + Math.floor(rng() * 60));
      let response: Response;
      try {
        response = await post(first.url, events);
      } catch {
        return; // the connection died with the server: not acknowledged
      }
      if (response.status === 200) acknowledged.push(...events.map((e) => e.id as string));
      else refused.push(response.status);
    }
  };
  const writers = [0, 1, 2, 3].map(writer);
  await new Promise((resolve) => setTimeout(resolve, 150 + Math.floor(rng() * 600)));
  const exited = new Promise((resolve) => first.child.on('exit', resolve));
  first.child.kill('SIGKILL');
  killed = true;
  await exited;
  await Promise.all(writers);
  expect(refused).toEqual([]);
  expect(acknowledged.length).toBeGreaterThan(100);

  const second = await serve(db);
  try {
    const store = openSqliteStore(db);
    const stored = new Set((await store.read('default')).map((s) => s.event.id));
    await store.close();
    const lost = acknowledged.filter((id) => !stored.has(id));
    expect(lost).toEqual([]);
    const expected = await replayRankings(db);
    for (const [name, rows] of Object.entries(expected)) {
      const response = await contractFetch(`${second.url}/v1/rankings/${encodeURIComponent(name)}?limit=1000`, { headers: { authorization: `Bearer ${read}` } });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { rows: unknown }).rows, name).toEqual(rows);
    }
    // And it goes on accepting events after the crash.
    const after = await contractFetch(`${second.url}/v1/events`, { method: 'POST', body: JSON.stringify(batch(rng, `s${seed}-after`, 10)), headers: { authorization: `Bearer ${ingest}`, 'content-type': 'application/json' } });
    expect(after.status).toBe(200);
  } finally {
    const exited2 = new Promise((resolve) => second.child.on('exit', resolve));
    second.child.kill('SIGTERM');
    await exited2;
  }
}

describe('SIGKILL during ingestion', () => {
  for (let rep = 0; rep < REPS; rep++) {
    it(`keeps every acknowledged event and the exact scores (seed ${rep + 1})`, () => killAndRestart(rep + 1), 120_000);
  }
});
