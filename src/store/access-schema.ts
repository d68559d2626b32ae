/**
 * What roles, tenants and the player view keep in the store (migration 12, ./migrations.ts):
 *
 * - `api_keys.communities`: the communities a key is restricted to, as a JSON array (null: every
 *   community).
 * - `case_claims`: per community and player, the moderator who claimed the case and until when
 *   (epoch ms, wall clock); a claim past its `until` is as good as none, and is deleted by the
 *   next claim.
 * - `service_secrets`: secrets the service makes once and every process of it shares (the key
 *   player tokens are signed with), by name.
 * - the reports a player filed, found by reporter: an index on the report events' `from`
 *   (SQLite's `events`, PostgreSQL's `indexed_events`), for GET /v1/players/:id/reports.
 *
 * The statements of both backends, and the SQL the stores run on them (./access-rows.ts).
 */

const claims = (real: string, key: string): string =>
  `CREATE TABLE case_claims (
     community ${key} NOT NULL,
     player ${key} NOT NULL,
     moderator TEXT NOT NULL,
     claimed_at ${real} NOT NULL,
     until ${real} NOT NULL,
     PRIMARY KEY (community, player))`;

const secrets = `CREATE TABLE service_secrets (
     name TEXT PRIMARY KEY,
     secret TEXT NOT NULL,
     created_at TEXT NOT NULL)`;

/** The expression the reports-by-reporter index is on; a query must repeat it word for word. */
export const REPORTER_SQLITE = "json_extract(body, '$.from')";
export const REPORTER_POSTGRES = "((body)::jsonb ->> 'from')";

export const ACCESS_MIGRATION = {
  sqlite: [
    'ALTER TABLE api_keys ADD COLUMN communities TEXT',
    claims('REAL', 'TEXT'),
    secrets,
    `CREATE INDEX events_reports_by_reporter ON events (community, (${REPORTER_SQLITE}), sequence) WHERE type = 'report'`,
  ],
  postgres: [
    'ALTER TABLE api_keys ADD COLUMN communities TEXT',
    claims('DOUBLE PRECISION', 'TEXT COLLATE "C"'),
    secrets,
    `CREATE INDEX indexed_events_reports_by_reporter ON indexed_events (community, (${REPORTER_POSTGRES}), sequence) WHERE type = 'report'`,
  ],
} as const;
