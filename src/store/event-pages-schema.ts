/**
 * PostgreSQL's event log in pages (migration 8, ./migrations.ts). One row per event cost
 * PostgreSQL several microseconds of CPU per event (a heap tuple, a primary-key entry, an id-index
 * entry and three partial-index checks each); one row per community per append costs one tuple
 * for the whole run of events, so an append's cost is mostly the id check. The tables:
 *
 * - `event_pages`: per community, runs of consecutive sequences `first_sequence` …
 *   `last_sequence`, the events as one JSON array text (`null` where an erased event was), its
 *   first and last elements never null; `last_time` is the last element's time. An append writes
 *   a community's events as one page, or several of at most PAGE_EVENTS events
 *   (./event-pages.ts); erasure rewrites the pages it changes, trims nulls off their ends, and
 *   deletes a page left empty.
 * - `event_ids`: every stored event id, with its event's type: the durable idempotency check
 *   (its primary key refuses an id stored before, whichever append stored it) and `knownIds`.
 * - `indexed_events`: the moderator events (verdict, note, sanction, appeal, rule) and the reports
 *   again as rows, for what is found by content: the audit log's indexes (migration 6's, on this
 *   table), the report a verdict names, and the verdicts erasure removes with their report.
 *
 * SQLite keeps its events as rows (./migrations.ts).
 */
import { MODERATOR_EVENT_TYPES } from '../events/types.js';

/** The types kept in `indexed_events` as well as in their page. */
export const INDEXED_TYPES = [...MODERATOR_EVENT_TYPES, 'report'] as const;

const INDEXED_CONDITION = `type IN (${INDEXED_TYPES.map((t) => `'${t}'`).join(', ')})`;

/** The most events of one page; an append cuts a longer run of one community into pages this long. */
export const PAGE_EVENTS = 1000;

const tables = [
  `CREATE TABLE event_pages (
     community TEXT COLLATE "C" NOT NULL,
     first_sequence BIGINT NOT NULL,
     last_sequence BIGINT NOT NULL,
     last_time DOUBLE PRECISION NOT NULL,
     body TEXT NOT NULL,
     PRIMARY KEY (community, first_sequence))`,
  // Stored as it is, as checkpoint chunks are: in the layout experiment (bench/experiments/pg-event-layouts.ts)
  // lz4-compressed pages cost the server more CPU per appended event than uncompressed ones.
  'ALTER TABLE event_pages ALTER COLUMN body SET STORAGE EXTERNAL',
  `CREATE TABLE event_ids (
     community TEXT COLLATE "C" NOT NULL,
     event_id TEXT COLLATE "C" NOT NULL,
     type TEXT NOT NULL,
     PRIMARY KEY (community, event_id))`,
  `CREATE TABLE indexed_events (
     community TEXT COLLATE "C" NOT NULL,
     sequence BIGINT NOT NULL,
     event_id TEXT COLLATE "C",
     type TEXT NOT NULL,
     time DOUBLE PRECISION NOT NULL,
     body TEXT NOT NULL,
     PRIMARY KEY (community, sequence))`,
  'CREATE INDEX indexed_events_by_id ON indexed_events (community, event_id) WHERE event_id IS NOT NULL',
];

/**
 * The rows of `events` into the new tables. A page holds up to PAGE_EVENTS sequences of one
 * community, from a multiple of PAGE_EVENTS on; an erased event (no row) inside it is a `null`
 * (the `null,`s before each body make up the gap since the previous row of the page).
 */
const copyRows = [
  'INSERT INTO event_ids (community, event_id, type) SELECT community, event_id, type FROM events WHERE event_id IS NOT NULL',
  `INSERT INTO indexed_events (community, sequence, event_id, type, time, body) SELECT community, sequence, event_id, type, time, body FROM events WHERE ${INDEXED_CONDITION}`,
  `INSERT INTO event_pages (community, first_sequence, last_sequence, last_time, body)
     SELECT community, min(sequence), max(sequence), (array_agg(time ORDER BY sequence DESC))[1],
       '[' || string_agg(repeat('null,', (sequence - previous - 1)::int) || body, ',' ORDER BY sequence) || ']'
     FROM (SELECT community, sequence, time, body, (sequence - 1) / ${PAGE_EVENTS} AS page,
             coalesce(lag(sequence) OVER (PARTITION BY community, (sequence - 1) / ${PAGE_EVENTS} ORDER BY sequence), sequence - 1) AS previous
           FROM events) numbered
     GROUP BY community, page`,
];

/**
 * An append in one statement (one round trip, its own transaction). The batch comes grouped in
 * pages by the client (./event-pages.ts): per page its community, the offset of its first event
 * among that community's events in the batch, its count and last time, the bodies as one text of
 * JSON arrays separated by newlines (JSON text never holds a raw newline); the batch's ids with
 * their community and type; the batch's events of INDEXED_TYPES as rows (community, 1-based
 * offset among its community's events, id, type, time, bodies as newline-separated JSON). No id
 * is twice within a community (the client keeps the first).
 *
 * The function creates the touched communities' rows and locks them in name order first
 * (concurrent appends to one community, from any number of processes, queue there; two batches
 * sharing communities lock them in the same order). Then it inserts the ids: when one was stored
 * before, that insert is undone and nothing is stored; the answer names the positions (1-based,
 * among the ids sent) of the stored ones, and the client sends the batch again without those
 * events (the communities it made are deleted again; when the stored id is gone by the time it is looked
 * for, erased meanwhile, `touched` is null and no id is named: the client sends the batch again). Otherwise the pages and rows take the communities' next sequences. The answer: the
 * touched communities with their last sequence before the batch, and `repeated`.
 *
 * Its statements keep one generic plan each (planning anew for every call costs several times
 * what running them does); none may depend on the tables' sizes, so no table is read by a
 * sequential scan and stored ids are looked up one at a time.
 */
const appendFunction = `CREATE FUNCTION standing_append(
  page_communities TEXT[], page_offsets INTEGER[], page_counts INTEGER[], page_last_times DOUBLE PRECISION[], page_bodies TEXT,
  id_communities TEXT[], id_values TEXT[], id_types TEXT[],
  row_communities TEXT[], row_offsets INTEGER[], row_ids TEXT[], row_types TEXT[], row_times DOUBLE PRECISION[], row_bodies TEXT,
  OUT touched TEXT[], OUT lasts BIGINT[], OUT repeated INTEGER[])
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
BEGIN
  INSERT INTO communities (name, last_sequence)
    SELECT name, 0 FROM (SELECT DISTINCT c COLLATE "C" AS name FROM unnest(page_communities) AS c) batch ORDER BY name
    ON CONFLICT (name) DO NOTHING;
  SELECT array_agg(name), array_agg(last_sequence) INTO touched, lasts
    FROM (SELECT name, last_sequence FROM communities WHERE name = ANY (page_communities) ORDER BY name COLLATE "C" FOR UPDATE) locked;
  repeated := '{}';
  BEGIN
    INSERT INTO event_ids (community, event_id, type) SELECT * FROM unnest(id_communities, id_values, id_types);
  EXCEPTION WHEN unique_violation THEN
    SELECT coalesce(array_agg(i.n), '{}') INTO repeated FROM unnest(id_communities, id_values) WITH ORDINALITY AS i (community, event_id, n)
      WHERE (SELECT true FROM event_ids e WHERE e.community = i.community AND e.event_id = i.event_id) IS NOT NULL;
    -- Nothing is stored: the communities this call made (locked by it, empty) go again. With no
    -- id named (an erasure removed the stored one meanwhile), touched is null: the client sends
    -- the batch again as it was.
    DELETE FROM communities WHERE name = ANY (page_communities) AND last_sequence = 0;
    IF repeated = '{}' THEN
      touched := NULL; lasts := NULL;
    END IF;
    RETURN;
  END;
  INSERT INTO event_pages (community, first_sequence, last_sequence, last_time, body)
    SELECT p.community, c.last_sequence + p.offs + 1, c.last_sequence + p.offs + p.count, p.last_time, p.body
    FROM unnest(page_communities, page_offsets, page_counts, page_last_times, string_to_array(page_bodies, E'\\n')) AS p (community, offs, count, last_time, body)
    JOIN unnest(touched, lasts) AS c (name, last_sequence) ON c.name = p.community;
  INSERT INTO indexed_events (community, sequence, event_id, type, time, body)
    SELECT r.community, c.last_sequence + r.offs, r.event_id, r.type, r.time, r.body
    FROM unnest(row_communities, row_offsets, row_ids, row_types, row_times, string_to_array(row_bodies, E'\\n')) AS r (community, offs, event_id, type, time, body)
    JOIN unnest(touched, lasts) AS c (name, last_sequence) ON c.name = r.community;
  UPDATE communities c SET last_sequence = c.last_sequence + added.count
    FROM (SELECT p.community, sum(p.count) AS count FROM unnest(page_communities, page_counts) AS p (community, count) GROUP BY p.community) added
    WHERE c.name = added.community;
END
$$`;

/**
 * The append behind a partition's fence (migration 7): the fence is checked (and the partition's
 * row locked) first, and the stream sequence moves on only when the batch was stored (no id
 * named, touched not null), so a batch
 * sent again without its stored ids is never counted as applied before it is.
 */
const appendFencedFunction = `CREATE FUNCTION standing_append_fenced(
  fence_stream TEXT, fence_partition INTEGER, fence_epoch BIGINT, applied BIGINT,
  page_communities TEXT[], page_offsets INTEGER[], page_counts INTEGER[], page_last_times DOUBLE PRECISION[], page_bodies TEXT,
  id_communities TEXT[], id_values TEXT[], id_types TEXT[],
  row_communities TEXT[], row_offsets INTEGER[], row_ids TEXT[], row_types TEXT[], row_times DOUBLE PRECISION[], row_bodies TEXT,
  OUT touched TEXT[], OUT lasts BIGINT[], OUT repeated INTEGER[])
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM standing_fence(fence_stream, fence_partition, fence_epoch, NULL);
  touched := '{}'; lasts := '{}'; repeated := '{}';
  IF coalesce(array_length(page_communities, 1), 0) > 0 THEN
    SELECT a.touched, a.lasts, a.repeated INTO touched, lasts, repeated
      FROM standing_append(page_communities, page_offsets, page_counts, page_last_times, page_bodies, id_communities, id_values, id_types,
                           row_communities, row_offsets, row_ids, row_types, row_times, row_bodies) a;
  END IF;
  IF repeated = '{}' AND touched IS NOT NULL THEN
    PERFORM standing_fence(fence_stream, fence_partition, fence_epoch, applied);
  END IF;
END
$$`;

/** Migration 8's statements; `moderationIndexes` are migration 6's indexes made again on `indexed_events`. */
export const eventPagesMigration = (moderationIndexes: readonly string[]): string[] => [
  ...tables,
  ...copyRows,
  'DROP FUNCTION standing_append_fenced(TEXT, INTEGER, BIGINT, BIGINT, TEXT[], TEXT[], TEXT[], DOUBLE PRECISION[], TEXT)',
  'DROP FUNCTION standing_append(TEXT[], TEXT[], TEXT[], DOUBLE PRECISION[], TEXT)',
  'DROP TABLE events',
  ...moderationIndexes,
  appendFunction,
  appendFencedFunction,
];
