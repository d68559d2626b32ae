/**
 * SQLite write transactions and their busy answers. Every connection to a standing file writes
 * in transactions that take the write lock at BEGIN (BEGIN IMMEDIATE): a transaction that read
 * first (BEGIN DEFERRED) and then asks for the lock while another connection holds it or has
 * committed since that read gets SQLITE_BUSY at once, without waiting busy_timeout, because its
 * snapshot can no longer be written on. With the service's append thread beside the main
 * connection (alerts, checkpoints, keys), that was a failed ingest under load.
 */
import type Database from 'better-sqlite3';
import { StoreBusyError } from '../errors.js';

/** `fn` as a transaction that takes the write lock first, waiting up to busy_timeout for it. */
export function writeTransaction<A extends unknown[], R>(db: Database.Database, fn: (...args: A) => R): (...args: A) => R {
  const transaction = db.transaction(fn);
  return (...args: A) => transaction.immediate(...args);
}

/** Whether `code` (an SqliteError's) says the lock could not be had: SQLITE_BUSY and its extended codes. */
export function isBusyCode(code: unknown): boolean {
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** `error` as a StoreBusyError when SQLite said it was busy, else `error` itself. */
export function busyAsTyped(error: unknown): unknown {
  return error instanceof Error && isBusyCode((error as { code?: unknown }).code) ? new StoreBusyError(error.message) : error;
}
