/**
 * Appends beyond the conformance suite, against a real SQLite file and a real PostgreSQL server
 * (skipped without one, unless STANDING_REQUIRE_POSTGRES=1): a batch mixing stored ids, ids
 * repeated within it and new events; and PostgreSQL appends from two stores at once, as from two
 * processes.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StandingEvent } from '../../../src/index.js';
import { openPostgresStore } from '../../../src/store/postgres.js';
import { openSqliteStore } from '../../../src/store/sqlite.js';
import type { EventStore } from '../../../src/store/types.js';
import { dropPostgresSchemas, freshPostgresUrl, postgresAvailable } from '../../support/postgres.js';

const backends: { name: string; skip: boolean; open(): Promise<EventStore> }[] = [
  { name: 'SQLite file', skip: false, open: async () => openSqliteStore(join(mkdtempSync(join(tmpdir(), 'standing-appends-')), 'events.sqlite')) },
  { name: 'SQLite file, appends on a worker thread', skip: false, open: async () => openSqliteStore(join(mkdtempSync(join(tmpdir(), 'standing-appends-')), 'events.sqlite'), { appendThread: true }) },
  { name: 'PostgreSQL', skip: !postgresAvailable, open: async () => openPostgresStore(await freshPostgresUrl()) },
];

afterAll(dropPostgresSchemas);

for (const backend of backends) {
  describe.skipIf(backend.skip)(`appends: ${backend.name}`, () => {
    it('an append mixing stored ids, repeats within the batch and new events gives the new ones consecutive sequences', async () => {
      const s = await backend.open();
      const at = (community: string, id: string | undefined, player: string): StandingEvent =>
        ({ type: 'action', community, time: 5, player, delta: 1, ...(id === undefined ? {} : { id }) }) as StandingEvent;
      try {
        await s.append([at('a', 'x', 'p1'), at('b', 'y', 'p2')]);
        const outcome = await s.append([at('a', 'x', 'p3'), at('a', 'n1', 'p4'), at('b', 'y', 'p5'), at('a', 'n1', 'p6'), at('b', undefined, 'p7'), at('a', 'n2', 'p8'), at('c', 'x', 'p9')]);
        expect(outcome.duplicates).toBe(3);
        expect(outcome.appended.map((e) => [e.community, e.sequence, (e.event as { player: string }).player])).toEqual([
          ['a', 2, 'p4'],
          ['b', 2, 'p7'],
          ['a', 3, 'p8'],
          ['c', 1, 'p9'],
        ]);
        const again = await s.append([at('a', 'x', 'q'), at('a', 'n2', 'q')]);
        expect([again.appended.length, again.duplicates]).toEqual([0, 2]);
        expect(await s.sequences()).toEqual(new Map([['a', 3], ['b', 2], ['c', 1]]));
        expect((await s.append([at('a', undefined, 'r')])).appended[0]!.sequence).toBe(4);
      } finally {
        await s.close();
      }
    });
  });
}

describe.skipIf(!postgresAvailable)('PostgreSQL appends from several processes', () => {
  it('two stores on one database append concurrently: every id once, sequences gapless, no deadlock', async () => {
    const url = await freshPostgresUrl();
    const stores = [await openPostgresStore(url), await openPostgresStore(url)];
    try {
      const communities = ['eu', 'us', 'asia', 'default'];
      // Each batch touches several communities, in an order of its own; ids overlap between the stores' batches.
      const batch = (store: number, b: number): StandingEvent[] =>
        Array.from({ length: 30 }, (_, i) => ({
          type: 'action',
          community: communities[(b + i * (store + 1)) % communities.length]!,
          time: 1_000 + i,
          player: `p${store}-${b}-${i}`,
          delta: 1,
          id: `id-${(b * 30 + i) % 200}`,
        })) as StandingEvent[];
      const outcomes = await Promise.all(stores.flatMap((store, s) => Array.from({ length: 10 }, (_, b) => store.append(batch(s, b)))));
      const sent = 2 * 10 * 30;
      expect(outcomes.reduce((n, o) => n + o.appended.length + o.duplicates, 0)).toBe(sent);
      for (const community of communities) {
        const stored = await stores[0]!.read(community);
        expect(stored.map((e) => e.sequence)).toEqual(stored.map((_, i) => i + 1));
        expect(new Set(stored.map((e) => e.event.id)).size).toBe(stored.length);
      }
      const appended = outcomes.flatMap((o) => o.appended);
      const total = (await Promise.all(communities.map((c) => stores[1]!.read(c)))).flat().length;
      expect(appended.length).toBe(total);
      // What each append answered is what is stored.
      for (const { community, sequence, event } of appended) expect((await stores[1]!.read(community, sequence - 1, 1))[0]!.event).toEqual(event);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

});
