/**
 * The conformance suite against a real SQLite file and a real PostgreSQL server (127.0.0.1:5432,
 * database `test`, each run in its own schema). Without a reachable PostgreSQL the PostgreSQL
 * tests are skipped, unless STANDING_REQUIRE_POSTGRES=1 (set by .ci/run) makes them fail.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll } from 'vitest';
import { openPostgresStore } from '../../../src/store/postgres.js';
import { openSqliteStore } from '../../../src/store/sqlite.js';
import { storeConformance } from './conformance.js';

const POSTGRES = process.env.STANDING_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REQUIRE = process.env.STANDING_REQUIRE_POSTGRES === '1';

storeConformance('SQLite file', {
  async fresh() {
    const path = join(mkdtempSync(join(tmpdir(), 'standing-store-')), 'events.sqlite');
    return async () => openSqliteStore(path);
  },
});

async function reachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

const available = await reachable();
if (!available && REQUIRE) throw new Error(`PostgreSQL is required (STANDING_REQUIRE_POSTGRES=1) but ${POSTGRES} is not reachable`);

const schemas: string[] = [];
storeConformance('PostgreSQL', {
  skip: !available,
  async fresh() {
    const schema = `standing_test_${process.pid}_${schemas.length}_${Date.now()}`;
    schemas.push(schema);
    const admin = new pg.Client({ connectionString: POSTGRES });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const url = `${POSTGRES}${POSTGRES.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    return async () => openPostgresStore(url);
  },
});

afterAll(async () => {
  if (!available || schemas.length === 0) return;
  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
});
