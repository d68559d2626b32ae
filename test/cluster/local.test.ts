/**
 * `standing cluster-local` (what `npm run cluster` runs): it starts, prints gateways and keys
 * that work, and stops everything on SIGINT or SIGHUP, removing its directory and its schema.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { portFree } from '../../src/cluster/local-nats.js';
import { POSTGRES } from '../support/postgres.js';
import { post, until } from './support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** The first of `size` consecutive ports of 127.0.0.1 nobody listens on now (tried from a random place). */
async function freeBlock(size: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = 20_000 + Math.floor(Math.random() * 40_000);
    try {
      for (let port = first; port < first + size; port++) await portFree(port, 'test');
      return first;
    } catch {
      // One is taken: another block.
    }
  }
  throw new Error(`no block of ${size} free ports found`);
}

interface Running {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  readonly exited: Promise<number | null>;
  out(): string;
  err(): string;
}

/** Spawns `command args` leading a process group of its own, as a shell runs a foreground job. */
function run(command: string, args: readonly string[]): Running {
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return { child, exited, out: () => out, err: () => err };
}

/** What it printed once it says it runs (bounded). */
function printed(running: Running): Promise<string> {
  return until('the cluster to print its keys', () => (running.out().includes('Ctrl-C') ? running.out() : running.child.exitCode !== null ? Promise.reject(new Error(running.err())) : undefined), 150_000);
}

/** Its exit code, once it has exited (bounded: a cluster that does not stop fails the test). */
function exitCode(running: Running): Promise<number | null> {
  let code: number | null | 'running' = 'running';
  void running.exited.then((c) => (code = c));
  return until('the cluster to exit', () => (code === 'running' ? undefined : { code }), 90_000).then((c) => c.code);
}

/**
 * Stops it if the test left it running: a SIGINT to its group (cluster-local then stops the processes
 * it started, in groups of their own), and SIGKILL to the group if it has not exited within a bound.
 */
async function cleanUp(running: Running): Promise<void> {
  if (running.child.exitCode !== null || running.child.signalCode !== null) return;
  process.kill(-running.child.pid!, 'SIGINT');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 90_000)));
  if ((await Promise.race([running.exited, late])) === 'late') process.kill(-running.child.pid!, 'SIGKILL');
  clearTimeout(timer);
  await running.exited;
}

/** Log lines at level error or fatal (pino's 50 and 60), and any line naming a failure. */
const errorLines = (text: string) => text.split('\n').filter((line) => /"level":(50|60)/.test(line) || /fail|error/i.test(line));

describe('standing cluster-local (issue 18, point 7)', () => {
  it('starts a cluster, ingests through a printed gateway with the printed key, and stops it all on SIGHUP (its terminal closed)', async () => {
    const running = run(process.execPath, [MAIN, 'cluster-local', '--db', POSTGRES, '--log-level', 'silent']);
    try {
      const text = await printed(running);
      const gateways = [...text.matchAll(/gateway: +(\S+)/g)].map((m) => m[1]!);
      const key = /ingest key: (\S+)/.exec(text)![1]!;
      const schema = /schema (\S+)/.exec(text)![1]!;
      const dir = /directory: +(\S+)/.exec(text)![1]!;
      expect(gateways).toHaveLength(2);
      expect(text).toMatch(/admin key: +stk_/);
      const events = [{ id: 'local-1', community: 'local', time: Date.parse('2026-11-01T00:00:00Z'), type: 'action', player: 'p1', delta: 4 }];
      const answer = await post(gateways[1]!, key, events);
      expect(answer).toMatchObject({ status: 200, body: { accepted: 1, duplicates: 0 } });
      // Answered once a worker stored it in the cluster's schema.
      const client = new pg.Client({ connectionString: POSTGRES });
      await client.connect();
      try {
        expect((await client.query(`SELECT 1 FROM ${schema}.event_ids WHERE event_id = 'local-1'`)).rowCount).toBe(1);
        running.child.kill('SIGHUP');
        expect(await exitCode(running)).toBe(0);
        expect(running.out()).toContain('stopped');
        expect(existsSync(dir)).toBe(false);
        expect((await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).rowCount).toBe(0);
      } finally {
        await client.end();
      }
    } finally {
      await cleanUp(running);
    }
  });
});

describe('issue 25: cluster-local takes its ports and schema, and a Ctrl-C stops it cleanly', () => {
  it('listens where told, serves every partition once it says it runs (an erasure included), and a SIGINT to its process group (a Ctrl-C) stops gateways, workers and NATS in order, with no error, exit 0', async () => {
    const port = await freeBlock(2);
    const natsPort = await freeBlock(6);
    const schema = `standing_local_t${process.pid}`;
    const running = run(process.execPath, [MAIN, 'cluster-local', '--db', POSTGRES, '--port', String(port), '--nats-port', String(natsPort), '--schema', schema, '--log-level', 'warn']);
    try {
      const text = await printed(running);
      expect([...text.matchAll(/gateway: +(\S+)/g)].map((m) => m[1])).toEqual([`http://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`]);
      expect(text).toContain(`  nats:       nats://127.0.0.1:${natsPort},nats://127.0.0.1:${natsPort + 1},nats://127.0.0.1:${natsPort + 2}\n`);
      expect(text).toContain(`  postgres:   schema ${schema}\n`);
      const key = /ingest key: (\S+)/.exec(text)![1]!;
      const admin = /admin key: +(\S+)/.exec(text)![1]!;
      const get = async (url: string) => {
        const response = await fetch(url, { headers: { authorization: `Bearer ${admin}` } });
        return { status: response.status, body: await response.text() };
      };
      // Once it says it runs, every partition answers reads (none is being handed over between workers).
      for (let round = 0; round < 10; round++) {
        for (const gateway of [port, port + 1]) {
          const communities = await get(`http://127.0.0.1:${gateway}/v1/communities`);
          expect(communities.status, communities.body).toBe(200);
        }
      }
      const time = Date.parse('2026-11-01T00:00:00Z');
      const events = [
        { id: 'ports-1', community: 'local', time, type: 'action', player: 'p1', delta: 4 },
        { id: 'ports-2', community: 'local', time: time + 1, type: 'action', player: 'p2', delta: 2 },
      ];
      expect((await post(`http://127.0.0.1:${port}`, key, events)).status).toBe(200);
      const client = new pg.Client({ connectionString: POSTGRES });
      await client.connect();
      try {
        await until('the event to be stored', async () => ((await client.query(`SELECT 1 FROM ${schema}.event_ids WHERE event_id = 'ports-2'`)).rowCount === 1 ? true : undefined));
        // An erasure, and right after its answer the partition's reads answer, without the player.
        const erased = await fetch(`http://127.0.0.1:${port + 1}/v1/players/p1`, { method: 'DELETE', headers: { authorization: `Bearer ${admin}` } });
        expect(await erased.json()).toEqual({ player: 'p1', communities: ['local'], removed: 1, rewritten: 0 });
        const ranking = await get(`http://127.0.0.1:${port}/v1/rankings/cqr?community=local`);
        expect(ranking.status, ranking.body).toBe(200);
        expect(ranking.body).toContain('"p2"');
        expect(ranking.body).not.toContain('"p1"');
        expect((await get(`http://127.0.0.1:${port}/v1/players/p1?community=local`)).status).toBe(404);
        const before = { out: running.out().length, err: running.err().length };
        // A Ctrl-C at a terminal: SIGINT to every process of the foreground group.
        process.kill(-running.child.pid!, 'SIGINT');
        expect(await exitCode(running)).toBe(0);
        expect(running.out().slice(before.out)).toBe('stopping: gateways, then workers, then NATS servers…\nstopped\n');
        expect(errorLines(running.err().slice(before.err))).toEqual([]);
        expect((await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).rowCount).toBe(0);
      } finally {
        await client.end();
      }
      // Nothing listens any more where it did.
      for (const p of [port, port + 1, ...Array.from({ length: 6 }, (_, i) => natsPort + i)]) await portFree(p, 'after the stop');
    } finally {
      await cleanUp(running);
    }
  });

  it('npm run cluster passes the options on, and a SIGINT to the npm process alone stops the cluster', async () => {
    const port = await freeBlock(2);
    const running = run('npm', ['run', '--silent', 'cluster', '--', '--db', POSTGRES, '--port', String(port), '--gateways', '1', '--workers', '1', '--log-level', 'warn']);
    try {
      const text = await printed(running);
      expect([...text.matchAll(/gateway: +(\S+)/g)].map((m) => m[1])).toEqual([`http://127.0.0.1:${port}`]);
      const before = running.err().length;
      running.child.kill('SIGINT');
      expect(await exitCode(running)).toBe(0);
      expect(running.out()).toMatch(/stopping: gateways, then workers, then NATS servers…\nstopped\n$/);
      expect(errorLines(running.err().slice(before))).toEqual([]);
      await portFree(port, 'after the stop');
    } finally {
      await cleanUp(running);
    }
    // npm compiles first (tsc), on a machine the tier's other processes share.
  }, 300_000);
});
