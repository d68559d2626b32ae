/**
 * Holds on a PostgreSQL store (StoreLifecycle.hold), as a session-level advisory lock on a connection
 * of its own, kept for as long as the hold: shared for `serve` and `worker`, exclusive for `erase`.
 * The lock is keyed by HOLD_LOCK and the store's schema, so stores in other schemas of one database
 * do not hold each other, and it ends with its session: a process that dies leaves no hold behind.
 * The session is named by its application_name (`standing serve (pid 4242 on db1)`), which is how
 * a refused hold names who holds the store. Nothing waits: a hold that cannot be had at once is
 * refused (StoreHeldError).
 */
import { hostname } from 'node:os';
import pg from 'pg';
import { StoreHeldError } from '../errors.js';
import { fnv1a32 } from '../util/fnv1a.js';
import type { HoldRole, StoreHold } from './types.js';

/** The first key of every hold's advisory lock (the second is the schema's): apart from the migration lock (7281) and the erasure lock (7282). */
export const HOLD_LOCK = 7283;

/** The second key of the hold's advisory lock: a non-negative 32-bit hash of the schema (shown as pg_locks.objid unchanged). */
export const schemaKey = (schema: string): number => fnv1a32(schema) & 0x7fffffff;

/** The application names of the sessions holding the lock `key` (those this role may see). */
async function holders(client: pg.Client, key: number): Promise<string[]> {
  const { rows } = await client.query<{ name: string | null }>(
    `SELECT a.application_name AS name FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.classid = $1 AND l.objid = $2
        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND l.pid <> pg_backend_pid()
      ORDER BY a.backend_start`,
    [HOLD_LOCK, key],
  );
  return rows.map((r) => (r.name === null || r.name === '' ? 'a session that does not name itself' : r.name));
}

export async function holdPostgres(connectionString: string, role: HoldRole): Promise<StoreHold> {
  const client = new pg.Client({ connectionString });
  // A lost connection ends the hold with it; the error must not end the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query("SELECT set_config('application_name', $1, false)", [`standing ${role} (pid ${process.pid} on ${hostname()})`.slice(0, 63)]);
    const { rows } = await client.query<{ schema: string | null }>('SELECT current_schema() AS schema');
    const key = schemaKey(rows[0]?.schema ?? '');
    const take = role === 'erase' ? 'pg_try_advisory_lock' : 'pg_try_advisory_lock_shared';
    const taken = await client.query<{ held: boolean }>(`SELECT ${take}($1, $2) AS held`, [HOLD_LOCK, key]);
    if (taken.rows[0]?.held !== true) {
      const names = await holders(client, key);
      const byErasure = role !== 'erase' || (names.length > 0 && names.every((name) => name.startsWith('standing erase')));
      throw new StoreHeldError(role, names.length === 0 ? 'another standing process' : names.join(', '), byErasure);
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      await client.end(); // ends the session, and its lock with it
    },
  };
}
