/**
 * Schema migrations, in order. Each has the statements for both backends; a store applies the
 * ones above its recorded version, each in its own transaction, and records it.
 */
import { moderatorTypesCondition } from './moderation-rows.js';
import { REFUSALS_MIGRATION } from './refusals.js';
import { eventPagesMigration } from './event-pages-schema.js';
import { ACCESS_MIGRATION } from './access-schema.js';

export interface Migration {
  readonly version: number;
  readonly description: string;
  readonly sqlite: readonly string[];
  readonly postgres: readonly string[];
}

const initial = (real: string, bigint: string): string[] => [
  `CREATE TABLE communities (name TEXT PRIMARY KEY, last_sequence ${bigint} NOT NULL)`,
  `CREATE TABLE events (
     community TEXT NOT NULL,
     sequence ${bigint} NOT NULL,
     event_id TEXT,
     type TEXT NOT NULL,
     time ${real} NOT NULL,
     body TEXT NOT NULL,
     PRIMARY KEY (community, sequence))`,
  'CREATE UNIQUE INDEX events_by_id ON events (community, event_id) WHERE event_id IS NOT NULL',
  `CREATE TABLE checkpoints (
     scorer TEXT NOT NULL,
     community TEXT NOT NULL,
     sequence ${bigint} NOT NULL,
     state TEXT NOT NULL,
     PRIMARY KEY (scorer, community))`,
];

const keysAndAlerts = (real: string, bigint: string, serial: string): string[] => [
  `CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     hash TEXT NOT NULL,
     scopes TEXT NOT NULL,
     label TEXT NOT NULL,
     created_at TEXT NOT NULL,
     revoked_at TEXT)`,
  `CREATE TABLE alerts (
     id ${serial},
     community TEXT NOT NULL,
     scorer TEXT NOT NULL,
     player TEXT NOT NULL,
     threshold TEXT NOT NULL,
     kind TEXT NOT NULL,
     score ${real} NOT NULL,
     sequence ${bigint} NOT NULL,
     time ${real} NOT NULL,
     created_at TEXT NOT NULL)`,
  'CREATE INDEX alerts_by_player ON alerts (player)',
  'CREATE INDEX alerts_by_subject ON alerts (community, scorer, player, threshold, id)',
];

/**
 * A PostgreSQL append in one statement (one round trip, its own transaction). The batch comes as
 * one array per column, the bodies as one text of JSON documents separated by newlines (JSON text
 * never holds a raw newline), with no id twice within a community (the caller keeps the first).
 * The answer: the touched communities with their last sequence before the batch, and the
 * positions (1-based) of the rows not stored because their id was; every other row took the next
 * sequence of its community, in batch order.
 *
 * The function creates the touched communities' rows and locks them in name order first
 * (concurrent appends to one community, from any number of processes, queue there; two batches
 * sharing communities lock them in the same order). Only then does it insert: each statement of a
 * function sees what was committed before it ran, so an id a concurrent append stored is seen.
 * Most batches hold no stored id, and are inserted whole, the unique index checking each id as
 * it does anyway; when it finds one, that insert is undone, the stored ids are looked up, and the
 * other rows inserted, so no sequence goes to a row not stored.
 *
 * Its statements keep one generic plan each: planning them anew for every call's values costs
 * several times what running them does. A generic plan is made once per connection, maybe while
 * the tables are still empty, so none may depend on their size: the batch's rows are joined to
 * arrays, stored ids are looked up one row at a time (a subquery per row, which the planner
 * cannot turn into a join over the whole table), and no table is read by a sequential scan.
 */
const appendFunction = `CREATE FUNCTION standing_append(
  batch_communities TEXT[], batch_ids TEXT[], batch_types TEXT[], batch_times DOUBLE PRECISION[], batch_bodies TEXT,
  OUT touched TEXT[], OUT lasts BIGINT[], OUT repeated INTEGER[])
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  added_names TEXT[];
  added_rows BIGINT[];
BEGIN
  INSERT INTO communities (name, last_sequence)
    SELECT name, 0 FROM (SELECT DISTINCT c COLLATE "C" AS name FROM unnest(batch_communities) AS c) batch ORDER BY name
    ON CONFLICT (name) DO NOTHING;
  SELECT array_agg(name), array_agg(last_sequence) INTO touched, lasts
    FROM (SELECT name, last_sequence FROM communities WHERE name = ANY (batch_communities) ORDER BY name COLLATE "C" FOR UPDATE) locked;
  repeated := '{}';
  BEGIN
    INSERT INTO events (community, sequence, event_id, type, time, body)
      SELECT i.community, c.last_sequence + row_number() OVER (PARTITION BY i.community ORDER BY i.n), i.event_id, i.type, i.time, i.body
      FROM unnest(batch_communities, batch_ids, batch_types, batch_times, string_to_array(batch_bodies, E'\\n')) WITH ORDINALITY AS i (community, event_id, type, time, body, n)
      JOIN unnest(touched, lasts) AS c (name, last_sequence) ON c.name = i.community;
    SELECT array_agg(community), array_agg(rows) INTO added_names, added_rows
      FROM (SELECT community, count(*) AS rows FROM unnest(batch_communities) AS community GROUP BY community) added;
  EXCEPTION WHEN unique_violation THEN
    SELECT coalesce(array_agg(i.n), '{}') INTO repeated FROM unnest(batch_communities, batch_ids) WITH ORDINALITY AS i (community, event_id, n)
      WHERE (SELECT true FROM events e WHERE e.community = i.community AND e.event_id = i.event_id) IS NOT NULL;
    WITH stored AS (
      INSERT INTO events (community, sequence, event_id, type, time, body)
        SELECT i.community, c.last_sequence + row_number() OVER (PARTITION BY i.community ORDER BY i.n), i.event_id, i.type, i.time, i.body
        FROM unnest(batch_communities, batch_ids, batch_types, batch_times, string_to_array(batch_bodies, E'\\n')) WITH ORDINALITY AS i (community, event_id, type, time, body, n)
        JOIN unnest(touched, lasts) AS c (name, last_sequence) ON c.name = i.community
        WHERE (SELECT true FROM events e WHERE e.community = i.community AND e.event_id = i.event_id) IS NULL
        RETURNING community)
    SELECT array_agg(community), array_agg(rows) INTO added_names, added_rows FROM (SELECT community, count(*) AS rows FROM stored GROUP BY community) added;
  END;
  UPDATE communities c SET last_sequence = c.last_sequence + added.rows FROM unnest(added_names, added_rows) AS added (name, rows) WHERE c.name = added.name;
END
$$`;

/**
 * Community names and event ids compared byte by byte (COLLATE "C", as SQLite compares them):
 * the same equality, and index lookups and inserts several times cheaper than under a locale.
 */
const bytewiseKeys = [
  'ALTER TABLE communities ALTER COLUMN name TYPE TEXT COLLATE "C"',
  'ALTER TABLE events ALTER COLUMN community TYPE TEXT COLLATE "C", ALTER COLUMN event_id TYPE TEXT COLLATE "C"',
];

/**
 * Checkpoints in chunks: a set's sequence once per community, and each state as rows of bounded
 * text (its parts, each cut into chunks), so no state has to be one string or one column value.
 * The states saved before are kept, as one part in one chunk each.
 */
const checkpointChunks = (bigint: string, key: string, storage: readonly string[]): string[] => [
  `CREATE TABLE checkpoint_sets (community ${key} PRIMARY KEY, sequence ${bigint} NOT NULL)`,
  `CREATE TABLE checkpoint_chunks (
     community ${key} NOT NULL,
     name ${key} NOT NULL,
     part INTEGER NOT NULL,
     chunk INTEGER NOT NULL,
     text TEXT NOT NULL,
     PRIMARY KEY (community, name, part, chunk))`,
  ...storage,
  'INSERT INTO checkpoint_sets (community, sequence) SELECT community, MAX(sequence) FROM checkpoints GROUP BY community',
  'INSERT INTO checkpoint_chunks (community, name, part, chunk, text) SELECT community, scorer, 0, 0, state FROM checkpoints',
  'DROP TABLE checkpoints',
];

/**
 * The cluster's partitions (../cluster/): per event stream (by name) and partition of it, the
 * identity of the stream the row's sequences count in (the stream is new when it is deleted and
 * made again: its sequences restart at 1), the epoch of the worker lease that last claimed it and
 * the stream sequence its stored events include. A claim raises the epoch by one, and only while
 * the identity matches; a fenced write (an append, a checkpoint, an erasure, an alert) locks the
 * partition's row and goes on only while the epoch is still the writer's, so a worker whose lease
 * was taken over cannot write again. The append and its fence are one statement
 * (standing_append_fenced).
 */
const partitions = [
  `CREATE TABLE partitions (
     stream TEXT COLLATE "C" NOT NULL,
     partition INTEGER NOT NULL,
     stream_id TEXT NOT NULL,
     epoch BIGINT NOT NULL,
     stream_sequence BIGINT NOT NULL,
     PRIMARY KEY (stream, partition))`,
  `CREATE FUNCTION standing_fence(fence_stream TEXT, fence_partition INTEGER, fence_epoch BIGINT, applied BIGINT) RETURNS VOID
LANGUAGE plpgsql AS $$
DECLARE
  held BIGINT;
BEGIN
  UPDATE partitions SET stream_sequence = greatest(stream_sequence, coalesce(applied, stream_sequence))
    WHERE stream = fence_stream AND partition = fence_partition AND epoch = fence_epoch;
  IF NOT FOUND THEN
    SELECT epoch INTO held FROM partitions WHERE stream = fence_stream AND partition = fence_partition;
    RAISE EXCEPTION 'partition % of stream % is held at epoch %, this writer''s lease had epoch %', fence_partition, fence_stream, coalesce(held, 0), fence_epoch USING ERRCODE = 'SF001';
  END IF;
END
$$`,
  `CREATE FUNCTION standing_append_fenced(
  fence_stream TEXT, fence_partition INTEGER, fence_epoch BIGINT, applied BIGINT,
  batch_communities TEXT[], batch_ids TEXT[], batch_types TEXT[], batch_times DOUBLE PRECISION[], batch_bodies TEXT,
  OUT touched TEXT[], OUT lasts BIGINT[], OUT repeated INTEGER[])
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM standing_fence(fence_stream, fence_partition, fence_epoch, applied);
  IF coalesce(array_length(batch_communities, 1), 0) = 0 THEN
    touched := '{}'; lasts := '{}'; repeated := '{}';
    RETURN;
  END IF;
  SELECT a.touched, a.lasts, a.repeated INTO touched, lasts, repeated
    FROM standing_append(batch_communities, batch_ids, batch_types, batch_times, batch_bodies) a;
END
$$`,
];

/**
 * The key revision: one row whose number a trigger raises in the same transaction as any change
 * to a stored key (a revocation) or its removal, whichever process or tool makes it. A service
 * reads it before trusting the keys it verified earlier (../service/key-cache.ts).
 */
const keyRevision = (bigint: string, trigger: (event: 'UPDATE' | 'DELETE') => string): string[] => [
  `CREATE TABLE api_key_revision (id INTEGER PRIMARY KEY CHECK (id = 1), revision ${bigint} NOT NULL)`,
  'INSERT INTO api_key_revision (id, revision) VALUES (1, 0)',
  trigger('UPDATE'),
  trigger('DELETE'),
];

const sqliteKeyTrigger = (event: 'UPDATE' | 'DELETE'): string =>
  `CREATE TRIGGER api_keys_${event === 'UPDATE' ? 'changed' : 'removed'} AFTER ${event} ON api_keys BEGIN UPDATE api_key_revision SET revision = revision + 1; END`;

const postgresKeyTrigger = (event: 'UPDATE' | 'DELETE'): string =>
  `CREATE TRIGGER api_keys_${event === 'UPDATE' ? 'changed' : 'removed'} AFTER ${event} ON api_keys FOR EACH ROW EXECUTE FUNCTION standing_key_changed()`;

const postgresKeyFunction = `CREATE FUNCTION standing_key_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE api_key_revision SET revision = revision + 1;
  RETURN NULL;
END
$$`;

/**
 * Moderator events found by indexes, each partial on the moderator types (a small part of most
 * logs): in listing order, by the player they are about and community, by moderator. The
 * expressions are those ./moderation-rows.ts queries with.
 */
const moderationIndexes = (field: (name: string) => string, table = 'events', where = "WHERE type IN ('verdict', 'note', 'sanction', 'appeal')"): string[] => {
  return [
    `CREATE INDEX events_moderation ON ${table} (time, community, sequence) ${where}`,
    `CREATE INDEX events_moderation_by_player ON ${table} ((COALESCE(${field('player')}, ${field('to')})), community, time) ${where}`,
    `CREATE INDEX events_moderation_by_moderator ON ${table} ((${field('moderator')}), time) ${where}`,
  ];
};

const POSTGRES_FIELD = (name: string): string => `((body)::jsonb ->> '${name}')`;

/** The moderator types before the `rule` event (migrations 6 to 12 made their indexes partial on these). */
const FIRST_MODERATOR_TYPES = ['verdict', 'note', 'sanction', 'appeal'] as const;

const dropModerationIndexes = ['DROP INDEX events_moderation', 'DROP INDEX events_moderation_by_player', 'DROP INDEX events_moderation_by_moderator'];

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'event log per community, idempotency index, scorer checkpoints',
    sqlite: initial('REAL', 'INTEGER'),
    postgres: initial('DOUBLE PRECISION', 'BIGINT'),
  },
  {
    version: 2,
    description: 'API keys (hashed) and the alerts raised',
    sqlite: keysAndAlerts('REAL', 'INTEGER', 'INTEGER PRIMARY KEY AUTOINCREMENT'),
    postgres: keysAndAlerts('DOUBLE PRECISION', 'BIGINT', 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY'),
  },
  {
    version: 3,
    description: 'checkpoints found by community (replacing or loading one set reads only its rows)',
    sqlite: ['CREATE INDEX checkpoints_by_community ON checkpoints (community)'],
    postgres: ['CREATE INDEX checkpoints_by_community ON checkpoints (community)'],
  },
  {
    version: 4,
    description: 'PostgreSQL appends a batch in one statement (standing_append), community names and event ids compared byte by byte',
    sqlite: [],
    postgres: [...bytewiseKeys, appendFunction],
  },
  {
    version: 5,
    description: 'checkpoints in chunks (checkpoint_sets, checkpoint_chunks), no state bounded by one string',
    sqlite: checkpointChunks('INTEGER', 'TEXT', []),
    // Stored as they are: compressing megabytes of mostly base64 text on every save cost PostgreSQL
    // several times what writing them does, for little space.
    postgres: checkpointChunks('BIGINT', 'TEXT COLLATE "C"', ['ALTER TABLE checkpoint_chunks ALTER COLUMN text SET STORAGE EXTERNAL']),
  },
  {
    version: 6,
    description: 'moderator events (verdict, note, sanction, appeal) indexed by time, by player and community, by moderator',
    sqlite: moderationIndexes((name) => `json_extract(body, '$.${name}')`),
    postgres: moderationIndexes(POSTGRES_FIELD),
  },
  {
    version: 7,
    description: 'cluster partitions by stream and partition: the identity of the stream, the epoch of the lease that claimed each, the stream sequence its events include, fenced appends and checkpoints',
    sqlite: [],
    postgres: partitions,
  },
  {
    version: 8,
    description: 'PostgreSQL keeps events in pages (one row per community per append), their ids in event_ids, moderator events and reports also as rows (indexed_events)',
    sqlite: [],
    postgres: eventPagesMigration(moderationIndexes(POSTGRES_FIELD, 'indexed_events')),
  },
  {
    version: 9,
    description: "cluster refusals: each message of the event log a worker refused, its communities, events and problems (./refusals.ts)",
    sqlite: [],
    postgres: REFUSALS_MIGRATION,
  },
  {
    version: 10,
    description: "SQLite's moderation indexes partial on an OR of the moderator types (an IN list there was built again for every event appended)",
    sqlite: [...dropModerationIndexes, ...moderationIndexes((name) => `json_extract(body, '$.${name}')`, 'events', `WHERE ${moderatorTypesCondition('sqlite', '', FIRST_MODERATOR_TYPES)}`)],
    postgres: [],
  },
  {
    version: 11,
    description: 'the key revision (api_key_revision), raised by a trigger whenever a stored key is revoked or removed: services cache verified keys and read it per request',
    sqlite: keyRevision('INTEGER', sqliteKeyTrigger),
    postgres: [postgresKeyFunction, ...keyRevision('BIGINT', postgresKeyTrigger)],
  },
  {
    version: 12,
    description: 'keys restricted to communities (api_keys.communities), claims on cases (case_claims), service secrets (service_secrets), reports found by reporter (./access-schema.ts)',
    sqlite: ACCESS_MIGRATION.sqlite,
    postgres: ACCESS_MIGRATION.postgres,
  },
  {
    version: 13,
    description: "moderator events of type `rule` (a rule's state in a community) in the moderation indexes: each remade partial on every moderator type",
    sqlite: [...dropModerationIndexes, ...moderationIndexes((name) => `json_extract(body, '$.${name}')`, 'events', `WHERE ${moderatorTypesCondition('sqlite')}`)],
    postgres: [...dropModerationIndexes, ...moderationIndexes(POSTGRES_FIELD, 'indexed_events', `WHERE ${moderatorTypesCondition('postgres')}`)],
  },
];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
