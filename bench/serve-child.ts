/** What the service benches share: a `standing serve` child process, and a fresh PostgreSQL schema. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import pg from 'pg';

const MAIN = new URL('../../dist/cli/main.js', import.meta.url).pathname;
const FASTIFY_ALONE = new URL('./fastify-alone-child.js', import.meta.url).pathname;

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
  return listening(child, /standing serves at (http:\/\/\S+)/);
}

/** Part 6's baseline: fastify alone answering `POST /v1/events` without storing (./fastify-alone-child.ts), once it listens. */
export function serveFastifyAlone(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [FASTIFY_ALONE], { stdio: ['ignore', 'pipe', 'inherit'] });
  return listening(child, /fastify alone serves at (http:\/\/\S+)/);
}

/** `child` and the URL its output names (the first group of `pattern`), once it prints it. */
function listening(child: ChildProcess, pattern: RegExp): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = pattern.exec(out);
      if (match !== null) resolve({ child, url: match[1]! });
    });
    child.on('exit', (code) => reject(new Error(`${child.spawnargs.slice(1).join(' ')} exited (${code})`)));
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
