/**
 * The thread that commits SQLite appends for the service, so the commit (and its fsync) does
 * not stop the main thread from taking the next requests. Messages: packed rows → {id, sequences}
 * or {id, error, code} (code: the SqliteError's, such as SQLITE_BUSY).
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { unpackRows, type PackedRows } from './packed-rows.js';
import { appendTransaction, configureConnection } from './sqlite-append.js';

const db = new Database((workerData as { path: string }).path);
configureConnection(db);
const append = appendTransaction(db);

parentPort!.on('message', (packed: PackedRows) => {
  const id = packed.id;
  try {
    parentPort!.postMessage({ id, sequences: append(unpackRows(packed)) });
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error).message, code: (error as { code?: unknown }).code });
  }
});
