/** `standing/store`: the durable event store, SQLite by default or PostgreSQL. */
export { openStore } from './open.js';
export { openSqliteStore } from './sqlite.js';
export { openPostgresStore } from './postgres.js';
export { LATEST_VERSION } from './migrations.js';
export { StoreHeldError } from '../errors.js';
export type { EventStore, EventLog, CheckpointStore, KeyStore, AlertStore, ModerationIndex, ErasureStore, StoreLifecycle, StoredEvent, AppendOutcome, CheckpointSet, StoredKey, Scope, NewAlert, StoredAlert, AlertQuery, ErasureOutcome, EventRewrite, ModerationQuery, ModerationEntry, ModerationCursor, HoldRole, StoreHold } from './types.js';
