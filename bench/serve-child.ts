/** What the service benches share: a `standing serve` child process, and a fresh PostgreSQL schema. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import pg from 'pg';

const MAIN = new URL('../../dist/cli/main.js', import.meta.url).pathname;

export const POSTGRES = process.env.STANDING_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * `standing serve` over `db` on a free port (trust observers p1, p2, unless `observers` is null:
 * then the default configuration's scorers alone), once it listens. With `log`, the service logs
 * at warn level (failed requests with their error and stack, busy stores) and its output is kept
 * in that file; without, it logs errors only, to nowhere.
 */
export function serve(db: string, log?: string, observers: string | null = 'p1,p2'): Promise<{ child: ChildProcess; url: string }> {
  const level = log === undefined ? 'error' : 'warn';
  const trust = observers === null ? [] : ['--observers', observers];
  const child = spawn(process.execPath, [MAIN, 'serve', '--db', db, '--port', '0', '--log-level', level, ...trust], { stdio: ['ignore', 'pipe', 'inherit'] });
  if (log !== undefined) child.stdout!.pipe(createWriteStream(log));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /standing serves at (http:\/\/\S+)/.exec(out);
      if (match !== null) resolve({ child, url: match[1]! });
    });
    child.on('exit', (code) => reject(new Error(`serve exited (${code})`)));
  });
}

/** Drops the schema `schema` (what postgresUrl made), if a server answers. */
export async function dropSchema(schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return;
  }
  try {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await admin.end();
  }
}

/** A URL whose connections use the schema `schema`, emptied; undefined when no server answers. */
export async function postgresUrl(schema: string): Promise<string | undefined> {
  const admin = new pg.Client({ connectionString: POSTGRES, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return undefined;
  }
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  return `${POSTGRES}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}
