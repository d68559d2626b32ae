/**
 * The embedded store: one SQLite file (better-sqlite3) in WAL mode. Every write runs in one
 * transaction, so a batch is stored whole or not at all, and a commit is durable when the call
 * resolves (synchronous = FULL). An erasure leaves none of the erased bytes in the file or its
 * WAL: deletes zero what they free (secure_delete), and the WAL is checkpointed and truncated.
 */
import Database from 'better-sqlite3';
import type { StandingEvent } from '../events/types.js';
import { MIGRATIONS } from './migrations.js';
import { AppendThread } from './sqlite-append-thread.js';
import { holdSqlite } from './sqlite-hold.js';
import { appendTransaction, configureConnection } from './sqlite-append.js';
import { appendRowsOfText } from './event-texts.js';
import { busyAsTyped, writeTransaction } from './sqlite-write.js';
import { CHECKPOINT_CHUNK_CHARS, checkpointSets, chunkRows, chunksSql, type StoredChunkRow } from './checkpoint-rows.js';
import { claimFromRow, claimInForceSql, makeSecretSql, pruneClaimsSql, readSecretSql, releaseAnySql, releaseOwnSql, reportsBySql, takeClaimSql, type ClaimRow } from './access-rows.js';
import { REPORTER_SQLITE } from './access-schema.js';
import { alertFromRow, alertQuerySql, erasureOutcome, keyInsert, labelTaken, planErasure, withVerdictsOnRemovedReports, keyFromRow, keyValues, OPEN_ALERTS_SQL, pruneAlertsSql, type AlertRow, type KeyRow } from './rows.js';
import { entryFromRow, moderationQuerySql, SQLITE_JSON, type ModerationRow } from './moderation-rows.js';
import type { AlertQuery, AppendOutcome, CaseClaim, CheckpointSet, ErasureOutcome, EventRewrite, EventStore, NewAlert, SkimmedEvent, StoredEvent, StoredKey, WholeEvents } from './types.js';

function migrate(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    writeTransaction(db, () => {
      for (const statement of migration.sqlite) db.exec(statement);
      db.prepare('INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.description, new Date().toISOString());
    })();
  }
}

export interface SqliteStoreOptions {
  /**
   * Commit appends on a worker thread (the service does): the commit and its fsync then run
   * while the main thread takes further requests. Other writes stay on the main connection.
   */
  readonly appendThread?: boolean;
  /** The longest text of one checkpoint row (CHECKPOINT_CHUNK_CHARS); longer parts of a state are cut. */
  readonly checkpointChunkChars?: number;
}

/** Attempts at truncating the WAL after an erasure while a reader holds it, WAL_RETRY_MS apart. */
const WAL_ATTEMPTS = 600;
const WAL_RETRY_MS = 100;

/** Copies the WAL into the file and truncates it, unless a reader holds it (never waiting on one). */
function walTruncated(db: Database.Database): boolean {
  if (!db.open) return true;
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0'); // waiting inside SQLite would block the main thread
  try {
    return (db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[])[0]!.busy === 0;
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
}

/**
 * The WAL still holds earlier versions of the pages an erasure zeroed: copy the new ones into the
 * file and truncate the WAL to nothing. A reader in the middle of a transaction (a history
 * thread's replay) keeps the WAL until it ends: the erasure answers at once, and the truncation
 * is tried again every WAL_RETRY_MS, for up to a minute, until it goes through.
 */
function truncateWal(db: Database.Database, attempt = 1): void {
  if (walTruncated(db) || attempt === WAL_ATTEMPTS) return;
  setTimeout(() => truncateWal(db, attempt + 1), WAL_RETRY_MS).unref();
}

export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): EventStore {
  const db = new Database(path);
  configureConnection(db);
  migrate(db);

  const knownAmong = db.prepare('SELECT event_id FROM events WHERE community = ? AND event_id IN (SELECT value FROM json_each(?))').pluck();
  const knownOfType = db.prepare('SELECT event_id FROM events WHERE community = ? AND event_id IN (SELECT value FROM json_each(?)) AND type = ?').pluck();
  const readAfter = db.prepare('SELECT sequence, body FROM events WHERE community = ? AND sequence > ? ORDER BY sequence LIMIT ?');
  // The body only of the events wanted whole: of the listed types, or an action naming a domain
  // (instr spares json_type the actions that cannot name one).
  const readSkimmedAfter = db
    .prepare(
      `SELECT sequence, type, time, CASE WHEN type IN (SELECT value FROM json_each(?)) OR (? = 1 AND type = 'action' AND instr(body, '"domain"') > 0 AND json_type(body, '$.domain') IS NOT NULL) THEN body END
       FROM events WHERE community = ? AND sequence > ? ORDER BY sequence LIMIT ?`,
    )
    .raw(true);
  const appendHere = appendTransaction(db);
  const keyById = db.prepare('SELECT * FROM api_keys WHERE id = ?');
  const keyRevision = db.prepare('SELECT revision FROM api_key_revision').pluck();
  const appender = options.appendThread === true ? new AppendThread(path) : undefined;

  async function read(community: string, after = 0, limit = Number.MAX_SAFE_INTEGER, whole?: WholeEvents): Promise<SkimmedEvent[]> {
    if (whole === undefined) {
      return (readAfter.all(community, after, limit) as { sequence: number; body: string }[]).map((row) => ({
        community,
        sequence: row.sequence,
        event: JSON.parse(row.body) as StandingEvent,
      }));
    }
    const rows = readSkimmedAfter.all(JSON.stringify(whole.types), whole.domainActions ? 1 : 0, community, after, limit) as [number, string, number, string | null][];
    return rows.map(([sequence, type, time, body]) => (body === null ? { community, sequence, type, time } : { community, sequence, event: JSON.parse(body) as StandingEvent }));
  }

  async function append(events: readonly StandingEvent[]): Promise<AppendOutcome> {
    // Serialized once, as a whole: the rows are read from this one text (on the append thread, if any).
    const text = JSON.stringify(events);
    let sequences: ArrayLike<number>;
    try {
      sequences = appender === undefined ? appendHere(appendRowsOfText(text)) : await appender.append(text);
    } catch (error) {
      throw busyAsTyped(error);
    }
    const appended: StoredEvent[] = [];
    for (let i = 0; i < events.length; i++) {
      if (sequences[i]! > 0) appended.push({ community: events[i]!.community, sequence: sequences[i]!, event: events[i]! });
    }
    return { appended, duplicates: events.length - appended.length };
  }

  const chunkChars = options.checkpointChunkChars ?? CHECKPOINT_CHUNK_CHARS;
  const dropSet = db.prepare('DELETE FROM checkpoint_sets WHERE community = ?');
  const dropChunks = db.prepare('DELETE FROM checkpoint_chunks WHERE community = ?');
  const saveSet = db.prepare('INSERT INTO checkpoint_sets (community, sequence) VALUES (?, ?)');
  const saveChunk = db.prepare('INSERT INTO checkpoint_chunks (community, name, part, chunk, text) VALUES (?, ?, ?, ?, ?)');
  const replaceCheckpoints = writeTransaction(db, (checkpoints: ReadonlyMap<string, CheckpointSet>) => {
    for (const [community, checkpoint] of checkpoints) {
      dropSet.run(community);
      dropChunks.run(community);
      saveSet.run(community, checkpoint.sequence);
    }
    for (const row of chunkRows(checkpoints, chunkChars)) saveChunk.run(row.community, row.name, row.part, row.chunk, row.text);
  });
  const checkpointsOf = db.prepare(chunksSql('s.community IN (SELECT value FROM json_each(?))'));
  const tailsAfter = db.prepare(
    "SELECT e.community, e.sequence, e.body FROM json_each(?) j JOIN events e ON e.community = json_extract(j.value, '$[0]') AND e.sequence > json_extract(j.value, '$[1]') ORDER BY j.key, e.sequence",
  );
  const lastEvents = db.prepare(
    'SELECT e.community, e.sequence, e.time FROM communities c JOIN events e ON e.community = c.name AND e.sequence = (SELECT MAX(sequence) FROM events WHERE community = c.name)',
  );

  const verdictsOnReports = db.prepare(
    "SELECT community, sequence, body FROM events WHERE community = ? AND type = 'verdict' AND json_extract(body, '$.report') IN (SELECT value FROM json_each(?))",
  );
  const eraseAll = writeTransaction(db, (player: string, rewrite: EventRewrite): ErasureOutcome => {
    const rows = db.prepare('SELECT community, sequence, body FROM events WHERE instr(body, ?) > 0').all(JSON.stringify(player)) as { community: string; sequence: number; body: string }[];
    const plan = planErasure(rows, rewrite);
    const verdictRows = [...plan.removedReports].flatMap(
      ([community, reports]) => verdictsOnReports.all(community, JSON.stringify([...reports.keys()])) as { community: string; sequence: number; body: string }[],
    );
    const changes = withVerdictsOnRemovedReports(plan, verdictRows, rewrite);
    const outcome = erasureOutcome(changes);
    const remove = db.prepare('DELETE FROM events WHERE community = ? AND sequence = ?');
    const update = db.prepare('UPDATE events SET body = ?, type = ?, time = ? WHERE community = ? AND sequence = ?');
    for (const { community, sequence, event } of changes) {
      if (event === null) remove.run(community, sequence);
      else update.run(JSON.stringify(event), event.type, event.time, community, sequence);
    }
    for (const community of outcome.communities) {
      dropSet.run(community);
      dropChunks.run(community);
    }
    db.prepare('DELETE FROM alerts WHERE player = ?').run(player);
    db.prepare('DELETE FROM case_claims WHERE player = ?').run(player);
    return outcome;
  });

  const insertKey = db.prepare(keyInsert(() => '?'));
  /** Stores a key unless a live key has its label: read and written under the write lock, so two makers cannot both pass. */
  const saveKeyAlone = writeTransaction(db, (key: StoredKey) => {
    const taken = labelTaken((db.prepare('SELECT * FROM api_keys WHERE revoked_at IS NULL').all() as KeyRow[]).map(keyFromRow), key);
    if (taken !== undefined) throw taken;
    insertKey.run(...keyValues(key));
  });

  const insertAlert = db.prepare(
    'INSERT INTO alerts (community, scorer, player, threshold, kind, score, sequence, time, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *',
  );
  const appendAlerts = writeTransaction(db, (alerts: readonly NewAlert[]) => {
    const createdAt = new Date().toISOString();
    return alerts.map((a) =>
      alertFromRow(insertAlert.get(a.community, a.scorer, a.player, a.threshold, a.kind, a.score, a.sequence, a.time, createdAt) as AlertRow),
    );
  });

  const q = () => '?';
  const claimInForce = db.prepare(claimInForceSql(q));
  const takeClaim = writeTransaction(db, (claim: CaseClaim): CaseClaim => {
    db.prepare(pruneClaimsSql(q)).run(claim.claimedAt);
    db.prepare(takeClaimSql(q)).run(claim.community, claim.player, claim.moderator, claim.claimedAt, claim.until);
    return claimFromRow(claimInForce.get(claim.community, claim.player, claim.claimedAt) as ClaimRow);
  });
  const secretOf = writeTransaction(db, (name: string, made: string): string => {
    db.prepare(makeSecretSql(q)).run(name, made, new Date().toISOString());
    return db.prepare(readSecretSql(q)).pluck().get(name) as string;
  });
  const reportsBy = db.prepare(reportsBySql(q, 'events', REPORTER_SQLITE));

  return {
    kind: 'sqlite',
    append,
    read: read as EventStore['read'],
    async knownIds(community, ids, type) {
      if (ids.length === 0) return new Set();
      return new Set((type === undefined ? knownAmong.all(community, JSON.stringify(ids)) : knownOfType.all(community, JSON.stringify(ids), type)) as string[]);
    },
    async sequences() {
      const rows = db.prepare('SELECT name, last_sequence FROM communities').all() as { name: string; last_sequence: number }[];
      return new Map(rows.map((r) => [r.name, r.last_sequence]));
    },
    async communities() {
      return db.prepare('SELECT name FROM communities ORDER BY name').pluck().all() as string[];
    },
    async saveCheckpoints(community, checkpoint) {
      replaceCheckpoints(new Map([[community, checkpoint]]));
    },
    async saveCheckpointSets(checkpoints) {
      if (checkpoints.size > 0) replaceCheckpoints(checkpoints);
    },
    async loadCheckpoints(community) {
      return checkpointSets(checkpointsOf.iterate(JSON.stringify([community])) as Iterable<StoredChunkRow>).get(community);
    },
    async loadCheckpointSets(communities) {
      if (communities.length === 0) return new Map();
      return checkpointSets(checkpointsOf.iterate(JSON.stringify(communities)) as Iterable<StoredChunkRow>);
    },
    async readTails(tails) {
      if (tails.size === 0) return [];
      return (tailsAfter.all(JSON.stringify([...tails])) as { community: string; sequence: number; body: string }[]).map((row) => ({
        community: row.community,
        sequence: row.sequence,
        event: JSON.parse(row.body) as StandingEvent,
      }));
    },
    async lastEvents() {
      return new Map((lastEvents.all() as { community: string; sequence: number; time: number }[]).map((r) => [r.community, { sequence: r.sequence, time: r.time }]));
    },
    async erase(player, rewrite) {
      let outcome: ErasureOutcome;
      try {
        outcome = eraseAll(player, rewrite);
      } catch (error) {
        throw busyAsTyped(error);
      }
      truncateWal(db);
      return outcome;
    },
    async moderationEvents(query = {}) {
      const { sql, values } = moderationQuerySql(query, SQLITE_JSON, () => '?');
      return (db.prepare(sql).all(...values) as ModerationRow[]).map(entryFromRow);
    },
    async saveKey(key: StoredKey) {
      try {
        saveKeyAlone(key);
      } catch (error) {
        throw busyAsTyped(error);
      }
    },
    async findKey(id) {
      const row = keyById.get(id) as KeyRow | undefined;
      return row === undefined ? undefined : keyFromRow(row);
    },
    async listKeys() {
      return (db.prepare('SELECT * FROM api_keys ORDER BY created_at, id').all() as KeyRow[]).map(keyFromRow);
    },
    async revokeKey(id, at) {
      return db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id).changes > 0;
    },
    async keyRevision() {
      return keyRevision.get() as number;
    },
    async claimCase(claim) {
      try {
        return takeClaim(claim);
      } catch (error) {
        throw busyAsTyped(error);
      }
    },
    async caseClaim(community, player, now) {
      const row = claimInForce.get(community, player, now) as ClaimRow | undefined;
      return row === undefined ? undefined : claimFromRow(row);
    },
    async releaseCase(community, player, moderator, now) {
      try {
        const row = (moderator === undefined ? db.prepare(releaseAnySql(q)).get(community, player, now) : db.prepare(releaseOwnSql(q)).get(community, player, now, moderator)) as ClaimRow | undefined;
        return row === undefined ? undefined : claimFromRow(row);
      } catch (error) {
        throw busyAsTyped(error);
      }
    },
    async secret(name, make) {
      try {
        return secretOf(name, make());
      } catch (error) {
        throw busyAsTyped(error);
      }
    },
    async reportsBy(community, reporter, limit, before = Number.MAX_SAFE_INTEGER) {
      return (reportsBy.all(community, reporter, before, limit) as { community: string; sequence: number; body: string }[]).map((row) => ({
        community: row.community,
        sequence: row.sequence,
        event: JSON.parse(row.body) as StandingEvent,
      }));
    },
    async appendAlerts(alerts) {
      return appendAlerts(alerts);
    },
    async readAlerts(query: AlertQuery = {}) {
      const { sql, values } = alertQuerySql(query, () => '?');
      return (db.prepare(sql).all(...values) as AlertRow[]).map(alertFromRow);
    },
    async pruneAlerts(before) {
      return db.prepare(pruneAlertsSql('?')).run(before).changes;
    },
    async openAlerts() {
      return (db.prepare(OPEN_ALERTS_SQL).all() as AlertRow[]).map(alertFromRow);
    },
    async hold(role) {
      return holdSqlite(path, role);
    },
    async schemaVersion() {
      return (db.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get() as number | null) ?? 0;
    },
    async close() {
      await appender?.close();
      if (db.open) db.close(); // closing twice is harmless
    },
  };
}
