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

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'event log per community, idempotency index, scorer checkpoints',
    sqlite: initial('REAL', 'INTEGER'),
    postgres: initial('DOUBLE PRECISION', 'BIGINT'),
  },
];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
