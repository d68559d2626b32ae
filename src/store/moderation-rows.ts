/**
 * The moderation query over the event log (ModerationIndex.moderationEvents), one SQL builder for both
 * backends: the moderator events (`verdict`, `note`, `sanction`, `appeal`, `rule`) filtered by community,
 * player, moderator, action and event time, in a stable order (event time, then community, then
 * sequence) paged by a cursor on that key. The filters use the partial indexes of migration 6,
 * remade over every moderator type by migration 13 (./migrations.ts), whose expressions they
 * repeat word for word.
 */
import type { StandingEvent } from '../events/types.js';
import type { ModerationCursor, ModerationEntry, ModerationQuery } from './types.js';

/** The moderator event types: the events the moderation indexes hold (./migrations.ts, migration 13). */
export const MODERATOR_TYPES = ['verdict', 'note', 'sanction', 'appeal', 'rule'] as const;

/**
 * The condition of the moderation indexes, written as the partial indexes' WHERE is: a query
 * finds them only when its WHERE repeats this exactly (SQLite's rule for partial indexes). On
 * SQLite, an OR of equalities: an `IN (…)` list in a partial index's WHERE makes SQLite build the
 * list again for every row an INSERT writes (an ephemeral table per index, no `Once` guard), which
 * doubled the cost of appending an event; PostgreSQL keeps its indexes' `IN` form.
 */
export function moderatorTypesCondition(dialect: 'sqlite' | 'postgres', alias = '', types: readonly string[] = MODERATOR_TYPES): string {
  const type = `${alias === '' ? '' : `${alias}.`}type`;
  return dialect === 'sqlite' ? `(${types.map((t) => `${type} = '${t}'`).join(' OR ')})` : `${type} IN (${types.map((t) => `'${t}'`).join(', ')})`;
}

/** How a backend reads a field of the stored body: SQLite's json_extract, PostgreSQL's ->>. */
export interface JsonDialect {
  readonly name: 'sqlite' | 'postgres';
  field(column: string, name: string): string;
}

export const SQLITE_JSON: JsonDialect = { name: 'sqlite', field: (column, name) => `json_extract(${column}, '$.${name}')` };
export const POSTGRES_JSON: JsonDialect = { name: 'postgres', field: (column, name) => `((${column})::jsonb ->> '${name}')` };

/** Who a moderator event is about in its own body: `player`, or the reported `to` of a verdict on a report pair. */
export const subjectOf = (json: JsonDialect, column = 'body'): string => `COALESCE(${json.field(column, 'player')}, ${json.field(column, 'to')})`;

/** The finer action's field per type: `sanction.suspend`, `appeal.granted`, `verdict.upheld`, `rule.paused`. */
const DETAIL: Readonly<Record<string, string>> = { sanction: 'action', appeal: 'status', verdict: 'outcome', rule: 'state' };

/** The stable key of a moderator event in the listing, as an opaque cursor. */
export function encodeCursor(cursor: ModerationCursor): string {
  return Buffer.from(JSON.stringify([cursor.time, cursor.community, cursor.sequence])).toString('base64url');
}

/** A cursor's key, or undefined when `text` is no cursor this store made. */
export function decodeCursor(text: string): ModerationCursor | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 3) return undefined;
    const [time, community, sequence] = value as unknown[];
    if (typeof time !== 'number' || !Number.isFinite(time) || typeof community !== 'string' || !Number.isSafeInteger(sequence)) return undefined;
    return { time, community, sequence: sequence as number };
  } catch {
    return undefined;
  }
}

/** The action of a moderator event as the audit log names it: `note`, `sanction.ban`, `appeal.opened`, `verdict.upheld`. */
export function actionOf(event: StandingEvent): string {
  const field = DETAIL[event.type];
  const detail = field === undefined ? undefined : (event as Record<string, unknown>)[field];
  return typeof detail === 'string' ? `${event.type}.${detail}` : event.type;
}

/** The most entries one read gives back. */
export const MAX_MODERATION_LIMIT = 10_000;

/**
 * The SELECT of a moderation query; `placeholder(n)` is `?` (SQLite) or `$n` (PostgreSQL), `table`
 * the table of event rows (SQLite's `events`, PostgreSQL's `indexed_events`). Each row
 * has community, sequence, time, body and `reported` (for a verdict naming its report by id, the
 * `to` of that report, looked up through the id index; an event of another type with that id is
 * no report, and gives none).
 */
export function moderationQuerySql(query: ModerationQuery, json: JsonDialect, placeholder: (n: number) => string, table = 'events'): { sql: string; values: unknown[] } {
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return placeholder(values.length);
  };
  const reported = `(SELECT ${json.field('r.body', 'to')} FROM ${table} r WHERE r.community = e.community AND r.event_id = ${json.field('e.body', 'report')} AND r.type = 'report')`;
  const where = [moderatorTypesCondition(json.name, 'e')];
  // With a player, the community is filtered in the player's lookup (./migrations.ts, by player and community).
  if (query.community !== undefined && query.player === undefined) where.push(`e.community = ${param(query.community)}`);
  if (query.player !== undefined) {
    // Two index lookups: events about the player in their own body, and verdicts naming a report
    // by id (no subject of their own) whose report is about the player.
    const subject = subjectOf(json, 'x.body');
    const reportedX = `(SELECT ${json.field('r.body', 'to')} FROM ${table} r WHERE r.community = x.community AND r.event_id = ${json.field('x.body', 'report')} AND r.type = 'report')`;
    const about = (extra: string) => `SELECT x.community, x.sequence FROM ${table} x WHERE ${moderatorTypesCondition(json.name, 'x')} AND ${extra}${query.community === undefined ? '' : ` AND x.community = ${param(query.community)}`}`;
    where.push(`(e.community, e.sequence) IN (${about(`${subject} = ${param(query.player)}`)} UNION ALL ${about(`${subject} IS NULL AND ${reportedX} = ${param(query.player)}`)})`);
  }
  if (query.moderator !== undefined) where.push(`${json.field('e.body', 'moderator')} = ${param(query.moderator)}`);
  if (query.action !== undefined) {
    const [type, detail] = query.action.split('.', 2) as [string, string | undefined];
    where.push(`e.type = ${param(type)}`);
    const field = DETAIL[type];
    if (detail !== undefined) where.push(field === undefined ? 'FALSE' : `${json.field('e.body', field)} = ${param(detail)}`);
  }
  if (query.since !== undefined) where.push(`e.time >= ${param(query.since)}`);
  if (query.until !== undefined) where.push(`e.time < ${param(query.until)}`);
  const newest = query.newestFirst === true;
  if (query.after !== undefined) {
    const key = `(${param(query.after.time)}, ${param(query.after.community)}, ${param(query.after.sequence)})`;
    where.push(`(e.time, e.community, e.sequence) ${newest ? '<' : '>'} ${key}`);
  }
  const order = newest ? 'DESC' : 'ASC';
  const limit = param(Math.max(0, Math.min(query.limit ?? 1000, MAX_MODERATION_LIMIT)));
  return {
    sql: `SELECT e.community, e.sequence, e.time, e.body, CASE WHEN e.type = 'verdict' AND ${json.field('e.body', 'report')} IS NOT NULL THEN ${reported} END AS reported
      FROM ${table} e WHERE ${where.join(' AND ')} ORDER BY e.time ${order}, e.community ${order}, e.sequence ${order} LIMIT ${limit}`,
    values,
  };
}

export interface ModerationRow {
  community: string;
  sequence: number | string;
  time: number;
  body: string;
  reported: string | null;
}

export function entryFromRow(row: ModerationRow): ModerationEntry {
  const event = JSON.parse(row.body) as StandingEvent;
  const fields = event as Record<string, unknown>;
  const player = (fields.player ?? fields.to ?? row.reported ?? undefined) as string | undefined;
  const sequence = Number(row.sequence);
  const entry: ModerationEntry = {
    cursor: encodeCursor({ time: row.time, community: row.community, sequence }),
    community: row.community,
    sequence,
    time: row.time,
    action: actionOf(event),
    event,
  };
  const { moderator, moderatorKey } = fields;
  return {
    ...entry,
    ...(typeof moderator === 'string' ? { moderator } : {}),
    ...(typeof moderatorKey === 'string' ? { moderatorKey } : {}),
    ...(player === undefined ? {} : { player }),
  };
}
