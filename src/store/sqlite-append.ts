/**
 * The SQLite append transaction, shared by the store (in its own thread) and the append worker:
 * each row gets the next sequence of its community unless its id is already stored (the unique
 * index turns it away: no row, no sequence used); any other failure undoes the whole batch. Returns each row's sequence, 0 for a repeat.
 */
import type Database from 'better-sqlite3';
import { writeTransaction } from './sqlite-write.js';

/** One event as the events table stores it. */
export type AppendRow = readonly [community: string, eventId: string | null, type: string, time: number, body: string];

export function appendTransaction(db: Database.Database): (rows: readonly AppendRow[]) => number[] {
  const lastSequence = db.prepare('SELECT last_sequence FROM communities WHERE name = ?').pluck();
  const setSequence = db.prepare('INSERT INTO communities (name, last_sequence) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET last_sequence = excluded.last_sequence');
  // DO NOTHING covers uniqueness only (a repeated id); OR IGNORE would also drop a row that
  // breaks NOT NULL, leaving a batch half stored.
  const insert = db.prepare('INSERT INTO events (community, sequence, event_id, type, time, body) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING');
  // The write lock first: another connection's write (alerts, checkpoints, keys) is waited for.
  return writeTransaction(db, (rows: readonly AppendRow[]): number[] => {
    const next = new Map<string, number>();
    const sequences: number[] = [];
    for (const [community, eventId, type, time, body] of rows) {
      const sequence = (next.get(community) ?? ((lastSequence.get(community) as number | undefined) ?? 0)) + 1;
      if (insert.run(community, sequence, eventId, type, time, body).changes === 0) {
        sequences.push(0);
        continue;
      }
      next.set(community, sequence);
      sequences.push(sequence);
    }
    for (const [community, sequence] of next) setSequence.run(community, sequence);
    return sequences;
  });
}

/**
 * Opens a connection the way every standing connection to the file is opened. secure_delete
 * zeroes what a delete or an update frees, so an erased player's events leave no bytes in the
 * file's free pages (the store truncates the WAL after an erasure, see ./sqlite.ts).
 */
export function configureConnection(db: Database.Database): void {
  db.pragma('journal_mode = WAL');
  db.pragma('secure_delete = ON');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
}
