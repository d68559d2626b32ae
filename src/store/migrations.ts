/**
 * Schema migrations, in order. Each has the statements for both backends; a store applies the
 * ones above its recorded version, each in its own transaction, and records it.
 */
export interface Migration {
  readonly version: number;
  readonly description: string;
  readonly sqlite: readonly string[];
  readonly postgres: readonly string[];
}

const initial = (real: string, bigint: string): string[] => [
  `CREATE TABLE communities (name TEXT PRIMARY KEY, last_sequence ${bigint} NOT NULL)`,
  `CREATE TABLE events (
     community TEXT NOT NULL,
     sequence ${bigint} NOT NULL,
     event_id TEXT,
     type TEXT NOT NULL,
     time ${real} NOT NULL,
     body TEXT NOT NULL,
     PRIMARY KEY (community, sequence))`,
  'CREATE UNIQUE INDEX events_by_id ON events (community, event_id) WHERE event_id IS NOT NULL',
  `CREATE TABLE checkpoints (
     scorer TEXT NOT NULL,
     community TEXT NOT NULL,
     sequence ${bigint} NOT NULL,
     state TEXT NOT NULL,
     PRIMARY KEY (scorer, community))`,
];

const keysAndAlerts = (real: string, bigint: string, serial: string): string[] => [
  `CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     hash TEXT NOT NULL,
     scopes TEXT NOT NULL,
     label TEXT NOT NULL,
     created_at TEXT NOT NULL,
     revoked_at TEXT)`,
  `CREATE TABLE alerts (
     id ${serial},
     community TEXT NOT NULL,
     scorer TEXT NOT NULL,
     player TEXT NOT NULL,
     threshold TEXT NOT NULL,
     kind TEXT NOT NULL,
     score ${real} NOT NULL,
     sequence ${bigint} NOT NULL,
     time ${real} NOT NULL,
     created_at TEXT NOT NULL)`,
  'CREATE INDEX alerts_by_player ON alerts (player)',
  'CREATE INDEX alerts_by_subject ON alerts (community, scorer, player, threshold, id)',
];

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'event log per community, idempotency index, scorer checkpoints',
    sqlite: initial('REAL', 'INTEGER'),
    postgres: initial('DOUBLE PRECISION', 'BIGINT'),
  },
  {
    version: 2,
    description: 'API keys (hashed) and the alerts raised',
    sqlite: keysAndAlerts('REAL', 'INTEGER', 'INTEGER PRIMARY KEY AUTOINCREMENT'),
    postgres: keysAndAlerts('DOUBLE PRECISION', 'BIGINT', 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY'),
  },
  {
    version: 3,
    description: 'checkpoints found by community (replacing or loading one set reads only its rows)',
    sqlite: ['CREATE INDEX checkpoints_by_community ON checkpoints (community)'],
    postgres: ['CREATE INDEX checkpoints_by_community ON checkpoints (community)'],
  },
];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
