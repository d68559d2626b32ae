/**
 * PostgreSQL for tests: the server on 127.0.0.1:5432, database `test` (or STANDING_POSTGRES_URL),
 * one fresh schema per store. Without a reachable server the callers skip, unless
 * STANDING_REQUIRE_POSTGRES=1 (set by .ci/run) makes that an error.
 */
import pg from 'pg';
import { MIGRATIONS } from '../../src/store/migrations.js';

export const POSTGRES = process.env.STANDING_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REQUIRE = process.env.STANDING_REQUIRE_POSTGRES === '1';

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

export const postgresAvailable = await reachable();
if (!postgresAvailable && REQUIRE) throw new Error(`PostgreSQL is required (STANDING_REQUIRE_POSTGRES=1) but ${POSTGRES} is not reachable`);

const schemas: string[] = [];

/** A URL whose connections use a new, empty schema. */
export async function freshPostgresUrl(): Promise<string> {
  const schema = `standing_test_${process.pid}_${schemas.length}_${Date.now()}`;
  schemas.push(schema);
  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  return `${POSTGRES}${POSTGRES.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

/** Drops the schemas this process made (call from afterAll). */
export async function dropPostgresSchemas(): Promise<void> {
  if (!postgresAvailable || schemas.length === 0) return;
  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  for (const schema of schemas.splice(0)) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
}

/**
 * A new schema holding a PostgreSQL store as an earlier version left it: migrations 1 to
 * `version` applied and recorded, then `fill` run on a connection to it (the rows that version
 * wrote). Its URL, for openPostgresStore to upgrade.
 */
export async function postgresStoreAtVersion(version: number, fill: (client: pg.Client) => Promise<void>): Promise<string> {
  const url = await freshPostgresUrl();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL)');
    for (const migration of MIGRATIONS.filter((m) => m.version <= version)) {
      for (const statement of migration.postgres) await client.query(statement);
      await client.query('INSERT INTO schema_migrations VALUES ($1, $2, now())', [migration.version, migration.description]);
    }
    await fill(client);
  } finally {
    await client.end();
  }
  return url;
}
