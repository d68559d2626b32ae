/**
 * The thread that commits SQLite appends for the service, so the commit (and its fsync) does
 * not stop the main thread from taking the next requests. Messages: {id, text} (the group's events
 * as one JSON text, ./event-texts.ts) → {id, sequences} (a Float64Array) or {id, error, code} (code: the
 * SqliteError's, such as SQLITE_BUSY).
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { appendRowsOfText } from './event-texts.js';
import { appendTransaction, configureConnection } from './sqlite-append.js';

const db = new Database((workerData as { path: string }).path);
configureConnection(db);
const append = appendTransaction(db);

/** One append: its number, and its events as one JSON text. */
export interface AppendMessage {
  readonly id: number;
  readonly text: string;
}

parentPort!.on('message', ({ id, text }: AppendMessage) => {
  try {
    // The sequences as one typed array, its memory moved to the main thread rather than copied number by number.
    const sequences = Float64Array.from(append(appendRowsOfText(text)));
    parentPort!.postMessage({ id, sequences }, [sequences.buffer]);
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error).message, code: (error as { code?: unknown }).code });
  }
});
