/**
 * EXPERIMENT (issue 18, point 6), not part of `npm run bench`: how much
 * PostgreSQL server CPU an appended event costs in candidate storage layouts of the event log.
 *
 *   npx tsx bench/experiments/pg-event-layouts.ts [candidate-name-prefix …] [--reps N] [--workload service|spread]
 *
 * (PGFAST_VERIFY_ALL=1 runs the duplicate checks on the candidates that claim no idempotency
 * too: they fail there, which shows the checks can fail.)
 *
 * Each run gets a fresh schema (pgfast_<pid>_…, dropped after it) holding one candidate layout,
 * appends the same seeded event stream to it, and reports the CPU time (utime + stime from
 * /proc/<pid>/stat, and the nanosecond on-CPU time from /proc/<pid>/schedstat) of the PostgreSQL
 * backends serving its connections (pg_backend_pid() on each), per event: robust to other load on
 * the machine, as long as PostgreSQL runs on this machine. Also the client's wall events/s and the
 * bytes of the candidate's tables and indexes per event, and the backend CPU per id of knownIds
 * queries of 100 stored ids (as the service asks before each append). Before measuring, each candidate that
 * claims idempotency is checked: the same ids appended twice, ids repeated within a batch (dropped
 * by the client, the first kept, as src/store/postgres.ts does), and two connections appending
 * overlapping ids to one community at once.
 *
 * Workloads:
 *   service: what bench part 6 gives PostgreSQL: one community, one connection, groups of 8 HTTP
 *            batches of 100 (the service commits one group at a time), the bench's event mix.
 *   spread:  4 connections, each appending batches of 1,000 events over its own 100 communities
 *            (as cluster workers own disjoint partitions).
 *
 * Candidates: see CANDIDATES below. Background work PostgreSQL does later (autovacuum, the WAL
 * writer, the checkpointer) is not counted; autovacuum is off on each candidate's tables, and the
 * GIN candidates' pending-list cleanup is run on a measured connection before the CPU is read.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { firstOfEachId } from '../../src/store/first-of-each-id.js';
import { seededRng } from '../../src/util/random.js';

const POSTGRES = process.env.STANDING_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Ev {
  type: string;
  id?: string;
  time: number;
  community: string;
  [field: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// The event stream: bench/service.ts's batch mix, with the community set as validation sets it.

const PLAYERS = 10_000;

function makeEvent(rng: () => number, n: number, i: number, community: string): Ev {
  const p = () => `p${Math.floor(rng() * PLAYERS)}`;
  const id = `b${n}-${i}`;
  const time = 1_700_000_000_000 + n * 1000;
  const r = rng();
  if (r < 0.6) return { type: 'action', id, time, player: p(), delta: Math.round(rng() * 60 - 30), community };
  if (r < 0.75) return { type: 'chat', id, time, from: p(), to: [p()], community };
  if (r < 0.85) {
    const from = Math.floor(rng() * PLAYERS);
    return { type: 'rating', id, time, from: `p${from}`, to: `p${(from + 1 + Math.floor(rng() * 50)) % PLAYERS}`, value: rng() < 0.8 ? 1 : -1, community };
  }
  if (r < 0.9) return { type: 'report', id, time, from: p(), to: p(), community };
  const a = Math.floor(rng() * PLAYERS);
  return { type: 'match.start', id, time, match: `m${n}-${i}`, players: [`p${a}`, `p${(a + 1) % PLAYERS}`], community };
}

interface Workload {
  readonly name: string;
  readonly describe: string;
  /** Per connection, its batches in order. */
  streams(): Ev[][][];
  /** Batches per connection appended before the CPU is read (not counted). */
  readonly warmup: number;
}

const WORKLOADS: Record<string, Workload> = {
  service: {
    name: 'service',
    describe: '1 connection, 1 community, batches of 800 (8 × 100)',
    warmup: 5,
    streams() {
      const rng = seededRng(6);
      const batches: Ev[][] = [];
      for (let b = 0; b < 305; b++) batches.push(Array.from({ length: 800 }, (_, i) => makeEvent(rng, b, i, 'default')));
      return [batches];
    },
  },
  spread: {
    name: 'spread',
    describe: '4 connections, each 100 own communities, batches of 1,000',
    warmup: 5,
    streams() {
      return Array.from({ length: 4 }, (_, c) => {
        const rng = seededRng(100 + c);
        const batches: Ev[][] = [];
        for (let b = 0; b < 65; b++) {
          batches.push(Array.from({ length: 1000 }, (_, i) => makeEvent(rng, c * 1_000_000 + b, i, `guild-${c}-${String(Math.floor(rng() * 100)).padStart(3, '0')}`)));
        }
        return batches;
      });
    },
  },
};

// ---------------------------------------------------------------------------------------------
// Candidates.

interface Outcome {
  readonly appended: number;
  readonly duplicates: number;
  /** Per community, the sequences the stored events took, in batch order. */
  readonly sequences: Map<string, number[]>;
}

interface StoredEv {
  readonly sequence: number;
  readonly event: Ev;
}

interface Candidate {
  readonly name: string;
  readonly describe: string;
  /** Whether it rejects an id already stored (the check runs only where it claims to). */
  readonly idempotent: boolean;
  /** Schema DDL, run with search_path set to the run's schema. */
  setup(workload: string): string[];
  /** Its tables (their heap, TOAST and indexes are measured). */
  readonly tables: readonly string[];
  append(client: pg.Client, events: readonly Ev[]): Promise<Outcome>;
  read(client: pg.Client, community: string, after: number): Promise<StoredEv[]>;
  /** Work PostgreSQL deferred that the inserting backends would otherwise leave (run on a measured connection). */
  readonly finish?: readonly string[];
  /** Measured only when named on the command line (see its description). */
  readonly onlyWhenNamed?: boolean;
  /** The knownIds query (community $1, ids $2), where the layout has an exact id index. */
  readonly knownIdsSql?: string;
}

/** The batch less ids repeated within it (per community, the first kept), as src/store/postgres.ts sends it. */
const dedupe = (events: readonly Ev[]): Ev[] => firstOfEachId(events);

/** Sequences of `sent` less the 1-based positions in `repeated`, from each community's last before the batch. */
function sequencesOf(sent: readonly Ev[], touched: string[], lasts: string[], repeated: readonly number[]): Map<string, number[]> {
  const last = new Map(touched.map((c, i) => [c, Number(lasts[i])]));
  const skip = new Set(repeated);
  const out = new Map<string, number[]>();
  sent.forEach((event, i) => {
    if (skip.has(i + 1)) return;
    const s = last.get(event.community)! + 1;
    last.set(event.community, s);
    let list = out.get(event.community);
    if (list === undefined) out.set(event.community, (list = []));
    list.push(s);
  });
  return out;
}

const count = (m: Map<string, number[]>) => [...m.values()].reduce((n, l) => n + l.length, 0);

const NO_TOAST_COMPRESSION = 'ALTER TABLE event_pages ALTER COLUMN body SET STORAGE EXTERNAL';

/** Rows: the schema before migration 8 (migrations 1 to 7), its standing_append function as src/store/postgres.ts called it then. */
const baseline: Candidate = {
  name: 'A-rows',
  describe: 'events as rows, before migration 8 (PK + unique id index + partial moderation indexes), standing_append',
  idempotent: true,
  setup: () => [
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)',
    ...MIGRATIONS.filter((m) => m.version <= 7).flatMap((m) => m.postgres),
    'ALTER TABLE events SET (autovacuum_enabled = false)',
  ],
  tables: ['events', 'communities'],
  knownIdsSql: 'SELECT event_id FROM events WHERE community = $1 AND event_id = ANY($2)',
  async append(client, events) {
    const sent = dedupe(events);
    const bodies = sent.map((event) => JSON.stringify(event)).join('\n');
    const { rows } = await client.query<{ touched: string[]; lasts: string[]; repeated: number[] }>({
      name: 'standing-append',
      text: 'SELECT * FROM standing_append($1::text[], $2::text[], $3::text[], $4::float8[], $5::text)',
      values: [sent.map((e) => e.community), sent.map((e) => e.id ?? null), sent.map((e) => e.type), sent.map((e) => e.time), bodies],
    });
    const { touched, lasts, repeated } = rows[0]!;
    const sequences = sequencesOf(sent, touched, lasts, repeated);
    return { appended: count(sequences), duplicates: events.length - count(sequences), sequences };
  },
  async read(client, community, after) {
    const { rows } = await client.query<{ sequence: string; body: string }>('SELECT sequence, body FROM events WHERE community = $1 AND sequence > $2 ORDER BY sequence', [community, after]);
    return rows.map((r) => ({ sequence: Number(r.sequence), event: JSON.parse(r.body) as Ev }));
  },
};

const ROWS_TABLES = [
  'CREATE TABLE communities (name TEXT COLLATE "C" PRIMARY KEY, last_sequence BIGINT NOT NULL)',
  `CREATE TABLE events (community TEXT COLLATE "C" NOT NULL, sequence BIGINT NOT NULL, event_id TEXT COLLATE "C", type TEXT NOT NULL,
     time DOUBLE PRECISION NOT NULL, body TEXT NOT NULL, PRIMARY KEY (community, sequence)) WITH (autovacuum_enabled = false)`,
];

/** Locks the batch's communities (created first) in name order in an explicit transaction; their last sequences. */
async function lockCommunities(client: pg.Client, communities: readonly string[]): Promise<Map<string, number>> {
  const names = [...new Set(communities)];
  await client.query({ name: 'create-communities', text: 'INSERT INTO communities (name, last_sequence) SELECT n, 0 FROM unnest($1::text[]) AS n ORDER BY n COLLATE "C" ON CONFLICT (name) DO NOTHING', values: [names] });
  const { rows } = await client.query<{ name: string; last_sequence: string }>({
    name: 'lock-communities',
    text: 'SELECT name, last_sequence FROM communities WHERE name = ANY ($1::text[]) ORDER BY name FOR UPDATE',
    values: [names],
  });
  return new Map(rows.map((r) => [r.name, Number(r.last_sequence)]));
}

/** Rows as before migration 8, no function: the client takes the sequences under the lock and sends one unnest INSERT (duplicates fail the batch). */
function plainRows(name: string, withIdIndex: boolean): Candidate {
  return {
    name,
    describe: withIdIndex ? 'events rows, PK + unique id index, plain unnest INSERT (no plpgsql; a duplicate fails the batch)' : 'events rows, PK only (no id index): the row layout\'s floor, no idempotency',
    idempotent: false,
    setup: () => [...ROWS_TABLES, ...(withIdIndex ? ['CREATE UNIQUE INDEX events_by_id ON events (community, event_id) WHERE event_id IS NOT NULL'] : [])],
    tables: ['events', 'communities'],
    async append(client, events) {
      const sent = dedupe(events);
      await client.query('BEGIN');
      try {
        const last = await lockCommunities(client, sent.map((e) => e.community));
        const seqs = sent.map((e) => {
          const s = last.get(e.community)! + 1;
          last.set(e.community, s);
          return s;
        });
        await client.query({
          name: 'insert-rows',
          text: 'INSERT INTO events (community, sequence, event_id, type, time, body) SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::float8[], string_to_array($6::text, E\'\\n\'))',
          values: [sent.map((e) => e.community), seqs, sent.map((e) => e.id ?? null), sent.map((e) => e.type), sent.map((e) => e.time), sent.map((e) => JSON.stringify(e)).join('\n')],
        });
        await client.query({ name: 'set-lasts', text: 'UPDATE communities c SET last_sequence = l.last FROM unnest($1::text[], $2::bigint[]) AS l (name, last) WHERE c.name = l.name', values: [[...last.keys()], [...last.values()]] });
        await client.query('COMMIT');
        const sequences = new Map<string, number[]>();
        sent.forEach((e, i) => {
          let l = sequences.get(e.community);
          if (l === undefined) sequences.set(e.community, (l = []));
          l.push(seqs[i]!);
        });
        return { appended: sent.length, duplicates: events.length - sent.length, sequences };
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
    read: baseline.read,
  };
}

/**
 * Pages: one row per (community, batch), the events of that community in the batch as one JSON
 * array text, covering sequences first_sequence … last_sequence in array order. The client groups
 * the batch into pages; the function locks the communities, records the ids (per `ids`), and
 * inserts the pages. When an id was stored before, nothing is stored: the function answers the
 * positions of the repeated events and the client sends the batch again without them.
 */
type IdLayout = 'table' | 'table sorted' | 'table+sequence' | 'unlogged' | 'hash' | 'gin' | 'gin-fastupdate' | 'none';

const ID_TABLE = (ids: IdLayout): boolean => ids === 'table' || ids === 'table sorted' || ids === 'table+sequence' || ids === 'unlogged' || ids === 'hash';

/** The 64-bit hash of (community, id) the hash layout keys by (not exact: a collision would drop an event as a duplicate). */
const HASH = (community: string, id: string) => `hashtextextended(${community} || E'\\x1f' || ${id}, 0)`;

const LOCK = `
  INSERT INTO communities (name, last_sequence)
    SELECT name, 0 FROM (SELECT DISTINCT c COLLATE "C" AS name FROM unnest(page_communities) AS c) batch ORDER BY name
    ON CONFLICT (name) DO NOTHING;
  SELECT array_agg(name), array_agg(last_sequence) INTO touched, lasts
    FROM (SELECT name, last_sequence FROM communities WHERE name = ANY (page_communities) ORDER BY name COLLATE "C" FOR UPDATE) locked;
  repeated := '{}';`;

const INSERT_PAGES = (withIds: boolean) => `
  INSERT INTO event_pages (community, first_sequence, last_sequence, body${withIds ? ', ids' : ''})
    SELECT p.community, c.last_sequence + 1, c.last_sequence + p.count, p.body${withIds ? ', event_ids[p.id_start : p.id_start + p.id_count - 1]' : ''}
    FROM unnest(page_communities, page_counts, string_to_array(page_bodies, E'\\n'), page_id_starts, page_id_counts) AS p (community, count, body, id_start, id_count)
    JOIN unnest(touched, lasts) AS c (name, last_sequence) ON c.name = p.community;
  UPDATE communities c SET last_sequence = c.last_sequence + p.count FROM unnest(page_communities, page_counts) AS p (name, count) WHERE c.name = p.name;`;

function pagesFunction(ids: IdLayout): string {
  let check = '';
  if (ID_TABLE(ids)) {
    const insert =
      ids === 'table' || ids === 'unlogged'
        ? 'INSERT INTO event_ids (community, event_id) SELECT * FROM unnest(event_communities, event_ids)'
        : ids === 'table sorted'
          ? 'INSERT INTO event_ids (community, event_id) SELECT * FROM unnest(event_communities, event_ids) AS i (c, e) ORDER BY c, e'
          : ids === 'hash'
          ? `INSERT INTO event_ids (h) SELECT ${HASH('c', 'i')} FROM unnest(event_communities, event_ids) AS x (c, i)`
          : `INSERT INTO event_ids (community, event_id, sequence)
             SELECT i.community, i.event_id, c.last_sequence + i.offs FROM unnest(event_communities, event_ids, event_offsets) AS i (community, event_id, offs)
             JOIN unnest(touched, lasts) AS c (name, last_sequence) ON c.name = i.community`;
    check = `
  BEGIN
    ${insert};
  EXCEPTION WHEN unique_violation THEN
    SELECT coalesce(array_agg(i.n), '{}') INTO repeated FROM unnest(event_communities, event_ids) WITH ORDINALITY AS i (community, event_id, n)
      WHERE (SELECT true FROM event_ids e WHERE ${ids === 'hash' ? `e.h = ${HASH('i.community', 'i.event_id')}` : 'e.community = i.community AND e.event_id = i.event_id'}) IS NOT NULL;
    IF repeated = '{}' THEN RAISE EXCEPTION 'an id repeated within the batch'; END IF;
    RETURN;
  END;`;
  } else if (ids === 'gin' || ids === 'gin-fastupdate') {
    check = `
  SELECT coalesce(array_agg(i.n), '{}') INTO repeated
    FROM unnest(event_communities, event_ids) WITH ORDINALITY AS i (community, event_id, n)
    JOIN (SELECT p.community, x.id FROM event_pages p CROSS JOIN LATERAL unnest(p.ids) AS x (id) WHERE p.ids && event_ids) found
      ON found.community = i.community AND found.id = i.event_id;
  IF repeated <> '{}' THEN RETURN; END IF;`;
  }
  return `CREATE FUNCTION pages_append(
  page_communities TEXT[], page_counts INTEGER[], page_bodies TEXT, page_id_starts INTEGER[], page_id_counts INTEGER[],
  event_communities TEXT[], event_ids TEXT[], event_offsets INTEGER[],
  OUT touched TEXT[], OUT lasts BIGINT[], OUT repeated INTEGER[])
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
BEGIN
${LOCK}
${check}
${INSERT_PAGES(ids === 'gin' || ids === 'gin-fastupdate')}
END
$$`;
}

function pages(name: string, ids: IdLayout, describe: string, compression: 'external' | 'lz4' = 'external'): Candidate {
  const withGin = ids === 'gin' || ids === 'gin-fastupdate';
  return {
    name,
    onlyWhenNamed: ids === 'gin-fastupdate',
    describe,
    idempotent: ids !== 'none',
    setup: () => [
      'CREATE TABLE communities (name TEXT COLLATE "C" PRIMARY KEY, last_sequence BIGINT NOT NULL)',
      `CREATE TABLE event_pages (community TEXT COLLATE "C" NOT NULL, first_sequence BIGINT NOT NULL, last_sequence BIGINT NOT NULL, body TEXT NOT NULL${withGin ? ', ids TEXT[] COLLATE "C" NOT NULL' : ''},
         PRIMARY KEY (community, first_sequence)) WITH (autovacuum_enabled = false, toast.autovacuum_enabled = false)`,
      compression === 'external' ? NO_TOAST_COMPRESSION : 'ALTER TABLE event_pages ALTER COLUMN body SET COMPRESSION lz4',
      ...(ids === 'hash' ? ['CREATE TABLE event_ids (h BIGINT PRIMARY KEY) WITH (autovacuum_enabled = false)'] : []),
      // Unlogged: no WAL, emptied by a crash (and absent on a standby): the store would rebuild it from the pages' ids before appending.
      ...(ids === 'unlogged' ? ['CREATE UNLOGGED TABLE event_ids (community TEXT COLLATE "C" NOT NULL, event_id TEXT COLLATE "C" NOT NULL, PRIMARY KEY (community, event_id)) WITH (autovacuum_enabled = false)'] : []),
      ...(ids === 'table' || ids === 'table sorted' ? ['CREATE TABLE event_ids (community TEXT COLLATE "C" NOT NULL, event_id TEXT COLLATE "C" NOT NULL, PRIMARY KEY (community, event_id)) WITH (autovacuum_enabled = false)'] : []),
      ...(ids === 'table+sequence'
        ? ['CREATE TABLE event_ids (community TEXT COLLATE "C" NOT NULL, event_id TEXT COLLATE "C" NOT NULL, sequence BIGINT NOT NULL, PRIMARY KEY (community, event_id)) WITH (autovacuum_enabled = false)']
        : []),
      ...(withGin ? [`CREATE INDEX event_pages_ids ON event_pages USING gin (ids) WITH (fastupdate = ${ids === 'gin-fastupdate' ? 'on' : 'off'})`] : []),
      pagesFunction(ids),
    ],
    tables: ['event_pages', 'communities', ...(ID_TABLE(ids) ? ['event_ids'] : [])],
    ...(ID_TABLE(ids) && ids !== 'hash' ? { knownIdsSql: 'SELECT event_id FROM event_ids WHERE community = $1 AND event_id = ANY($2)' } : {}),
    finish: ids === 'gin-fastupdate' ? ["SELECT gin_clean_pending_list('event_pages_ids'::regclass)"] : [],
    async append(client, events) {
      let sent = dedupe(events);
      for (;;) {
        // Group by community in batch order: pages, and each id's offset within its page.
        const byCommunity = new Map<string, Ev[]>();
        for (const e of sent) {
          let l = byCommunity.get(e.community);
          if (l === undefined) byCommunity.set(e.community, (l = []));
          l.push(e);
        }
        const pageCommunities: string[] = [];
        const pageCounts: number[] = [];
        const pageBodies: string[] = [];
        const idStarts: number[] = [];
        const idCounts: number[] = [];
        const eventCommunities: string[] = [];
        const eventIds: string[] = [];
        const offsets: number[] = [];
        /** Position in `sent` (1-based) of each id sent, to map `repeated` back. */
        const positionOfId: number[] = [];
        const positionInSent = new Map<Ev, number>(sent.map((e, i) => [e, i + 1]));
        for (const [community, list] of byCommunity) {
          pageCommunities.push(community);
          pageCounts.push(list.length);
          pageBodies.push(`[${list.map((e) => JSON.stringify(e)).join(',')}]`);
          idStarts.push(eventIds.length + 1);
          let n = 0;
          list.forEach((e, k) => {
            if (e.id === undefined) return;
            eventCommunities.push(community);
            eventIds.push(e.id);
            offsets.push(k + 1);
            positionOfId.push(positionInSent.get(e)!);
            n++;
          });
          idCounts.push(n);
        }
        const { rows } = await client.query<{ touched: string[]; lasts: string[]; repeated: number[] }>({
          name: 'pages-append',
          text: 'SELECT * FROM pages_append($1::text[], $2::int[], $3::text, $4::int[], $5::int[], $6::text[], $7::text[], $8::int[])',
          values: [pageCommunities, pageCounts, pageBodies.join('\n'), idStarts, idCounts, eventCommunities, eventIds, offsets],
        });
        const { touched, lasts, repeated } = rows[0]!;
        if (repeated.length > 0) {
          const drop = new Set(repeated.map((n) => positionOfId[n - 1]!));
          sent = sent.filter((_, i) => !drop.has(i + 1));
          continue;
        }
        // Pages put each community's events in batch order: the sequences are as for rows.
        const sequences = sequencesOf(sent, touched ?? [], lasts ?? [], []);
        return { appended: count(sequences), duplicates: events.length - count(sequences), sequences };
      }
    },
    async read(client, community, after) {
      // The page holding after + 1, and every later one (the PK, from one lookup).
      const { rows } = await client.query<{ first_sequence: string; body: string }>(
        `SELECT first_sequence, body FROM event_pages WHERE community = $1 AND first_sequence >=
           coalesce((SELECT first_sequence FROM event_pages WHERE community = $1 AND first_sequence <= $2 + 1 ORDER BY first_sequence DESC LIMIT 1), 0)
         ORDER BY first_sequence`,
        [community, after],
      );
      const out: StoredEv[] = [];
      for (const row of rows) {
        const list = JSON.parse(row.body) as (Ev | null)[];
        list.forEach((event, k) => {
          const sequence = Number(row.first_sequence) + k;
          if (event !== null && sequence > after) out.push({ sequence, event });
        });
      }
      return out;
    },
  };
}

const CANDIDATES: readonly Candidate[] = [
  baseline,
  plainRows('A1-rows-plain', true),
  plainRows('A0-rows-no-id', false),
  pages('B-pages+ids', 'table', 'pages (JSON array text, TOAST uncompressed) + event_ids (community, event_id) PK'),
  pages('Bs-pages+ids+seq', 'table+sequence', 'as B, event_ids also holds each id\'s sequence (knownIds by type, report lookups)'),
  pages('Bz-pages+ids lz4', 'table', 'as B, page bodies lz4-compressed in TOAST', 'lz4'),
  pages('Bo-pages+ids sorted', 'table sorted', 'as B, the ids inserted in key order'),
  pages('Bzs-pages lz4+ids+seq', 'table+sequence', 'Bs and Bz together: lz4 page bodies, event_ids with sequences', 'lz4'),
  pages('Bu-pages+unlogged ids', 'unlogged', 'as B, event_ids UNLOGGED (no WAL; after a crash rebuilt from the pages before appending)'),
  pages('Bh-pages+id hashes', 'hash', 'as B, event_ids keyed by a 64-bit hash of (community, id) alone (not exact as measured)'),
  pages('C-pages+gin', 'gin', 'pages with ids TEXT[] and a GIN index (fastupdate off), duplicates found by && before the insert'),
  // Pathological: with fastupdate every page in the pending list is a candidate of the && check,
  // rechecked by arrayoverlap (ids × batch ids text comparisons): one batch of the service
  // workload ran for minutes. Measured only when named.
  pages('Cf-pages+gin fastupdate', 'gin-fastupdate', 'as C, GIN fastupdate on (pending list cleaned on a measured connection at the end)'),
  pages('D-pages only', 'none', 'pages, no durable id index: a lower bound, no idempotency'),
];

// ---------------------------------------------------------------------------------------------
// Running.

let schemaCounter = 0;

async function withSchema<T>(body: (url: string, schema: string) => Promise<T>): Promise<T> {
  const schema = `pgfast_${process.pid}_${schemaCounter++}`;
  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.query(`CREATE SCHEMA ${schema}`);
  try {
    return await body(`${POSTGRES}?options=${encodeURIComponent(`-c search_path=${schema}`)}`, schema);
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

async function setup(url: string, candidate: Candidate, workload: string): Promise<void> {
  const client = await connect(url);
  try {
    await client.query('BEGIN');
    for (const statement of candidate.setup(workload)) await client.query(statement);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

function assert(condition: boolean, message: string): void {
  if (!condition) throw new Error(`check failed: ${message}`);
}

/** The duplicate checks; throws on the first wrong answer. */
async function verify(candidate: Candidate): Promise<string> {
  return withSchema(async (url) => {
    await setup(url, candidate, 'verify');
    const [a, b] = [await connect(url), await connect(url)];
    try {
      const ev = (id: string, community: string, note = ''): Ev => ({ type: 'action', id, time: 1, player: `p-${id}${note}`, delta: 1, community });
      const first = [ev('x1', 'v'), ev('y1', 'w'), ev('x2', 'v'), ev('x3', 'v'), ev('y2', 'w')];
      const o1 = await candidate.append(a, first);
      assert(o1.appended === 5 && o1.duplicates === 0, `first batch: ${JSON.stringify(o1)}`);
      const o2 = await candidate.append(a, first);
      assert(o2.appended === 0 && o2.duplicates === 5, `same batch again: ${o2.appended} appended`);
      const o3 = await candidate.append(a, [ev('x4', 'v'), ev('x1', 'v', 'again'), ev('x4', 'v', 'within'), ev('y3', 'w'), ev('x5', 'v'), ev('x1', 'w')]);
      assert(o3.appended === 4 && o3.duplicates === 2, `mixed batch: ${JSON.stringify({ ...o3, sequences: [...o3.sequences] })}`);
      assert(JSON.stringify(o3.sequences.get('v')) === '[4,5]' && JSON.stringify(o3.sequences.get('w')) === '[3,4]', `mixed batch sequences ${JSON.stringify([...o3.sequences])}`);
      const v = await candidate.read(a, 'v', 0);
      assert(JSON.stringify(v.map((s) => [s.sequence, s.event.id])) === '[[1,"x1"],[2,"x2"],[3,"x3"],[4,"x4"],[5,"x5"]]', `read v: ${JSON.stringify(v.map((s) => [s.sequence, s.event.id]))}`);
      assert(v[0]!.event.player === 'p-x1' && v[3]!.event.player === 'p-x4', 'the first of repeated ids is the one stored');
      const tail = await candidate.read(a, 'v', 3);
      assert(JSON.stringify(tail.map((s) => s.sequence)) === '[4,5]', `read v after 3: ${JSON.stringify(tail.map((s) => s.sequence))}`);
      // Two connections, overlapping ids in one community, at once, many times.
      let stored = 0;
      for (let round = 0; round < 20; round++) {
        const ids = (from: number) => Array.from({ length: 50 }, (_, i) => ev(`r${round}-${from + i}`, 'race'));
        const [ra, rb] = await Promise.all([candidate.append(a, ids(0)), candidate.append(b, ids(25))]);
        stored += ra.appended + rb.appended;
        assert(ra.appended + rb.appended === 75, `race round ${round}: ${ra.appended} + ${rb.appended} stored of 75 distinct ids`);
      }
      const race = await candidate.read(a, 'race', 0);
      assert(race.length === stored && race.every((s, i) => s.sequence === i + 1), 'race: gapless, every stored event once');
      assert(new Set(race.map((s) => s.event.id)).size === race.length, 'race: no id twice');
      return 'duplicates rejected (stored ids, ids within a batch, concurrent overlapping appends), sequences gapless';
    } finally {
      await a.end();
      await b.end();
    }
  });
}

interface Cpu {
  ticks: number;
  ns: number;
}

function cpuOf(pid: number): Cpu {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from the 3rd on
  const ticks = Number(fields[11]) + Number(fields[12]); // utime (14th), stime (15th)
  const ns = Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
  return { ticks, ns };
}

const TICK_US = 1e6 / 100; // CLK_TCK is 100 on Linux

interface Measured {
  candidate: string;
  workload: string;
  events: number;
  /** Backend CPU per event from utime + stime, µs. */
  tickUs: number;
  /** Backend on-CPU time per event from schedstat, µs. */
  schedUs: number;
  eventsPerSecond: number;
  bytesPerEvent: number;
  /** Backend CPU per id of knownIds queries (100 ids each, every id stored), µs; NaN without an exact id index. */
  knownIdUs: number;
}

async function measure(candidate: Candidate, workload: Workload, streams: Ev[][][]): Promise<Measured> {
  return withSchema(async (url) => {
    await setup(url, candidate, workload.name);
    const clients = await Promise.all(streams.map(() => connect(url)));
    try {
      const pids = await Promise.all(clients.map(async (c) => (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid));
      await Promise.all(streams.map(async (batches, k) => {
        for (const batch of batches.slice(0, workload.warmup)) await candidate.append(clients[k]!, batch);
      }));
      const before = pids.map(cpuOf);
      const started = process.hrtime.bigint();
      const counted = await Promise.all(
        streams.map(async (batches, k) => {
          let n = 0;
          for (const batch of batches.slice(workload.warmup)) n += (await candidate.append(clients[k]!, batch)).appended;
          return n;
        }),
      );
      const wall = Number(process.hrtime.bigint() - started) / 1e9;
      for (const statement of candidate.finish ?? []) await clients[0]!.query(statement);
      const after = pids.map(cpuOf);
      const events = counted.reduce((a, b) => a + b, 0);
      const ticks = after.reduce((s, c, i) => s + c.ticks - before[i]!.ticks, 0);
      const ns = after.reduce((s, c, i) => s + c.ns - before[i]!.ns, 0);
      const sizes = await clients[0]!.query<{ bytes: string }>('SELECT sum(pg_total_relation_size(t::regclass)) AS bytes FROM unnest($1::text[]) AS t', [[...candidate.tables]]);
      const total = streams.reduce((s, b) => s + b.reduce((t, batch) => t + batch.length, 0), 0);
      // knownIds as the service asks it before each append (group-commit.ts): 100 ids a query.
      let knownIdUs = NaN;
      if (candidate.knownIdsSql !== undefined) {
        const probes = streams[0]!.slice(-100).flat().filter((e) => e.id !== undefined);
        const start = cpuOf(pids[0]!).ns;
        for (let i = 0; i < probes.length; i += 100) {
          const chunk = probes.slice(i, i + 100);
          const { rows } = await clients[0]!.query<{ event_id: string }>({ name: 'known-ids', text: candidate.knownIdsSql, values: [chunk[0]!.community, chunk.filter((e) => e.community === chunk[0]!.community).map((e) => e.id)] });
          if (rows.length === 0) throw new Error('knownIds found none of the stored ids');
        }
        knownIdUs = (cpuOf(pids[0]!).ns - start) / 1000 / probes.length;
      }
      return {
        knownIdUs,
        candidate: candidate.name,
        workload: workload.name,
        events,
        tickUs: (ticks * TICK_US) / events,
        schedUs: ns / 1000 / events,
        eventsPerSecond: events / wall,
        bytesPerEvent: Number(sizes.rows[0]!.bytes) / total,
      };
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const repsAt = args.indexOf('--reps');
  const reps = repsAt >= 0 ? Number(args[repsAt + 1]) : 3;
  const workloadAt = args.indexOf('--workload');
  const workloads = workloadAt >= 0 ? [WORKLOADS[args[workloadAt + 1]!]!] : Object.values(WORKLOADS);
  const names = args.filter((a, i) => !a.startsWith('--') && (i === 0 || !args[i - 1]!.startsWith('--')));
  const chosen = names.length === 0 ? CANDIDATES.filter((c) => c.onlyWhenNamed !== true) : CANDIDATES.filter((c) => names.some((n) => c.name.startsWith(n)));

  for (const candidate of chosen) {
    if (candidate.idempotent || process.env.PGFAST_VERIFY_ALL === '1') console.log(`${candidate.name}: ${await verify(candidate)}`);
  }
  const results: Measured[] = [];
  for (const workload of workloads) {
    const streams = workload.streams();
    for (let r = 0; r < reps; r++) {
      // Candidates interleaved within a repetition, so a burst of other load hits all alike.
      for (const candidate of chosen) {
        const m = await measure(candidate, workload, streams);
        results.push(m);
        console.log(
          `  ${workload.name} rep ${r + 1} ${candidate.name.padEnd(24)} ${m.tickUs.toFixed(2)} µs/event (ticks) ${m.schedUs.toFixed(2)} µs/event (schedstat) ${Math.round(m.eventsPerSecond)} events/s ${m.bytesPerEvent.toFixed(0)} B/event knownIds ${m.knownIdUs.toFixed(2)} µs/id`,
        );
      }
    }
  }
  console.log('\n| workload | candidate | server CPU µs/event, median (utime+stime) | min | (schedstat median) | wall events/s, median | bytes/event | knownIds µs/id | layout |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const workload of workloads) {
    for (const candidate of chosen) {
      const runs = results.filter((m) => m.workload === workload.name && m.candidate === candidate.name);
      if (runs.length === 0) continue;
      console.log(
        `| ${workload.name} | ${candidate.name} | ${median(runs.map((m) => m.tickUs)).toFixed(2)} | ${Math.min(...runs.map((m) => m.tickUs)).toFixed(2)} | ${median(runs.map((m) => m.schedUs)).toFixed(2)} | ${Math.round(median(runs.map((m) => m.eventsPerSecond)))} | ${median(runs.map((m) => m.bytesPerEvent)).toFixed(0)} | ${candidate.knownIdsSql === undefined ? '' : median(runs.map((m) => m.knownIdUs)).toFixed(2)} | ${candidate.describe} |`,
      );
    }
  }
  console.log(`\nWorkloads: ${workloads.map((w) => `${w.name}: ${w.describe}`).join('; ')}. Medians of ${reps} runs.`);
}

await main();
