/**
 * The PostgreSQL event store (pg). An append is one transaction that locks each touched
 * community's row, so concurrent appends to one community get gapless sequences and cannot
 * race on duplicate ids; the batch is stored whole or not at all.
 */
import pg from 'pg';
import type { StandingEvent } from '../events/types.js';
import { MIGRATIONS } from './migrations.js';
import { ALERT_COLUMNS, alertFromRow, alertQuerySql, checkpointSets, erasureOutcome, KEY_INSERT, planErasure, withVerdictsOnRemovedReports, keyFromRow, keyValues, OPEN_ALERTS_SQL, pruneAlertsSql, type AlertRow, type CheckpointRow, type KeyRow } from './rows.js';
import type { AppendOutcome, CheckpointSet, ErasureOutcome, EventRewrite, EventStore, StoredEvent } from './types.js';

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

  async function transaction<T>(body: (conn: pg.PoolClient) => Promise<T>): Promise<T> {
    const conn = await pool.connect();
    try {
      await conn.query('BEGIN');
      const result = await body(conn);
      await conn.query('COMMIT');
      return result;
    } catch (error) {
      await conn.query('ROLLBACK');
      throw error;
    } finally {
      conn.release();
    }
  }

  async function eraseIn(conn: pg.PoolClient, player: string, rewrite: EventRewrite): Promise<ErasureOutcome> {
    const { rows } = await conn.query<{ community: string; sequence: string; body: string }>(
      'SELECT community, sequence, body FROM events WHERE strpos(body, $1) > 0 FOR UPDATE',
      [JSON.stringify(player)],
    );
    const plan = planErasure(rows, rewrite);
    const verdictRows: { community: string; sequence: string; body: string }[] = [];
    for (const [community, ids] of plan.removedReports) {
      const verdicts = await conn.query<{ community: string; sequence: string; body: string }>(
        "SELECT community, sequence, body FROM events WHERE community = $1 AND type = 'verdict' AND (body::jsonb ->> 'report') = ANY($2) FOR UPDATE",
        [community, ids],
      );
      verdictRows.push(...verdicts.rows);
    }
    const changes = withVerdictsOnRemovedReports(plan, verdictRows);
    const outcome = erasureOutcome(changes);
    for (const { community, sequence, event } of changes) {
      if (event === null) await conn.query('DELETE FROM events WHERE community = $1 AND sequence = $2', [community, sequence]);
      else await conn.query('UPDATE events SET body = $1, type = $2, time = $3 WHERE community = $4 AND sequence = $5', [JSON.stringify(event), event.type, event.time, community, sequence]);
    }
    if (outcome.communities.length > 0) await conn.query('DELETE FROM checkpoints WHERE community = ANY($1)', [outcome.communities]);
    await conn.query('DELETE FROM alerts WHERE player = $1', [player]);
    return outcome;
  }

  /** Every set replaced in one transaction: one DELETE and one INSERT for all of them. */
  function replaceCheckpoints(checkpoints: ReadonlyMap<string, CheckpointSet>): Promise<void> {
    const names: string[] = [];
    const communities: string[] = [];
    const sequences: number[] = [];
    const states: string[] = [];
    for (const [community, checkpoint] of checkpoints) {
      for (const [name, state] of Object.entries(checkpoint.states)) {
        names.push(name);
        communities.push(community);
        sequences.push(checkpoint.sequence);
        states.push(state);
      }
    }
    return transaction(async (conn) => {
      await conn.query('DELETE FROM checkpoints WHERE community = ANY($1)', [[...checkpoints.keys()]]);
      await conn.query('INSERT INTO checkpoints (scorer, community, sequence, state) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[])', [
        names,
        communities,
        sequences,
        states,
      ]);
    });
  }

  function append(events: readonly StandingEvent[]): Promise<AppendOutcome> {
    return transaction(async (conn) => {
      const byCommunity = new Map<string, StandingEvent[]>();
      const indices = new Map<string, number[]>();
      events.forEach((event, index) => {
        const list = byCommunity.get(event.community);
        if (list === undefined) {
          byCommunity.set(event.community, [event]);
          indices.set(event.community, [index]);
        } else {
          list.push(event);
          indices.get(event.community)!.push(index);
        }
      });
      /** Sequence given to the event at each input index (the same object may come twice). */
      const sequences: (number | undefined)[] = new Array(events.length);
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
        const at = indices.get(community)!;
        for (const [j, event] of batch.entries()) {
          if (event.id !== undefined) {
            if (existing.has(event.id)) {
              duplicates++;
              continue;
            }
            existing.add(event.id);
          }
          rows.push({ sequence: ++sequence, event });
          sequences[at[j]!] = sequence;
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
      const appended: StoredEvent[] = [];
      events.forEach((event, index) => {
        const sequence = sequences[index];
        if (sequence !== undefined) appended.push({ community: event.community, sequence, event });
      });
      return { appended, duplicates };
    });
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
    async knownIds(community, ids) {
      if (ids.length === 0) return new Set();
      const { rows } = await pool.query<{ event_id: string }>('SELECT event_id FROM events WHERE community = $1 AND event_id = ANY($2)', [community, [...ids]]);
      return new Set(rows.map((r) => r.event_id));
    },
    async sequences() {
      const { rows } = await pool.query<{ name: string; last_sequence: string }>('SELECT name, last_sequence FROM communities');
      return new Map(rows.map((r) => [r.name, toNumber(r.last_sequence)]));
    },
    async communities() {
      const { rows } = await pool.query<{ name: string }>('SELECT name FROM communities ORDER BY name COLLATE "C"');
      return rows.map((r) => r.name);
    },
    async saveCheckpoints(community, checkpoint) {
      await replaceCheckpoints(new Map([[community, checkpoint]]));
    },
    async saveCheckpointSets(checkpoints) {
      if (checkpoints.size > 0) await replaceCheckpoints(checkpoints);
    },
    async loadCheckpoints(community) {
      const { rows } = await pool.query<{ scorer: string; sequence: string; state: string }>('SELECT scorer, sequence, state FROM checkpoints WHERE community = $1', [community]);
      if (rows.length === 0) return undefined;
      return { sequence: toNumber(rows[0]!.sequence), states: Object.fromEntries(rows.map((r) => [r.scorer, r.state])) };
    },
    async loadCheckpointSets(communities) {
      if (communities.length === 0) return new Map();
      const { rows } = await pool.query<CheckpointRow>('SELECT community, scorer, sequence, state FROM checkpoints WHERE community = ANY($1)', [[...communities]]);
      return checkpointSets(rows);
    },
    async readTails(tails) {
      if (tails.size === 0) return [];
      const { rows } = await pool.query<{ community: string; sequence: string; body: string }>(
        `SELECT e.community, e.sequence, e.body FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS t(community, after, n)
         JOIN events e ON e.community = t.community AND e.sequence > t.after ORDER BY t.n, e.sequence`,
        [[...tails.keys()], [...tails.values()]],
      );
      return rows.map((row) => ({ community: row.community, sequence: toNumber(row.sequence), event: JSON.parse(row.body) as StandingEvent }));
    },
    async lastEvents() {
      const { rows } = await pool.query<{ community: string; sequence: string; time: number }>(
        'SELECT c.name AS community, e.sequence, e.time FROM communities c CROSS JOIN LATERAL (SELECT sequence, time FROM events WHERE community = c.name ORDER BY sequence DESC LIMIT 1) e',
      );
      return new Map(rows.map((r) => [r.community, { sequence: toNumber(r.sequence), time: r.time }]));
    },
    async erase(player, rewrite) {
      return transaction((conn) => eraseIn(conn, player, rewrite));
    },
    async saveKey(key) {
      await pool.query(`${KEY_INSERT} VALUES ($1, $2, $3, $4, $5, $6)`, keyValues(key));
    },
    async findKey(id) {
      const { rows } = await pool.query<KeyRow>('SELECT * FROM api_keys WHERE id = $1', [id]);
      return rows[0] === undefined ? undefined : keyFromRow(rows[0]);
    },
    async listKeys() {
      const { rows } = await pool.query<KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id');
      return rows.map(keyFromRow);
    },
    async revokeKey(id, at) {
      const result = await pool.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at, id]);
      return (result.rowCount ?? 0) > 0;
    },
    async appendAlerts(alerts) {
      if (alerts.length === 0) return [];
      const createdAt = new Date().toISOString();
      const columns = ALERT_COLUMNS.map((c) => alerts.map((a) => (c === 'created_at' ? createdAt : a[c])));
      const { rows } = await pool.query<AlertRow>(
        `INSERT INTO alerts (${ALERT_COLUMNS.join(', ')})
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::bigint[], $8::float8[], $9::text[])
         RETURNING *`,
        columns,
      );
      return rows.map(alertFromRow).sort((a, b) => a.id - b.id);
    },
    async readAlerts(query = {}) {
      const { sql, values } = alertQuerySql(query, (n) => `$${n}`);
      return (await pool.query<AlertRow>(sql, values)).rows.map(alertFromRow);
    },
    async pruneAlerts(before) {
      return (await pool.query(pruneAlertsSql('$1'), [before])).rowCount ?? 0;
    },
    async openAlerts() {
      return (await pool.query<AlertRow>(OPEN_ALERTS_SQL)).rows.map(alertFromRow);
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
