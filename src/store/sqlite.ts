/**
 * The embedded event store: one SQLite file (better-sqlite3) in WAL mode. Appends run in one
 * transaction, so a batch is stored whole or not at all, and a commit is durable when append
 * resolves (synchronous = FULL).
 */
import Database from 'better-sqlite3';
import type { StandingEvent } from '../events/types.js';
import { MIGRATIONS } from './migrations.js';
import type { AppendOutcome, Checkpoint, EventStore, StoredEvent } from './types.js';

export function openSqliteStore(path: string): EventStore {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      for (const statement of migration.sqlite) db.exec(statement);
      db.prepare('INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.description, new Date().toISOString());
    })();
  }

  const lastSequence = db.prepare('SELECT last_sequence FROM communities WHERE name = ?').pluck();
  const setSequence = db.prepare('INSERT INTO communities (name, last_sequence) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET last_sequence = excluded.last_sequence');
  const known = db.prepare('SELECT 1 FROM events WHERE community = ? AND event_id = ?').pluck();
  const insert = db.prepare('INSERT INTO events (community, sequence, event_id, type, time, body) VALUES (?, ?, ?, ?, ?, ?)');
  const readAfter = db.prepare('SELECT sequence, body FROM events WHERE community = ? AND sequence > ? ORDER BY sequence LIMIT ?');

  const appendAll = db.transaction((events: readonly StandingEvent[]): AppendOutcome => {
    const next = new Map<string, number>();
    const seen = new Set<string>();
    const appended: StoredEvent[] = [];
    let duplicates = 0;
    for (const event of events) {
      const community = event.community;
      if (event.id !== undefined) {
        const key = `${community}\u0000${event.id}`;
        if (seen.has(key) || known.get(community, event.id) !== undefined) {
          duplicates++;
          continue;
        }
        seen.add(key);
      }
      const sequence = (next.get(community) ?? ((lastSequence.get(community) as number | undefined) ?? 0)) + 1;
      next.set(community, sequence);
      insert.run(community, sequence, event.id ?? null, event.type, event.time, JSON.stringify(event));
      appended.push({ community, sequence, event });
    }
    for (const [community, sequence] of next) setSequence.run(community, sequence);
    return { appended, duplicates };
  });

  return {
    kind: 'sqlite',
    async append(events) {
      return appendAll(events);
    },
    async read(community, after = 0, limit = Number.MAX_SAFE_INTEGER) {
      return (readAfter.all(community, after, limit) as { sequence: number; body: string }[]).map((row) => ({
        community,
        sequence: row.sequence,
        event: JSON.parse(row.body) as StandingEvent,
      }));
    },
    async communities() {
      return db.prepare('SELECT name FROM communities ORDER BY name').pluck().all() as string[];
    },
    async saveCheckpoint(scorer, community, checkpoint) {
      db.prepare(
        'INSERT INTO checkpoints (scorer, community, sequence, state) VALUES (?, ?, ?, ?) ON CONFLICT (scorer, community) DO UPDATE SET sequence = excluded.sequence, state = excluded.state',
      ).run(scorer, community, checkpoint.sequence, checkpoint.state);
    },
    async loadCheckpoint(scorer, community) {
      const row = db.prepare('SELECT sequence, state FROM checkpoints WHERE scorer = ? AND community = ?').get(scorer, community) as Checkpoint | undefined;
      return row === undefined ? undefined : { sequence: row.sequence, state: row.state };
    },
    async schemaVersion() {
      return (db.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get() as number | null) ?? 0;
    },
    async close() {
      if (db.open) db.close(); // closing twice is harmless
    },
  };
}
