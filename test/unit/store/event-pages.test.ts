/**
 * PostgreSQL's event log in pages (src/store/event-pages.ts, src/store/event-pages-schema.ts):
 * the pure page arithmetic by hand, then a real PostgreSQL store where pages matter — runs longer
 * than a page, logs of one-event pages, erasure that trims a page — and the upgrade of a
 * version-7 store (events as rows, with erased gaps) to pages.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { StandingEvent } from '../../../src/events/types.js';
import { PAGE_EVENTS } from '../../../src/store/event-pages-schema.js';
import { eventsOfPage, pageArguments, rewritePage } from '../../../src/store/event-pages.js';
import { MIGRATIONS } from '../../../src/store/migrations.js';
import { eventsAfter } from '../../../src/store/pages.js';
import { ERASE_PAGES, ERASURE_LOCK } from '../../../src/store/postgres-erasure.js';
import { eraseRewrite } from '../../../src/service/erasure.js';
import { openPostgresStore } from '../../../src/store/postgres.js';
import { dropPostgresSchemas, freshPostgresUrl, postgresAvailable, postgresStoreAtVersion } from '../../support/postgres.js';

const action = (player: string, time: number, community = 'default', id?: string): StandingEvent => ({
  type: 'action',
  time,
  community,
  player,
  delta: 1,
  ...(id === undefined ? {} : { id }),
});
const players = (events: readonly { event: StandingEvent }[]) => events.map((s) => (s.event as { player: string }).player);

describe('event pages, by hand', () => {
  it('groups a batch by community into pages with offsets, and sends ids and moderator events and reports alongside', () => {
    const report: StandingEvent = { type: 'report', time: 3, community: 'eu', id: 'r1', from: 'ann', to: 'bob' };
    const { values, eventOfId } = pageArguments([action('a', 1, 'default', 'x'), action('b', 2, 'eu'), report, action('c', 4, 'default', 'y')]);
    const [communities, offsets, counts, lastTimes, bodies, idCommunities, ids, idTypes, rowCommunities, rowOffsets, rowIds, rowTypes] = values as unknown[][];
    expect([communities, offsets, counts, lastTimes]).toEqual([['default', 'eu'], [0, 0], [2, 2], [4, 3]]);
    expect((bodies as unknown as string).split('\n').map((b) => (JSON.parse(b) as unknown[]).length)).toEqual([2, 2]);
    expect([idCommunities, ids, idTypes]).toEqual([['default', 'default', 'eu'], ['x', 'y', 'r1'], ['action', 'action', 'report']]);
    expect(eventOfId).toEqual([0, 3, 2]); // per id sent, its event's index in the batch
    expect([rowCommunities, rowOffsets, rowIds, rowTypes]).toEqual([['eu'], [2], ['r1'], ['report']]); // the report is eu's 2nd event
  });

  it('cuts a longer run of one community into pages of PAGE_EVENTS', () => {
    const run = Array.from({ length: PAGE_EVENTS * 2 + 1 }, (_, i) => action(`p${i}`, i));
    const [, offsets, counts, lastTimes] = pageArguments(run).values as number[][];
    expect([offsets, counts, lastTimes]).toEqual([
      [0, PAGE_EVENTS, PAGE_EVENTS * 2],
      [PAGE_EVENTS, PAGE_EVENTS, 1],
      [PAGE_EVENTS - 1, PAGE_EVENTS * 2 - 1, PAGE_EVENTS * 2],
    ]);
  });

  it('refuses an event without a type before anything is sent', () => {
    expect(() => pageArguments([action('a', 1), { ...action('b', 2), type: undefined as never }])).toThrow(/type/);
  });

  it('reads a page from a sequence on, skipping erased events; erasure trims the ends and empties a page', () => {
    const page = { community: 'c', first_sequence: '10', body: JSON.stringify([action('a', 1), null, action('c', 3), action('d', 4)]) };
    expect(eventsOfPage(page).map((s) => s.sequence)).toEqual([10, 12, 13]);
    expect(players(eventsOfPage(page, 11))).toEqual(['c', 'd']);
    expect(eventsOfPage(page, 13)).toEqual([]);
    const trimmed = rewritePage(page, new Map([[10, null]]));
    expect(trimmed).toMatchObject({ firstSequence: 12, lastSequence: 13, lastTime: 4 });
    expect(JSON.parse(trimmed!.body)).toEqual([action('c', 3), action('d', 4)]);
    expect(rewritePage(page, new Map([[13, null]]))).toMatchObject({ firstSequence: 10, lastSequence: 12, lastTime: 3 });
    expect(rewritePage(page, new Map([[10, null], [12, null], [13, null]]))).toBeUndefined();
  });
});

describe.skipIf(!postgresAvailable)('event pages in PostgreSQL', () => {
  afterAll(dropPostgresSchemas);

  it('reads a run longer than a page from any sequence, in any amount', async () => {
    const store = await openPostgresStore(await freshPostgresUrl());
    try {
      const total = PAGE_EVENTS * 2 + 500;
      await store.append(Array.from({ length: total }, (_, i) => action(`p${i + 1}`, i + 1)));
      expect(players(await store.read('default', PAGE_EVENTS - 1, PAGE_EVENTS + 1))).toEqual(Array.from({ length: PAGE_EVENTS + 1 }, (_, i) => `p${PAGE_EVENTS + i}`));
      expect((await store.read('default')).map((s) => s.sequence)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      const tails = await store.readTails(new Map([['default', total - 2]]));
      expect(tails.map((s) => s.sequence)).toEqual([total - 1, total]);
      expect((await store.lastEvents()).get('default')).toEqual({ sequence: total, time: total });
    } finally {
      await store.close();
    }
  });

  it('reads a log of one-event pages in full, a limit at a time', async () => {
    const store = await openPostgresStore(await freshPostgresUrl());
    try {
      for (let i = 1; i <= 300; i++) await store.append([action(`p${i}`, i)]);
      expect((await store.read('default', 0, 120)).map((s) => s.sequence)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
      expect((await store.read('default', 250)).map((s) => s.sequence)).toEqual(Array.from({ length: 50 }, (_, i) => 251 + i));
      const all: number[] = [];
      for await (const stored of eventsAfter(store, 'default')) all.push(stored.sequence);
      expect(all).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    } finally {
      await store.close();
    }
  });

  it('erasing a page’s first events moves its start; reads from inside the gap go on after it', async () => {
    const store = await openPostgresStore(await freshPostgresUrl());
    try {
      await store.append([action('ann', 1), action('ann', 2), action('bob', 3), action('ann', 4)]);
      await store.append([action('cid', 5), action('ann', 6)]);
      const outcome = await store.erase('ann', (e) => ((e as { player?: string }).player === 'ann' ? null : undefined));
      expect(outcome).toEqual({ communities: ['default'], removed: 4, rewritten: 0 });
      expect((await store.read('default')).map((s) => [s.sequence, (s.event as { player: string }).player])).toEqual([
        [3, 'bob'],
        [5, 'cid'],
      ]);
      expect((await store.read('default', 1)).map((s) => s.sequence)).toEqual([3, 5]);
      expect((await store.read('default', 3)).map((s) => s.sequence)).toEqual([5]);
      expect((await store.lastEvents()).get('default')).toEqual({ sequence: 5, time: 5 });
      expect((await store.append([action('dan', 7)])).appended[0]?.sequence).toBe(7);
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(!postgresAvailable)('erasure and reads over many pages', () => {
  afterAll(dropPostgresSchemas);

  it(`erases a player named in more than ${ERASE_PAGES} pages, rewriting what it keeps, removing the rest`, async () => {
    const store = await openPostgresStore(await freshPostgresUrl());
    try {
      const pages = ERASE_PAGES * 2 + 50;
      for (let i = 1; i <= pages; i++) {
        await store.append([
          i % 2 === 0 ? action('ann', i, 'default', `a${i}`) : { type: 'chat', time: i, community: 'default', id: `c${i}`, from: 'bob', to: ['ann', 'cid'] },
          action('bob', i),
        ]);
      }
      const outcome = await store.erase('ann', eraseRewrite('ann'));
      expect(outcome).toEqual({ communities: ['default'], removed: pages / 2, rewritten: pages / 2 });
      const left = await store.read('default');
      expect(left).toHaveLength(pages * 2 - pages / 2);
      expect(left.some((s) => JSON.stringify(s.event).includes('"ann"'))).toBe(false);
      expect(await store.knownIds('default', ['a2', 'c1'])).toEqual(new Set(['c1'])); // a removed event's id is forgotten, a rewritten one's kept
      expect((await store.read('default', 0, 3)).map((s) => s.sequence)).toEqual([1, 2, 4]);
    } finally {
      await store.close();
    }
  });

  it('an erasure waits for another one under way, then reads the pages as that one left them, moved starts included', async () => {
    const url = await freshPostgresUrl();
    const store = await openPostgresStore(url);
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      for (let page = 0; page < 20; page++) await store.append([action('ann', page), action('bob', page), action('cid', page)]);
      // Another process's erasure of ann, under way: it holds the erasure lock and has moved each
      // page's start past her event, by deleting the page and inserting it again (the most a
      // writer could change a page's key).
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock($1)', [ERASURE_LOCK]);
      const { rows } = await other.query<{ community: string; first_sequence: string; body: string }>('SELECT community, first_sequence, body FROM event_pages');
      for (const row of rows) {
        const moved = rewritePage(row, new Map([[Number(row.first_sequence), null]]))!;
        await other.query('DELETE FROM event_pages WHERE community = $1 AND first_sequence = $2', [row.community, row.first_sequence]);
        await other.query('INSERT INTO event_pages (community, first_sequence, last_sequence, last_time, body) VALUES ($1, $2, $3, $4, $5)', [
          row.community,
          moved.firstSequence,
          moved.lastSequence,
          moved.lastTime,
          moved.body,
        ]);
      }
      const erasing = store.erase('bob', eraseRewrite('bob'));
      // Bounded: until the erasure waits for the lock (its backend is seen waiting on it).
      for (let tries = 0; ; tries++) {
        const waiting = await other.query("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
        if (waiting.rowCount! > 0) break;
        if (tries === 500) throw new Error('the erasure never waited for the lock');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await other.query('COMMIT');
      expect(await erasing).toEqual({ communities: ['default'], removed: 20, rewritten: 0 });
      expect(players(await store.read('default'))).toEqual(Array.from({ length: 20 }, () => 'cid'));
    } finally {
      await other.end();
      await store.close();
    }
  });

  it('reads exactly the limit across small and full pages, and past a gap longer than the limit', async () => {
    const store = await openPostgresStore(await freshPostgresUrl());
    try {
      for (let i = 1; i <= 5; i++) await store.append([action(`s${i}`, i)]);
      await store.append(Array.from({ length: PAGE_EVENTS * 3 }, (_, i) => action(i >= PAGE_EVENTS && i < PAGE_EVENTS * 2 ? 'gone' : `p${i}`, i)));
      expect((await store.read('default', 0, 2_000)).map((s) => s.sequence)).toEqual(Array.from({ length: 2_000 }, (_, i) => i + 1));
      await store.erase('gone', eraseRewrite('gone')); // sequences 1,006 … 2,005: the middle page, whole
      expect((await store.read('default', 1_000, 10)).map((s) => s.sequence)).toEqual([1_001, 1_002, 1_003, 1_004, 1_005, 2_006, 2_007, 2_008, 2_009, 2_010]);
      expect((await store.read('default', 1_005, 3)).map((s) => s.sequence)).toEqual([2_006, 2_007, 2_008]);
      expect(await store.read('default', 5 + PAGE_EVENTS * 3)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(!postgresAvailable)('an earlier PostgreSQL store', () => {
  afterAll(dropPostgresSchemas);

  it('upgrades a version-7 store (events as rows, with erased gaps) to pages, keeping every event, id and moderator event', async () => {
    const rows: [string, number, StandingEvent][] = [
      ['default', 1, { type: 'report', time: 1, community: 'default', id: 'r1', from: 'ann', to: 'bob' }],
      ['default', 2, action('ann', 2, 'default', 'a2')],
      // 3 and 4 were erased
      ['default', 5, { type: 'verdict', time: 5, community: 'default', on: 'report', report: 'r1', outcome: 'upheld', moderator: 'mia' } as StandingEvent],
      ['default', 6, action('cid', 6)],
      ['eu', 2, action('dee', 7, 'eu', 'e2')], // eu's first event was erased
    ];
    const url = await postgresStoreAtVersion(7, async (client) => {
      await client.query("INSERT INTO communities (name, last_sequence) VALUES ('default', 6), ('eu', 3)");
      for (const [community, sequence, event] of rows) {
        await client.query('INSERT INTO events (community, sequence, event_id, type, time, body) VALUES ($1, $2, $3, $4, $5, $6)', [
          community,
          sequence,
          event.id ?? null,
          event.type,
          event.time,
          JSON.stringify(event),
        ]);
      }
    });
    const store = await openPostgresStore(url);
    try {
      expect(await store.schemaVersion()).toBe(MIGRATIONS[MIGRATIONS.length - 1]!.version);
      expect((await store.read('default')).map((s) => [s.sequence, s.event])).toEqual(rows.filter(([c]) => c === 'default').map(([, sequence, event]) => [sequence, event]));
      expect((await store.read('default', 2)).map((s) => s.sequence)).toEqual([5, 6]);
      expect((await store.read('eu')).map((s) => s.sequence)).toEqual([2]);
      expect(await store.knownIds('default', ['r1', 'a2', 'zz'])).toEqual(new Set(['r1', 'a2']));
      expect(await store.knownIds('default', ['r1', 'a2'], 'report')).toEqual(new Set(['r1']));
      expect(await store.lastEvents()).toEqual(new Map([['default', { sequence: 6, time: 6 }], ['eu', { sequence: 2, time: 7 }]]));
      const audit = await store.moderationEvents({ player: 'bob' });
      expect(audit.map((e) => [e.sequence, e.action, e.player])).toEqual([[5, 'verdict.upheld', 'bob']]); // its report's `to`, found by id
      expect((await store.append([action('a2 again', 8, 'default', 'a2'), action('eve', 8, 'eu')])).appended.map((s) => [s.community, s.sequence])).toEqual([['eu', 4]]);
      // The verdict naming the removed report comes to the rewrite with it: removed here too.
      expect(await store.erase('ann', (e, removed) => ((e.type === 'report' && e.from === 'ann') || removed !== undefined ? null : undefined))).toEqual({ communities: ['default'], removed: 2, rewritten: 0 });
      expect((await store.read('default')).map((s) => s.sequence)).toEqual([2, 6]); // the report and the verdict naming it
      expect(await store.moderationEvents({})).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
