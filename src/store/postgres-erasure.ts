/**
 * Erasure on PostgreSQL's event pages (./event-pages-schema.ts), inside the caller's transaction:
 * the pages that hold the player's name are read and locked ERASE_PAGES at a time in key order,
 * their events rewritten, each changed page written once a step, and indexed_events and event_ids
 * changed alike; then the verdicts naming a removed report are rewritten (given that report) the
 * same way. Erasures take one
 * lock first, so they run one at a time whichever process asks (two erasures waiting on each
 * other's pages could skip a page whose start the other moved, or deadlock); appends never wait
 * on it.
 */
import type pg from 'pg';
import type { ReportEvent, StandingEvent } from '../events/types.js';
import { eventsOfPage, INDEXED, rewritePages, type PageRow } from './event-pages.js';
import { erasureOutcome, planErasure, withVerdictsOnRemovedReports, type ErasureChange } from './rows.js';
import type { ErasureOutcome, EventRewrite } from './types.js';

/** The advisory lock every erasure holds until its transaction ends. */
export const ERASURE_LOCK = 7282;

/** Pages read, rewritten and let go of at a time: an erasure holds at most this many pages' events. */
export const ERASE_PAGES = 100;

type StoredPage = PageRow & { last_sequence: number | string };

/** Stored events by community and sequence, with the page each is in. */
class PagesRead {
  private readonly events = new Map<string, { page: PageRow; event: StandingEvent }>();

  private static key(community: string, sequence: number | string): string {
    return `${community}\u0000${String(sequence)}`;
  }

  /** Keeps the events of `page`; answers those whose JSON holds `needle`, as rows. */
  keep(page: PageRow, needle?: string): { community: string; sequence: number; body: string }[] {
    const mentioning: { community: string; sequence: number; body: string }[] = [];
    for (const { community, sequence, event } of eventsOfPage(page)) {
      this.events.set(PagesRead.key(community, sequence), { page, event });
      if (needle === undefined) continue;
      const body = JSON.stringify(event);
      if (body.includes(needle)) mentioning.push({ community, sequence, body });
    }
    return mentioning;
  }

  has(community: string, sequence: number | string): boolean {
    return this.events.has(PagesRead.key(community, sequence));
  }

  get(community: string, sequence: number | string): { page: PageRow; event: StandingEvent } {
    return this.events.get(PagesRead.key(community, sequence))!;
  }
}

/** Writes `changes` (every changed event among `read`): each page once, then the rows and ids. */
async function applyChanges(conn: pg.PoolClient, changes: readonly ErasureChange[], read: PagesRead): Promise<void> {
  for (const { page, rewritten } of rewritePages(changes, (community, sequence) => read.get(community, sequence).page)) {
    const first = Number(page.first_sequence);
    if (rewritten === undefined) await conn.query('DELETE FROM event_pages WHERE community = $1 AND first_sequence = $2', [page.community, first]);
    else {
      await conn.query('UPDATE event_pages SET first_sequence = $3, last_sequence = $4, last_time = $5, body = $6 WHERE community = $1 AND first_sequence = $2', [
        page.community,
        first,
        rewritten.firstSequence,
        rewritten.lastSequence,
        rewritten.lastTime,
        rewritten.body,
      ]);
    }
  }
  for (const { community, sequence, event } of changes) {
    const before = read.get(community, sequence).event;
    if (event === null || !INDEXED.has(event.type)) await conn.query('DELETE FROM indexed_events WHERE community = $1 AND sequence = $2', [community, sequence]);
    else {
      await conn.query(
        `INSERT INTO indexed_events (community, sequence, event_id, type, time, body) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (community, sequence) DO UPDATE SET type = EXCLUDED.type, time = EXCLUDED.time, body = EXCLUDED.body`,
        [community, sequence, before.id ?? null, event.type, event.time, JSON.stringify(event)],
      );
    }
    if (before.id === undefined) continue;
    // As a row keeps its id when rewritten (SQLite): the id stays known, with the new type; a removed event's id is forgotten.
    if (event === null) await conn.query('DELETE FROM event_ids WHERE community = $1 AND event_id = $2', [community, before.id]);
    else await conn.query('UPDATE event_ids SET type = $3 WHERE community = $1 AND event_id = $2', [community, before.id, event.type]);
  }
}

/** The outcomes of several steps of one erasure as one. */
function merged(outcomes: readonly ErasureOutcome[]): ErasureOutcome {
  return {
    communities: [...new Set(outcomes.flatMap((o) => o.communities))].sort(),
    removed: outcomes.reduce((n, o) => n + o.removed, 0),
    rewritten: outcomes.reduce((n, o) => n + o.rewritten, 0),
  };
}

/**
 * Erases `player` from the pages of every community, or of `communities` only (a cluster
 * partition's); the caller drops checkpoints and alerts.
 */
export async function erasePages(conn: pg.PoolClient, player: string, rewrite: EventRewrite, communities?: readonly string[]): Promise<ErasureOutcome> {
  await conn.query('SELECT pg_advisory_xact_lock($1)', [ERASURE_LOCK]);
  const needle = JSON.stringify(player);
  const outcomes: ErasureOutcome[] = [];
  const removedReports = new Map<string, Map<string, ReportEvent>>();
  // Pages in key order from after the last one read (by its last sequence as read: a page whose
  // start an earlier step moved is not read again).
  let after: { community: string; sequence: number } | undefined;
  for (;;) {
    const values: unknown[] = [needle, ERASE_PAGES];
    const where = ['strpos(body, $1) > 0'];
    if (communities !== undefined) where.push(`community = ANY($${values.push([...communities])})`);
    if (after !== undefined) where.push(`(community, first_sequence) > ($${values.push(after.community)}, $${values.push(after.sequence)}::bigint)`);
    const { rows } = await conn.query<StoredPage>(
      `SELECT community, first_sequence, last_sequence, body FROM event_pages WHERE ${where.join(' AND ')} ORDER BY community, first_sequence LIMIT $2 FOR UPDATE`,
      values,
    );
    const read = new PagesRead();
    const plan = planErasure(
      rows.flatMap((page) => read.keep(page, needle)),
      rewrite,
    );
    for (const [community, reports] of plan.removedReports) {
      const kept = removedReports.get(community) ?? removedReports.set(community, new Map()).get(community)!;
      for (const [id, report] of reports) kept.set(id, report);
    }
    await applyChanges(conn, plan.changes, read);
    outcomes.push(erasureOutcome(plan.changes));
    if (rows.length < ERASE_PAGES) break;
    const last = rows[rows.length - 1]!;
    after = { community: last.community, sequence: Number(last.last_sequence) };
  }

  // The verdicts that name a removed report by id (those the steps above changed name it no more).
  for (const [community, reports] of removedReports) {
    const { rows: verdicts } = await conn.query<{ community: string; sequence: string; body: string }>(
      "SELECT community, sequence, body FROM indexed_events WHERE community = $1 AND type = 'verdict' AND (body::jsonb ->> 'report') = ANY($2) ORDER BY sequence",
      [community, [...reports.keys()]],
    );
    const read = new PagesRead();
    const changes: ErasureChange[] = [];
    for (const change of withVerdictsOnRemovedReports({ changes: [], removedReports: new Map([[community, reports]]) }, verdicts, rewrite)) {
      if (!read.has(community, change.sequence)) {
        const { rows } = await conn.query<StoredPage>(
          'SELECT community, first_sequence, last_sequence, body FROM event_pages WHERE community = $1 AND first_sequence <= $2 ORDER BY first_sequence DESC LIMIT 1 FOR UPDATE',
          [community, change.sequence],
        );
        const page = rows[0];
        if (page === undefined || Number(page.last_sequence) < Number(change.sequence)) continue; // not stored (cannot happen: the row and its page are written together)
        read.keep(page);
      }
      changes.push(change);
    }
    await applyChanges(conn, changes, read);
    outcomes.push(erasureOutcome(changes));
  }
  return merged(outcomes);
}
