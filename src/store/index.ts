/** `standing/store`: the durable event store, SQLite by default or PostgreSQL. */
export { openStore } from './open.js';
export { openSqliteStore } from './sqlite.js';
export { openPostgresStore } from './postgres.js';
export { LATEST_VERSION } from './migrations.js';
export type { EventStore, StoredEvent, AppendOutcome, CheckpointSet, StoredKey, Scope, NewAlert, StoredAlert, AlertQuery, ErasureOutcome, EventRewrite, ModerationQuery, ModerationEntry, ModerationCursor } from './types.js';
