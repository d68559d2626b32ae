/** What the service benches share: a `standing serve` child process, and a fresh PostgreSQL schema. */
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';

const MAIN = new URL('../../dist/cli/main.js', import.meta.url).pathname;

export const POSTGRES = process.env.STANDING_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** `standing serve` over `db` on a free port (trust observers p1, p2), once it listens. */
export function serve(db: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [MAIN, 'serve', '--db', db, '--port', '0', '--log-level', 'error', '--observers', 'p1,p2'], { stdio: ['ignore', 'pipe', 'inherit'] });
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
