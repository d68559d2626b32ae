/**
 * Holds on a SQLite store (StoreLifecycle.hold), as locks on the empty file `<store>-hold` beside it:
 * a shared hold (`serve`) is a read transaction left open on it, which takes SQLite's shared lock;
 * an `erase` hold is an exclusive transaction, which no one else's shared or exclusive lock lets
 * it take, and which refuses theirs while it lasts. SQLite's locks are the operating system's file
 * locks (fcntl), which end with the process that took them: a service killed mid-run leaves no
 * hold behind. Nothing waits: a hold that cannot be had at once is refused (StoreHeldError).
 */
import Database from 'better-sqlite3';
import { StoreHeldError } from '../errors.js';
import { isBusyCode } from './sqlite-write.js';
import type { HoldRole, StoreHold } from './types.js';

/** The file whose locks hold the store at `path`. */
export const holdFile = (path: string): string => `${path}-hold`;

/** Takes the lock `role` needs on a connection of its own; false when another connection's lock refuses it. */
function lock(db: Database.Database, role: HoldRole): boolean {
  try {
    if (role === 'erase') db.exec('BEGIN EXCLUSIVE');
    else {
      db.exec('BEGIN');
      db.prepare('SELECT count(*) FROM sqlite_master').get(); // a read: the transaction takes the shared lock
    }
    return true;
  } catch (error) {
    if (isBusyCode((error as { code?: unknown }).code)) return false;
    throw error;
  }
}

/** Whether an erasure holds the store, judged by whether a shared lock can be had: if it can, only shared holders do. */
function heldByErasure(path: string): boolean {
  const probe = new Database(holdFile(path), { timeout: 0 });
  try {
    return !lock(probe, 'serve');
  } finally {
    probe.close();
  }
}

export function holdSqlite(path: string, role: HoldRole): StoreHold {
  // Nothing but this process can open an in-memory database: there is no one to exclude.
  if (path === ':memory:' || path === '') return { release: () => Promise.resolve() };
  const db = new Database(holdFile(path), { timeout: 0 });
  if (!lock(db, role)) {
    db.close();
    const byErasure = role !== 'erase' || heldByErasure(path);
    throw new StoreHeldError(role, byErasure ? 'a standing erase in progress' : 'a running standing serve', byErasure);
  }
  return {
    async release() {
      if (db.open) db.close(); // ends the transaction, and its lock with it
    },
  };
}
