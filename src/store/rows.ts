/** Rows of the keys and alerts tables as the store interface returns them (both backends); checkpoints are in ./checkpoint-rows.ts. */
import { KeyLabelError } from '../errors.js';
import { shownText } from '../events/id-characters.js';
import type { ReportEvent, StandingEvent } from '../events/types.js';
import type { AlertQuery, ErasureOutcome, EventRewrite, Scope, StoredAlert, StoredKey } from './types.js';

export interface KeyRow {
  id: string;
  hash: string;
  scopes: string;
  label: string;
  created_at: string;
  revoked_at: string | null;
  /** A JSON array of community names (names may hold commas); null: every community. */
  communities: string | null;
}

/** The api_keys columns in insert order, and a key's values in that order. */
const KEY_COLUMNS = ['id', 'hash', 'scopes', 'label', 'created_at', 'revoked_at', 'communities'] as const;

/** The insert of one key; `placeholder(n)` is `?` (SQLite) or `$n` (PostgreSQL). */
export const keyInsert = (placeholder: (n: number) => string): string =>
  `INSERT INTO api_keys (${KEY_COLUMNS.join(', ')}) VALUES (${KEY_COLUMNS.map((_, i) => placeholder(i + 1)).join(', ')})`;

export function keyValues(key: StoredKey): unknown[] {
  return [key.id, key.hash, key.scopes.join(','), key.label, key.createdAt, key.revokedAt ?? null, key.communities === undefined ? null : JSON.stringify(key.communities)];
}

export function keyFromRow(row: KeyRow): StoredKey {
  const key: StoredKey = { id: row.id, hash: row.hash, scopes: row.scopes.split(',') as Scope[], label: row.label, createdAt: row.created_at };
  const restricted = row.communities === null || row.communities === undefined ? key : { ...key, communities: JSON.parse(row.communities) as string[] };
  return row.revoked_at === null ? restricted : { ...restricted, revokedAt: row.revoked_at };
}

/**
 * Why `key` cannot be stored beside `keys`: a live (not revoked) key among them has its label, as
 * a moderator name reads it (trimmed; an empty label names no one and may repeat). Two moderators
 * under one name could not be told apart in the audit log.
 */
export function labelTaken(keys: readonly Pick<StoredKey, 'id' | 'label' | 'revokedAt'>[], key: Pick<StoredKey, 'label'>): KeyLabelError | undefined {
  const label = key.label.trim();
  if (label === '') return undefined;
  const holder = keys.find((k) => k.revokedAt === undefined && k.label.trim() === label);
  if (holder === undefined) return undefined;
  return new KeyLabelError(shownText(key.label), `is the label of live key ${holder.id}: two moderators under one name could not be told apart; revoke that key first (standing keys revoke ${holder.id}) or choose another label`);
}

export interface AlertRow {
  id: number | string;
  community: string;
  scorer: string;
  player: string;
  threshold: string;
  kind: string;
  score: number;
  sequence: number | string;
  time: number;
  created_at: string;
}

export function alertFromRow(row: AlertRow): StoredAlert {
  return {
    id: Number(row.id),
    community: row.community,
    scorer: row.scorer,
    player: row.player,
    threshold: row.threshold,
    kind: row.kind as StoredAlert['kind'],
    score: row.score,
    sequence: Number(row.sequence),
    time: row.time,
    createdAt: row.created_at,
  };
}

/** The alert columns in insert order, and an alert's values in that order. */
export const ALERT_COLUMNS = ['community', 'scorer', 'player', 'threshold', 'kind', 'score', 'sequence', 'time', 'created_at'] as const;

/** Per (community, scorer, player, threshold) its latest alert, when that one is `raised`. */
const OPEN_ALERT_IDS = `SELECT a.id FROM alerts a
  JOIN (SELECT MAX(id) AS id FROM alerts GROUP BY community, scorer, player, threshold) latest ON latest.id = a.id
  WHERE a.kind = 'raised'`;

export const OPEN_ALERTS_SQL = `SELECT * FROM alerts WHERE id IN (${OPEN_ALERT_IDS}) ORDER BY id`;

/** Deletes alerts created before the parameter (`?` or `$1`) except the open ones. */
export const pruneAlertsSql = (parameter: string): string => `DELETE FROM alerts WHERE created_at < ${parameter} AND id NOT IN (${OPEN_ALERT_IDS})`;

/** An event row that erasure changes: removed (`event` null) or rewritten. */
export interface ErasureChange {
  readonly community: string;
  readonly sequence: number | string;
  readonly event: StandingEvent | null;
}

/** What `rewrite` does to the stored rows that mention the player, and the reports it removes. */
export interface ErasurePlan {
  readonly changes: ErasureChange[];
  /** Per community, the report events removed, by id: the verdicts naming them by `report` are rewritten with them. */
  readonly removedReports: Map<string, Map<string, ReportEvent>>;
}

type EventRow = { community: string; sequence: number | string; body: string };

export function planErasure(rows: readonly EventRow[], rewrite: EventRewrite): ErasurePlan {
  const changes: ErasureChange[] = [];
  const removedReports = new Map<string, Map<string, ReportEvent>>();
  for (const row of rows) {
    const stored = JSON.parse(row.body) as StandingEvent;
    const event = rewrite(stored);
    if (event === undefined) continue;
    changes.push({ community: row.community, sequence: row.sequence, event });
    if (event === null && stored.type === 'report' && stored.id !== undefined) {
      const reports = removedReports.get(row.community);
      if (reports === undefined) removedReports.set(row.community, new Map([[stored.id, stored]]));
      else reports.set(stored.id, stored);
    }
  }
  return { changes, removedReports };
}

/**
 * The plan's changes, plus what `rewrite` does to each verdict among `verdictRows` (the
 * community's verdict events naming a removed report by `report`) that the plan does not already
 * change, given that report.
 */
export function withVerdictsOnRemovedReports(plan: ErasurePlan, verdictRows: readonly EventRow[], rewrite: EventRewrite): ErasureChange[] {
  const changes = [...plan.changes];
  const planned = new Set(changes.map((c) => `${c.community}\u0000${String(c.sequence)}`));
  for (const row of verdictRows) {
    const event = JSON.parse(row.body) as StandingEvent;
    if (event.type !== 'verdict' || event.report === undefined) continue;
    const report = plan.removedReports.get(row.community)?.get(event.report);
    if (report === undefined) continue;
    const key = `${row.community}\u0000${String(row.sequence)}`;
    if (planned.has(key)) continue;
    planned.add(key);
    const rewritten = rewrite(event, report);
    if (rewritten !== undefined) changes.push({ community: row.community, sequence: row.sequence, event: rewritten });
  }
  return changes;
}

/** How many events `changes` remove and rewrite, in which communities. */
export function erasureOutcome(changes: readonly ErasureChange[]): ErasureOutcome {
  const removed = changes.filter((c) => c.event === null).length;
  const communities = [...new Set(changes.map((c) => c.community))].sort();
  return { communities, removed, rewritten: changes.length - removed };
}

/** The SELECT of an alert query; `placeholder(n)` is `?` (SQLite) or `$n` (PostgreSQL). */
export function alertQuerySql(query: AlertQuery, placeholder: (n: number) => string): { sql: string; values: unknown[] } {
  const values: unknown[] = [query.after ?? 0];
  const where = [`id > ${placeholder(1)}`];
  for (const field of ['community', 'scorer', 'player'] as const) {
    if (query[field] === undefined) continue;
    values.push(query[field]);
    where.push(`${field} = ${placeholder(values.length)}`);
  }
  values.push(query.limit ?? 1000);
  const order = query.newestFirst === true ? 'DESC' : 'ASC';
  return { sql: `SELECT * FROM alerts WHERE ${where.join(' AND ')} ORDER BY id ${order} LIMIT ${placeholder(values.length)}`, values };
}
