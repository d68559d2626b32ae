/**
 * The PostgreSQL event store (pg). An append is one statement (a function the migrations
 * create) that locks each touched community's row, so concurrent appends to one community, from
 * any number of processes, get gapless sequences and cannot race on duplicate ids; the batch is
 * stored whole or not at all.
 */
import pg from 'pg';
import type { StandingEvent } from '../events/types.js';
import { StoreBusyError } from '../errors.js';
import { MIGRATIONS } from './migrations.js';
import { CHECKPOINT_CHUNK_CHARS, checkpointSets, chunkRows, chunksSql, CHUNK_COLUMNS, type ChunkRow, type StoredChunkRow } from './checkpoint-rows.js';
import { claimFromRow, claimInForceSql, makeSecretSql, pruneClaimsSql, readSecretSql, releaseAnySql, releaseOwnSql, reportsBySql, takeClaimSql, type ClaimRow } from './access-rows.js';
import { REPORTER_POSTGRES } from './access-schema.js';
import { ALERT_COLUMNS, alertFromRow, alertQuerySql, keyInsert, keyFromRow, labelTaken, keyValues, OPEN_ALERTS_SQL, pruneAlertsSql, type AlertRow, type KeyRow } from './rows.js';
import { FENCED_SQLSTATE, PartitionFencedError, requireOwnCommunities, StreamMismatchError, type Fence, type PartitionWrites } from './partitions.js';
import { entryFromRow, moderationQuerySql, POSTGRES_JSON, type ModerationRow } from './moderation-rows.js';
import type { AppendOutcome, CheckpointSet, ErasureOutcome, EventRewrite, EventStore, NewAlert, StoredAlert, StoredEvent } from './types.js';
import { firstOfEachId } from './first-of-each-id.js';
import { eventsOfPage, pageArguments, pageParameters, type PageRow } from './event-pages.js';
import { erasePages } from './postgres-erasure.js';
import { arrayLiteral } from './pg-array-literal.js';
import { holdPostgres } from './postgres-hold.js';
import { FORGET_REFUSALS, INSERT_REFUSAL, LIST_REFUSALS, REFUSED_BY_CODE, refusalFromRow, type RefusalRow } from './refusals.js';

/** BIGINT columns come back as numbers (sequences stay far below 2^53). */
const toNumber = (value: unknown): number => Number(value);
/** PostgreSQL's placeholders: `$1`, `$2`, … */
const P = (n: number): string => `$${n}`;

export interface PostgresStoreOptions {
  /** The longest text of one checkpoint row (CHECKPOINT_CHUNK_CHARS); longer parts of a state are cut. */
  readonly checkpointChunkChars?: number;
  /** Connections the store's pool opens at most (POOL_CONNECTIONS). */
  readonly maxConnections?: number;
  /** The sessions' application_name in pg_stat_activity, unless the URL (or PGAPPNAME) names one. */
  readonly applicationName?: string;
}

/** Connections a store's pool opens at most, by default. */
export const POOL_CONNECTIONS = 4;

/**
 * Checkpoint chunks of up to SMALL_CHUNK characters go in INSERTs of arrays, at most
 * STATEMENT_CHARS characters each; a longer chunk goes alone, as a parameter of its own (sent as
 * it is, not escaped into an array literal and parsed back).
 */
const SMALL_CHUNK = 1 << 16;
const STATEMENT_CHARS = 1 << 24;

/**
 * The first sequence of the page of `community` that holds sequence `after` + 1, or would: the
 * last page starting at or before it (0 when none does). Pages after it start after `after` + 1.
 */
const firstPageAfter = (community: string, after: string): string =>
  `coalesce((SELECT first_sequence FROM event_pages s WHERE s.community = ${community} AND s.first_sequence <= ${after} + 1 ORDER BY s.first_sequence DESC LIMIT 1), 0)`;

/**
 * The pages from the one holding sequence $2 + 1 (the last whose first sequence is at most that;
 * the next ones start after it) to the last starting at or before $3, in order, at most $4. A
 * page's first and last events are never erased, so each page after the first holds events after
 * $2, and those up to $3 are at most $3 - $2.
 */
const READ_PAGES = `SELECT community, first_sequence, last_sequence, body FROM event_pages WHERE community = $1 AND first_sequence >= ${firstPageAfter('$1', '$2::bigint')}
    AND first_sequence <= $3::bigint
  ORDER BY first_sequence LIMIT $4`;
/** The first page starting after $2. */
const NEXT_PAGE = 'SELECT first_sequence FROM event_pages WHERE community = $1 AND first_sequence > $2::bigint ORDER BY first_sequence LIMIT 1';
/** The most pages one query of a read fetches. */
const PAGES_READ = 1000;
/** Times an append goes again because an id it found stored was erased before it could name it. */
const ERASED_MEANWHILE_RETRIES = 10;

/** The PostgreSQL store: an EventStore, and the cluster's fenced writes (./partitions.ts). */
export type PostgresStore = EventStore & PartitionWrites;

/** A fence refused by the database as PartitionFencedError; any other error as it is. */
function fenced(error: unknown): unknown {
  const pgError = error as { code?: unknown; message?: unknown };
  return pgError.code === FENCED_SQLSTATE ? new PartitionFencedError(String(pgError.message)) : error;
}

/** Stores `alerts` in one statement; the stored alerts in id order. */
async function insertAlerts(conn: pg.Pool | pg.PoolClient, alerts: readonly NewAlert[]): Promise<StoredAlert[]> {
  if (alerts.length === 0) return [];
  const createdAt = new Date().toISOString();
  const columns = ALERT_COLUMNS.map((c) => alerts.map((a) => (c === 'created_at' ? createdAt : a[c])));
  const { rows } = await conn.query<AlertRow>(
    `INSERT INTO alerts (${ALERT_COLUMNS.join(', ')})
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::bigint[], $8::float8[], $9::text[])
     RETURNING *`,
    columns,
  );
  return rows.map(alertFromRow).sort((a, b) => a.id - b.id);
}

/** Applies the migrations not applied yet, one migrator at a time across processes. */
async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    // One migrator at a time, whatever the number of processes starting together (creating the
    // table of versions included: two creates at once collide even with IF NOT EXISTS).
    await client.query('SELECT pg_advisory_lock(7281)');
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL)');
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
}

export async function openPostgresStore(connectionString: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const chunkChars = options.checkpointChunkChars ?? CHECKPOINT_CHUNK_CHARS;
  const pool = new pg.Pool({
    connectionString,
    max: options.maxConnections ?? POOL_CONNECTIONS,
    ...(options.applicationName === undefined ? {} : { fallback_application_name: options.applicationName.slice(0, 63) }),
  });
  try {
    await migrate(pool);
  } catch (error) {
    // Closing the pool ends the migrating session, and the advisory lock with it.
    await pool.end().catch(() => undefined);
    throw error;
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

  /** Erases `player` from every community, or from `communities` only (a cluster partition's): its events (./postgres-erasure.ts), checkpoints and alerts. */
  async function eraseIn(conn: pg.PoolClient, player: string, rewrite: EventRewrite, communities?: readonly string[]): Promise<ErasureOutcome> {
    const outcome = await erasePages(conn, player, rewrite, communities);
    if (outcome.communities.length > 0) await dropCheckpoints(conn, outcome.communities);
    if (communities === undefined) {
      await conn.query('DELETE FROM alerts WHERE player = $1', [player]);
      await conn.query('DELETE FROM case_claims WHERE player = $1', [player]);
    } else {
      await conn.query('DELETE FROM alerts WHERE player = $1 AND community = ANY($2)', [player, [...communities]]);
      await conn.query('DELETE FROM case_claims WHERE player = $1 AND community = ANY($2)', [player, [...communities]]);
    }
    return outcome;
  }

  async function dropCheckpoints(conn: pg.PoolClient, communities: readonly string[]): Promise<void> {
    await conn.query('DELETE FROM checkpoint_chunks WHERE community = ANY($1)', [communities]);
    await conn.query('DELETE FROM checkpoint_sets WHERE community = ANY($1)', [communities]);
  }

  /** Every set replaced in one transaction, its chunks in INSERTs of bounded size. */
  async function replaceCheckpoints(checkpoints: ReadonlyMap<string, CheckpointSet>, fence?: Fence): Promise<void> {
    if (fence !== undefined) requireOwnCommunities(checkpoints.keys(), fence);
    return transaction(async (conn) => {
      if (fence !== undefined) await conn.query('SELECT standing_fence($1, $2, $3, NULL)', [fence.stream, fence.partition, fence.epoch]);
      const communities = [...checkpoints.keys()];
      await dropCheckpoints(conn, communities);
      await conn.query('INSERT INTO checkpoint_sets (community, sequence) SELECT * FROM unnest($1::text[], $2::bigint[])', [communities, communities.map((c) => checkpoints.get(c)!.sequence)]);
      const columns = CHUNK_COLUMNS.join(', ');
      let small: ChunkRow[] = [];
      let chars = 0;
      const insertSmall = async () => {
        await conn.query(
          `INSERT INTO checkpoint_chunks (${columns}) SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::text[])`,
          CHUNK_COLUMNS.map((c) => small.map((row) => row[c])),
        );
        small = [];
        chars = 0;
      };
      for (const row of chunkRows(checkpoints, chunkChars)) {
        if (row.text.length > SMALL_CHUNK) {
          await conn.query(`INSERT INTO checkpoint_chunks (${columns}) VALUES ($1, $2, $3, $4, $5)`, CHUNK_COLUMNS.map((c) => row[c]));
          continue;
        }
        if (chars + row.text.length > STATEMENT_CHARS) await insertSmall();
        small.push(row);
        chars += row.text.length;
      }
      if (small.length > 0) await insertSmall();
    });
  }

  /**
   * One statement, one round trip (the standing_append function, ./event-pages-schema.ts), unless
   * an id was stored before: then nothing was stored, and the batch goes again without the events
   * the answer names. An id repeated within the batch is dropped here, before it is sent: the
   * first occurrence counts.
   */
  async function append(events: readonly StandingEvent[], fence?: Fence & { streamSequence: number }): Promise<AppendOutcome> {
    if (fence !== undefined) requireOwnCommunities(new Set(events.map((event) => event.community)), fence);
    let sent = firstOfEachId(events);
    if (sent.length === 0 && fence === undefined) return { appended: [], duplicates: events.length };
    let erasedMeanwhile = 0;
    for (;;) {
      const { values: columns, eventOfId } = pageArguments(sent);
      // The columns as array literals written here, in one pass each (./pg-array-literal.ts).
      const values = columns.map((column) => (Array.isArray(column) ? arrayLiteral(column as (string | number | null)[]) : column));
      const { rows } = await pool
        .query<{ touched: string[] | null; lasts: string[] | null; repeated: number[] }>(
          fence === undefined
            ? { name: 'standing-append', text: `SELECT * FROM standing_append(${pageParameters(1)})`, values } // prepared once per connection
            : {
                name: 'standing-append-fenced',
                text: `SELECT * FROM standing_append_fenced($1::text, $2::int, $3::bigint, $4::bigint, ${pageParameters(5)})`,
                values: [fence.stream, fence.partition, fence.epoch, fence.streamSequence, ...values],
              },
        )
        .catch((error: unknown) => {
          throw fenced(error);
        });
      const { touched, lasts, repeated } = rows[0]!;
      if (touched === null && repeated.length === 0) {
        // An id found stored was erased before the function could name it: nothing was stored.
        if (++erasedMeanwhile > ERASED_MEANWHILE_RETRIES) throw new StoreBusyError('stored ids kept disappearing under concurrent erasures');
        continue;
      }
      if (repeated.length > 0) {
        const stored = new Set(repeated.map((n) => eventOfId[n - 1]!));
        sent = sent.filter((_, i) => !stored.has(i));
        if (sent.length === 0 && fence === undefined) return { appended: [], duplicates: events.length };
        continue;
      }
      const last = new Map((touched ?? []).map((community, i) => [community, toNumber(lasts![i])]));
      const appended = sent.map((event): StoredEvent => {
        const sequence = last.get(event.community)! + 1;
        last.set(event.community, sequence);
        return { community: event.community, sequence, event };
      });
      return { appended, duplicates: events.length - appended.length };
    }
  }

  /**
   * The events of `community` after `after`, at most `limit`: the pages that can hold sequences
   * after + 1 … after + limit (so at most `limit` events and two pages' worth more), PAGES_READ
   * at a time; when erasure left fewer there, the same from the next page on.
   */
  async function read(community: string, after: number, limit: number): Promise<StoredEvent[]> {
    const out: StoredEvent[] = [];
    let from = after;
    while (out.length < limit) {
      const upTo = from + (limit - out.length);
      const { rows } = await pool.query<PageRow & { last_sequence: string }>({ name: 'read-pages', text: READ_PAGES, values: [community, from, upTo, PAGES_READ] });
      for (const row of rows) out.push(...eventsOfPage(row, from));
      if (rows.length === PAGES_READ) {
        from = toNumber(rows[rows.length - 1]!.last_sequence);
        continue;
      }
      // Every page starting up to upTo is read: go on from the next one, if any.
      const next = await pool.query<{ first_sequence: string }>({ name: 'next-page', text: NEXT_PAGE, values: [community, upTo] });
      if (next.rows[0] === undefined) break;
      from = toNumber(next.rows[0].first_sequence) - 1;
    }
    return out.length > limit ? out.slice(0, limit) : out;
  }

  return {
    kind: 'postgres',
    append: (events) => append(events),
    async claimPartition(stream, partition) {
      // The epoch goes up only for the same instance of the stream; otherwise no row comes back.
      const { rows } = await pool.query<{ epoch: string; stream_sequence: string }>(
        `INSERT INTO partitions (stream, partition, stream_id, epoch, stream_sequence) VALUES ($1, $2, $3, 1, 0)
         ON CONFLICT (stream, partition) DO UPDATE SET epoch = partitions.epoch + 1 WHERE partitions.stream_id = EXCLUDED.stream_id
         RETURNING epoch, stream_sequence`,
        [stream.name, partition, stream.id],
      );
      if (rows[0] === undefined) {
        const stored = await pool.query<{ stream_id: string }>('SELECT stream_id FROM partitions WHERE stream = $1 AND partition = $2', [stream.name, partition]);
        throw new StreamMismatchError(stream.name, partition, stored.rows[0]?.stream_id ?? '(none)', stream.id);
      }
      return { stream: stream.name, partition, partitions: stream.partitions, epoch: toNumber(rows[0].epoch), streamSequence: toNumber(rows[0].stream_sequence) };
    },
    appendFenced: (events, fence, streamSequence) => append(events, { ...fence, streamSequence }),
    async recordRefusalFenced(refusal, fence) {
      await transaction(async (conn) => {
        await conn.query('SELECT standing_fence($1, $2, $3, $4)', [fence.stream, fence.partition, fence.epoch, refusal.streamSequence]);
        await conn.query(INSERT_REFUSAL, [fence.stream, fence.partition, refusal.streamSequence, new Date().toISOString(), [...refusal.communities], refusal.events, JSON.stringify(refusal.problems), [...refusal.players]]);
      }).catch((error: unknown) => {
        throw fenced(error);
      });
    },
    async refusals(after, limit) {
      const { rows } = await pool.query<RefusalRow>(LIST_REFUSALS, [after, limit]);
      return rows.map(refusalFromRow);
    },
    async refusedByCode() {
      const { rows } = await pool.query<{ code: string | null; events: string }>(REFUSED_BY_CODE);
      return new Map(rows.map((r) => [r.code ?? '', toNumber(r.events)]));
    },
    async streamSequences(stream) {
      const { rows } = await pool.query<{ partition: number; stream_sequence: string }>('SELECT partition, stream_sequence FROM partitions WHERE stream = $1', [stream]);
      return new Map(rows.map((r) => [r.partition, toNumber(r.stream_sequence)]));
    },
    async eraseFenced(player, rewrite, fence, communities) {
      requireOwnCommunities(communities, fence);
      // Fenced even with no communities: a writer whose lease was taken over goes no further (it would purge the stream next).
      return transaction(async (conn) => {
        await conn.query('SELECT standing_fence($1, $2, $3, NULL)', [fence.stream, fence.partition, fence.epoch]);
        await conn.query(FORGET_REFUSALS, [fence.stream, fence.partition, player]);
        if (communities.length === 0) return { communities: [], removed: 0, rewritten: 0 };
        return eraseIn(conn, player, rewrite, communities);
      }).catch((error: unknown) => {
        throw fenced(error);
      });
    },
    async saveCheckpointSetsFenced(checkpoints, fence) {
      await replaceCheckpoints(checkpoints, fence).catch((error: unknown) => {
        throw fenced(error);
      });
    },
    read: (community, after = 0, limit = 1_000_000_000) => read(community, after, limit),
    async knownIds(community, ids, type) {
      if (ids.length === 0) return new Set();
      const { rows } =
        type === undefined
          ? await pool.query<{ event_id: string }>({ name: 'known-ids', text: 'SELECT event_id FROM event_ids WHERE community = $1 AND event_id = ANY($2)', values: [community, [...ids]] })
          : await pool.query<{ event_id: string }>({ name: 'known-ids-of-type', text: 'SELECT event_id FROM event_ids WHERE community = $1 AND event_id = ANY($2) AND type = $3', values: [community, [...ids], type] });
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
      const { rows } = await pool.query<StoredChunkRow>(chunksSql('s.community = $1 AND c.community = $1'), [community]);
      return checkpointSets(rows).get(community);
    },
    async loadCheckpointSets(communities) {
      if (communities.length === 0) return new Map();
      // The condition on both tables lets each be read by its index, whatever the planner's estimates.
      const { rows } = await pool.query<StoredChunkRow>(chunksSql('s.community = ANY($1) AND c.community = ANY($1)'), [[...communities]]);
      return checkpointSets(rows);
    },
    async readTails(tails) {
      if (tails.size === 0) return [];
      const { rows } = await pool.query<PageRow & { after: string }>(
        `SELECT p.community, p.first_sequence, p.body, t.after FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS t(community, after, n)
         JOIN event_pages p ON p.community = t.community AND p.first_sequence >= ${firstPageAfter('t.community', 't.after')}
         ORDER BY t.n, p.first_sequence`,
        [[...tails.keys()], [...tails.values()]],
      );
      return rows.flatMap((row) => eventsOfPage(row, toNumber(row.after)));
    },
    async lastEvents() {
      // A page's last event is never an erased one: the last page holds the last stored event.
      const { rows } = await pool.query<{ community: string; last_sequence: string; last_time: number }>(
        'SELECT c.name AS community, p.last_sequence, p.last_time FROM communities c CROSS JOIN LATERAL (SELECT last_sequence, last_time FROM event_pages WHERE community = c.name ORDER BY first_sequence DESC LIMIT 1) p',
      );
      return new Map(rows.map((r) => [r.community, { sequence: toNumber(r.last_sequence), time: r.last_time }]));
    },
    async erase(player, rewrite) {
      return transaction((conn) => eraseIn(conn, player, rewrite));
    },
    async moderationEvents(query = {}) {
      const { sql, values } = moderationQuerySql(query, POSTGRES_JSON, (n) => `$${n}`, 'indexed_events');
      return (await pool.query<ModerationRow>(sql, values)).rows.map(entryFromRow);
    },
    async saveKey(key) {
      await transaction(async (conn) => {
        // Two makers of keys one after the other (readers never wait): the label check and the insert are one step.
        await conn.query('LOCK TABLE api_keys IN SHARE ROW EXCLUSIVE MODE');
        const { rows } = await conn.query<KeyRow>('SELECT * FROM api_keys WHERE revoked_at IS NULL');
        const taken = labelTaken(rows.map(keyFromRow), key);
        if (taken !== undefined) throw taken;
        await conn.query(keyInsert((n) => `$${n}`), keyValues(key));
      });
    },
    async findKey(id) {
      // Asked for a key not verified since the key revision last changed: prepared once per connection.
      const { rows } = await pool.query<KeyRow>({ name: 'find-key', text: 'SELECT * FROM api_keys WHERE id = $1', values: [id] });
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
    async keyRevision() {
      // Asked for every request with a key: prepared once per connection.
      const { rows } = await pool.query<{ revision: string }>({ name: 'key-revision', text: 'SELECT revision FROM api_key_revision' });
      return toNumber(rows[0]!.revision);
    },
    async claimCase(claim) {
      // The take leaves another holder's row untouched; when that claim ends or is released
      // before it is read, the take runs again (each round, someone else's claim ended).
      for (;;) {
        await pool.query(pruneClaimsSql(P), [claim.claimedAt]);
        const taken = await pool.query<ClaimRow>(`${takeClaimSql(P)} RETURNING *`, [claim.community, claim.player, claim.moderator, claim.claimedAt, claim.until]);
        if (taken.rows[0] !== undefined) return claimFromRow(taken.rows[0]);
        const held = await pool.query<ClaimRow>(claimInForceSql(P), [claim.community, claim.player, claim.claimedAt]);
        if (held.rows[0] !== undefined) return claimFromRow(held.rows[0]);
      }
    },
    async caseClaim(community, player, now) {
      const { rows } = await pool.query<ClaimRow>(claimInForceSql(P), [community, player, now]);
      return rows[0] === undefined ? undefined : claimFromRow(rows[0]);
    },
    async releaseCase(community, player, moderator, now) {
      const { rows } =
        moderator === undefined ? await pool.query<ClaimRow>(releaseAnySql(P), [community, player, now]) : await pool.query<ClaimRow>(releaseOwnSql(P), [community, player, now, moderator]);
      return rows[0] === undefined ? undefined : claimFromRow(rows[0]);
    },
    async secret(name, make) {
      await pool.query(makeSecretSql(P), [name, make(), new Date().toISOString()]);
      const { rows } = await pool.query<{ secret: string }>(readSecretSql(P), [name]);
      return rows[0]!.secret;
    },
    async reportsBy(community, reporter, limit, before = Number.MAX_SAFE_INTEGER) {
      const { rows } = await pool.query<{ community: string; sequence: string; body: string }>(reportsBySql(P, 'indexed_events', REPORTER_POSTGRES), [community, reporter, before, limit]);
      return rows.map((row) => ({ community: row.community, sequence: toNumber(row.sequence), event: JSON.parse(row.body) as StandingEvent }));
    },
    appendAlerts: (alerts) => insertAlerts(pool, alerts),
    async appendAlertsFenced(alerts, fence) {
      requireOwnCommunities(new Set(alerts.map((alert) => alert.community)), fence);
      if (alerts.length === 0) return [];
      return transaction(async (conn) => {
        await conn.query('SELECT standing_fence($1, $2, $3, NULL)', [fence.stream, fence.partition, fence.epoch]);
        return insertAlerts(conn, alerts);
      }).catch((error: unknown) => {
        throw fenced(error);
      });
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
    hold: (role) => holdPostgres(connectionString, role),
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
