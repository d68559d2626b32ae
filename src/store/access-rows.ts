/**
 * The SQL both backends run on migration 12's tables (./access-schema.ts): claims on cases,
 * service secrets, and the reports a player filed. `p(n)` is a placeholder: `?` (SQLite, whose
 * placeholders are positional, so each statement uses each value once, in order) or `$n`
 * (PostgreSQL).
 */
import type { CaseClaim } from './types.js';

type Placeholder = (n: number) => string;

export interface ClaimRow {
  community: string;
  player: string;
  moderator: string;
  claimed_at: number;
  until: number;
}

export const claimFromRow = (row: ClaimRow): CaseClaim => ({ community: row.community, player: row.player, moderator: row.moderator, claimedAt: Number(row.claimed_at), until: Number(row.until) });

/** Deletes every claim past its end at the parameter (now). */
export const pruneClaimsSql = (p: Placeholder): string => `DELETE FROM case_claims WHERE until <= ${p(1)}`;

/**
 * Takes or renews a claim (parameters: community, player, moderator, claimed_at, until): a new
 * row, or the row rewritten when its claim ended by then or the same moderator holds it (who
 * keeps the time they first claimed it). Another holder's row in force is left as it is.
 */
export const takeClaimSql = (p: Placeholder): string =>
  `INSERT INTO case_claims (community, player, moderator, claimed_at, until) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)})
   ON CONFLICT (community, player) DO UPDATE SET
     claimed_at = CASE WHEN case_claims.moderator = excluded.moderator AND case_claims.until > excluded.claimed_at THEN case_claims.claimed_at ELSE excluded.claimed_at END,
     moderator = excluded.moderator,
     until = excluded.until
   WHERE case_claims.until <= excluded.claimed_at OR case_claims.moderator = excluded.moderator`;

/** The claim in force (parameters: community, player, now). */
export const claimInForceSql = (p: Placeholder): string => `SELECT * FROM case_claims WHERE community = ${p(1)} AND player = ${p(2)} AND until > ${p(3)}`;

/** Deletes the claim in force when the moderator holds it (parameters: community, player, now, moderator). */
export const releaseOwnSql = (p: Placeholder): string =>
  `DELETE FROM case_claims WHERE community = ${p(1)} AND player = ${p(2)} AND until > ${p(3)} AND moderator = ${p(4)} RETURNING *`;

/** Deletes the claim in force whoever holds it (parameters: community, player, now). */
export const releaseAnySql = (p: Placeholder): string => `DELETE FROM case_claims WHERE community = ${p(1)} AND player = ${p(2)} AND until > ${p(3)} RETURNING *`;

/** Makes the named secret unless it exists (parameters: name, secret, created_at). */
export const makeSecretSql = (p: Placeholder): string =>
  `INSERT INTO service_secrets (name, secret, created_at) VALUES (${p(1)}, ${p(2)}, ${p(3)}) ON CONFLICT (name) DO NOTHING`;

export const readSecretSql = (p: Placeholder): string => `SELECT secret FROM service_secrets WHERE name = ${p(1)}`;

/**
 * The reports a reporter filed, newest first (parameters: community, reporter, before, limit):
 * `table` is SQLite's `events` or PostgreSQL's `indexed_events`, `reporter` the expression the
 * index is on (./access-schema.ts).
 */
export const reportsBySql = (p: Placeholder, table: string, reporter: string): string =>
  `SELECT community, sequence, body FROM ${table} WHERE community = ${p(1)} AND type = 'report' AND ${reporter} = ${p(2)} AND sequence < ${p(3)} ORDER BY sequence DESC LIMIT ${p(4)}`;
