/**
 * The PostgreSQL event store (pg). An append is one transaction that locks each touched
 * community's row, so concurrent appends to one community get gapless sequences and cannot
 * race on duplicate ids; the batch is stored whole or not at all.
 */
import pg from 'pg';
import type { StandingEvent } from '../events/types.js';
import { MIGRATIONS } from './migrations.js';
import type { AppendOutcome, EventStore, StoredEvent } from './types.js';

/** BIGINT columns come back as numbers (sequences stay far below 2^53). */
const toNumber = (value: unknown): number => Number(value);

export async function openPostgresStore(connectionString: string): Promise<EventStore> {
  const pool = new pg.Pool({ connectionString, max: 4 });
  const client = await pool.connect();
  try {
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL)');
    // One migrator at a time, whatever the number of processes starting together.
    await client.query('SELECT pg_advisory_lock(7281)');
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((r) => r.version));
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      await client.query('BEGIN');
      try {
        for (const statement of migration.postgres) await client.query(statement);
        await client.query('INSERT INTO schema_migrations (version, description, applied_at) VALUES ($1, $2, now())', [migration.version, migration.description]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    }
    await client.query('SELECT pg_advisory_unlock(7281)');
  } finally {
    client.release();
  }

  let closed = false;

  async function append(events: readonly StandingEvent[]): Promise<AppendOutcome> {
    const conn = await pool.connect();
    try {
      await conn.query('BEGIN');
      const byCommunity = new Map<string, StandingEvent[]>();
      for (const event of events) {
        const list = byCommunity.get(event.community);
        if (list === undefined) byCommunity.set(event.community, [event]);
        else list.push(event);
      }
      const sequences = new Map<StandingEvent, number>();
      let duplicates = 0;
      for (const community of [...byCommunity.keys()].sort()) {
        // sorted: two batches touching the same communities lock them in the same order
        const batch = byCommunity.get(community)!;
        await conn.query('INSERT INTO communities (name, last_sequence) VALUES ($1, 0) ON CONFLICT (name) DO NOTHING', [community]);
        const locked = await conn.query<{ last_sequence: string }>('SELECT last_sequence FROM communities WHERE name = $1 FOR UPDATE', [community]);
        let sequence = toNumber(locked.rows[0]!.last_sequence);
        const ids = batch.flatMap((e) => (e.id === undefined ? [] : [e.id]));
        const existing = new Set(
          ids.length === 0
            ? []
            : (await conn.query<{ event_id: string }>('SELECT event_id FROM events WHERE community = $1 AND event_id = ANY($2)', [community, ids])).rows.map((r) => r.event_id),
        );
        const rows: { sequence: number; event: StandingEvent }[] = [];
        for (const event of batch) {
          if (event.id !== undefined) {
            if (existing.has(event.id)) {
              duplicates++;
              continue;
            }
            existing.add(event.id);
          }
          rows.push({ sequence: ++sequence, event });
          sequences.set(event, sequence);
        }
        if (rows.length > 0) {
          await conn.query(
            `INSERT INTO events (community, sequence, event_id, type, time, body)
             SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::float8[], $6::text[])`,
            [
              community,
              rows.map((r) => r.sequence),
              rows.map((r) => r.event.id ?? null),
              rows.map((r) => r.event.type),
              rows.map((r) => r.event.time),
              rows.map((r) => JSON.stringify(r.event)),
            ],
          );
          await conn.query('UPDATE communities SET last_sequence = $2 WHERE name = $1', [community, sequence]);
        }
      }
      await conn.query('COMMIT');
      const appended: StoredEvent[] = [];
      for (const event of events) {
        const sequence = sequences.get(event);
        if (sequence !== undefined) appended.push({ community: event.community, sequence, event });
      }
      return { appended, duplicates };
    } catch (error) {
      await conn.query('ROLLBACK');
      throw error;
    } finally {
      conn.release();
    }
  }

  return {
    kind: 'postgres',
    append,
    async read(community, after = 0, limit = 1_000_000_000) {
      const { rows } = await pool.query<{ sequence: string; body: string }>(
        'SELECT sequence, body FROM events WHERE community = $1 AND sequence > $2 ORDER BY sequence LIMIT $3',
        [community, after, limit],
      );
      return rows.map((row) => ({ community, sequence: toNumber(row.sequence), event: JSON.parse(row.body) as StandingEvent }));
    },
    async communities() {
      const { rows } = await pool.query<{ name: string }>('SELECT name FROM communities ORDER BY name COLLATE "C"');
      return rows.map((r) => r.name);
    },
    async saveCheckpoint(scorer, community, checkpoint) {
      await pool.query(
        'INSERT INTO checkpoints (scorer, community, sequence, state) VALUES ($1, $2, $3, $4) ON CONFLICT (scorer, community) DO UPDATE SET sequence = excluded.sequence, state = excluded.state',
        [scorer, community, checkpoint.sequence, checkpoint.state],
      );
    },
    async loadCheckpoint(scorer, community) {
      const { rows } = await pool.query<{ sequence: string; state: string }>('SELECT sequence, state FROM checkpoints WHERE scorer = $1 AND community = $2', [scorer, community]);
      const row = rows[0];
      return row === undefined ? undefined : { sequence: toNumber(row.sequence), state: row.state };
    },
    async schemaVersion() {
      const { rows } = await pool.query<{ version: number | null }>('SELECT MAX(version) AS version FROM schema_migrations');
      return rows[0]?.version ?? 0;
    },
    async close() {
      if (closed) return; // closing twice is harmless
      closed = true;
      await pool.end();
    },
  };
}
