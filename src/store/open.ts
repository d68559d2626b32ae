/** Opens the store a `--db` value names: a postgres:// URL, or a SQLite file path (the default). */
import { openPostgresStore, type PostgresStoreOptions } from './postgres.js';
import { openSqliteStore, type SqliteStoreOptions } from './sqlite.js';
import type { EventStore } from './types.js';

export async function openStore(db: string, options: SqliteStoreOptions = {}, postgres: PostgresStoreOptions = {}): Promise<EventStore> {
  return /^postgres(ql)?:\/\//.test(db) ? openPostgresStore(db, postgres) : openSqliteStore(db, options);
}
