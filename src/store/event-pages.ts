/**
 * PostgreSQL's event pages on the client's side (the tables are in ./event-pages-schema.ts): a
 * batch as the arguments of standing_append, stored pages as events, and a page as erasure
 * leaves it.
 */
import { EventValidationError } from '../errors.js';
import type { StandingEvent } from '../events/types.js';
import { INDEXED_TYPES, PAGE_EVENTS } from './event-pages-schema.js';
import type { ErasureChange } from './rows.js';
import type { StoredEvent } from './types.js';

/** The types kept in indexed_events as well as in their page. */
export const INDEXED: ReadonlySet<string> = new Set<string>(INDEXED_TYPES);

/** The arguments of standing_append for `events` (no id twice within a community), in its order. */
export interface PageArguments {
  readonly values: unknown[];
  /** Per id sent (in `repeated`'s 1-based numbering, less one), the index in `events` of its event. */
  readonly eventOfId: readonly number[];
}

export function pageArguments(events: readonly StandingEvent[]): PageArguments {
  const byCommunity = new Map<string, number[]>();
  events.forEach((event, i) => {
    // A row's type column refuses an event without one; a page would keep it: refused here, before anything is sent.
    if (typeof event.type !== 'string') throw new EventValidationError(undefined, 'type', 'is missing: the store keeps no event without a type');
    const list = byCommunity.get(event.community);
    if (list === undefined) byCommunity.set(event.community, [i]);
    else list.push(i);
  });
  const pageCommunities: string[] = [];
  const pageOffsets: number[] = [];
  const pageCounts: number[] = [];
  const pageLastTimes: number[] = [];
  const pageBodies: string[] = [];
  const idCommunities: string[] = [];
  const idValues: string[] = [];
  const idTypes: string[] = [];
  const eventOfId: number[] = [];
  const rowCommunities: string[] = [];
  const rowOffsets: number[] = [];
  const rowIds: (string | null)[] = [];
  const rowTypes: string[] = [];
  const rowTimes: number[] = [];
  const rowBodies: string[] = [];
  for (const [community, indices] of byCommunity) {
    for (let start = 0; start < indices.length; start += PAGE_EVENTS) {
      const page = indices.slice(start, start + PAGE_EVENTS);
      pageCommunities.push(community);
      pageOffsets.push(start);
      pageCounts.push(page.length);
      pageLastTimes.push(events[page[page.length - 1]!]!.time);
      // Each event serialized once, in its page: a group of one community is one JSON.stringify.
      pageBodies.push(JSON.stringify(page.length === events.length ? events : page.map((i) => events[i])));
    }
    indices.forEach((i, offset) => {
      const event = events[i]!;
      if (event.id !== undefined) {
        idCommunities.push(community);
        idValues.push(event.id);
        idTypes.push(event.type);
        eventOfId.push(i);
      }
      if (INDEXED.has(event.type)) {
        rowCommunities.push(community);
        rowOffsets.push(offset + 1);
        rowIds.push(event.id ?? null);
        rowTypes.push(event.type);
        rowTimes.push(event.time);
        rowBodies.push(JSON.stringify(event)); // reports and moderator events: a few, kept twice
      }
    });
  }
  return {
    values: [
      pageCommunities,
      pageOffsets,
      pageCounts,
      pageLastTimes,
      pageBodies.join('\n'),
      idCommunities,
      idValues,
      idTypes,
      rowCommunities,
      rowOffsets,
      rowIds,
      rowTypes,
      rowTimes,
      rowBodies.join('\n'),
    ],
    eventOfId,
  };
}

/** The standing_append parameters, cast, from $`first` on. */
export const pageParameters = (first: number): string =>
  ['text[]', 'int[]', 'int[]', 'float8[]', 'text', 'text[]', 'text[]', 'text[]', 'text[]', 'int[]', 'text[]', 'text[]', 'float8[]', 'text'].map((type, i) => `$${first + i}::${type}`).join(', ');

/** A stored page as it comes back from a query. */
export interface PageRow {
  readonly community: string;
  readonly first_sequence: number | string;
  readonly body: string;
}

/** The events of `page` with a sequence above `after`, in order (erased ones are not events). */
export function eventsOfPage(page: PageRow, after = 0): StoredEvent[] {
  const first = Number(page.first_sequence);
  const list = JSON.parse(page.body) as (StandingEvent | null)[];
  const out: StoredEvent[] = [];
  for (let k = Math.max(0, after + 1 - first); k < list.length; k++) {
    const event = list[k];
    if (event !== null && event !== undefined) out.push({ community: page.community, sequence: first + k, event });
  }
  return out;
}

/** A page as erasure leaves it: its events with the changes made, nulls trimmed off its ends; undefined when none is left. */
export interface RewrittenPage {
  readonly firstSequence: number;
  readonly lastSequence: number;
  readonly lastTime: number;
  readonly body: string;
}

/** `page` with each sequence in `changes` set to its event (null: removed). */
export function rewritePage(page: PageRow, changes: ReadonlyMap<number, StandingEvent | null>): RewrittenPage | undefined {
  const first = Number(page.first_sequence);
  const list = JSON.parse(page.body) as (StandingEvent | null)[];
  for (const [sequence, event] of changes) list[sequence - first] = event;
  let start = 0;
  while (start < list.length && list[start] === null) start++;
  let end = list.length;
  while (end > start && list[end - 1] === null) end--;
  if (start === end) return undefined;
  const kept = list.slice(start, end);
  return { firstSequence: first + start, lastSequence: first + end - 1, lastTime: kept[kept.length - 1]!.time, body: JSON.stringify(kept) };
}

/** What erasure writes: per page changed, the page as it leaves it (undefined: deleted). */
export interface PageRewrite {
  readonly page: PageRow;
  readonly rewritten: RewrittenPage | undefined;
}

/**
 * The pages `changes` touch, each rewritten once with all its changes; `pageOf` finds the page
 * holding a sequence (every change's page must be among the pages given).
 */
export function rewritePages(changes: readonly ErasureChange[], pageOf: (community: string, sequence: number) => PageRow): PageRewrite[] {
  const byPage = new Map<PageRow, Map<number, StandingEvent | null>>();
  for (const change of changes) {
    const sequence = Number(change.sequence);
    const page = pageOf(change.community, sequence);
    (byPage.get(page) ?? byPage.set(page, new Map()).get(page)!).set(sequence, change.event);
  }
  return [...byPage].map(([page, pageChanges]) => ({ page, rewritten: rewritePage(page, pageChanges) }));
}
