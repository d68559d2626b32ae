/**
 * `standing cluster-local` (what `npm run cluster` runs): it starts, prints gateways and keys
 * that work, and stops everything on SIGINT, removing its directory and its schema.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { POSTGRES } from '../support/postgres.js';
import { post, until } from './support.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

describe('standing cluster-local (issue 18, point 7)', () => {
  it('starts a cluster, ingests through a printed gateway with the printed key, and stops it all on SIGINT', async () => {
    const child = spawn(process.execPath, [MAIN, 'cluster-local', '--db', POSTGRES, '--log-level', 'silent'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    try {
      const printed = await until('the cluster to print its keys', () => (out.includes('Ctrl-C') ? out : child.exitCode !== null ? Promise.reject(new Error(err)) : undefined), 120_000);
      const gateways = [...printed.matchAll(/gateway: +(\S+)/g)].map((m) => m[1]!);
      const key = /ingest key: (\S+)/.exec(printed)![1]!;
      const schema = /schema (\S+)/.exec(printed)![1]!;
      const dir = /directory: +(\S+)/.exec(printed)![1]!;
      expect(gateways).toHaveLength(2);
      expect(printed).toMatch(/admin key: +stk_/);
      const events = [{ id: 'local-1', community: 'local', time: Date.parse('2026-11-01T00:00:00Z'), type: 'action', player: 'p1', delta: 4 }];
      const answer = await post(gateways[1]!, key, events);
      expect(answer).toMatchObject({ status: 200, body: { accepted: 1, duplicates: 0 } });
      // A worker applies it to the cluster's schema.
      const client = new pg.Client({ connectionString: POSTGRES });
      await client.connect();
      try {
        await until('the event to be stored', async () => ((await client.query(`SELECT 1 FROM ${schema}.event_ids WHERE event_id = 'local-1'`)).rowCount === 1 ? true : undefined));
        child.kill('SIGINT');
        expect(await exited).toBe(0);
        expect(out).toContain('stopped');
        expect(existsSync(dir)).toBe(false);
        expect((await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).rowCount).toBe(0);
      } finally {
        await client.end();
      }
    } finally {
      if (child.exitCode === null) {
        child.kill('SIGINT');
        await exited;
      }
    }
  });
});
