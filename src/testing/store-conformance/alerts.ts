/**
 * The alert store's conformance suite: alerts numbered in order over the whole store, read
 * filtered, in pages and newest first, the open ones known, and pruning that keeps those.
 */
import assert from 'node:assert/strict';
import type { AlertStore, StoredAlert } from '../../store/types.js';
import { alert } from './fixtures.js';
import { declarePortSuite, type Closing, type FreshStore, type PortCases, type TestFunctions } from './support.js';

/** The alerts matching `query` with an id above `after`, read `limit` at a time, as pages. */
async function alertPages(store: AlertStore, query: { after?: number; player?: string }, limit: number): Promise<StoredAlert[][]> {
  const pages: StoredAlert[][] = [];
  let after = query.after ?? 0;
  for (;;) {
    const page = await store.readAlerts({ ...query, after, limit });
    if (page.length > 0) pages.push(page);
    if (page.length < limit) return pages;
    after = page[page.length - 1]!.id;
  }
}

export const alertStoreCases: PortCases<AlertStore & Closing> = (it, withStore) => {
  it('pages through every alert after an id, filtered, each once and in order', async () => {
    await withStore(async (store) => {
      const first = await store.appendAlerts([alert('zed')]);
      const many = Array.from({ length: 5_003 }, (_, i) => alert(i % 2 === 0 ? 'ann' : 'bob'));
      await store.appendAlerts(many);
      const pages = (await alertPages(store, { after: first[0]!.id }, 5_000)).map((page) => page.map((a) => a.id));
      assert.deepEqual(
        pages.map((p) => p.length),
        [5_000, 3],
      );
      const ids = pages.flat();
      assert.equal(new Set(ids).size, 5_003);
      assert.ok(
        ids.every((id, i) => i === 0 || id > ids[i - 1]!),
        'alert ids increase',
      );
      const anns = (await alertPages(store, { player: 'ann' }, 5_000)).flat();
      assert.equal(anns.length, 2_502);
    });
  });

  it('numbers alerts in order, filters them, and knows which are still open', async () => {
    await withStore(async (store) => {
      const stored = await store.appendAlerts([alert('ann'), alert('bob'), { ...alert('ann'), kind: 'cleared', score: 3 }]);
      assert.deepEqual(
        stored.map((a) => [a.player, a.kind]),
        [
          ['ann', 'raised'],
          ['bob', 'raised'],
          ['ann', 'cleared'],
        ],
      );
      assert.ok(stored[0]!.id < stored[1]!.id && stored[1]!.id < stored[2]!.id, 'alert ids increase');
      const { id: _id, createdAt, ...rest } = stored[0]!;
      assert.deepEqual(rest, alert('ann'));
      assert.match(createdAt, /^\d{4}-/);
      assert.deepEqual(await store.appendAlerts([]), []);
      assert.deepEqual(
        (await store.readAlerts({ player: 'ann' })).map((a) => a.kind),
        ['raised', 'cleared'],
      );
      assert.deepEqual(
        (await store.readAlerts({ after: stored[0]!.id, limit: 1 })).map((a) => a.player),
        ['bob'],
      );
      assert.deepEqual(await store.readAlerts({ community: 'nowhere' }), []);
      assert.deepEqual(
        (await store.readAlerts({ newestFirst: true, limit: 2 })).map((a) => a.id),
        [stored[2]!.id, stored[1]!.id],
      );
      assert.deepEqual(
        (await store.openAlerts()).map((a) => a.player),
        ['bob'],
      );
      await store.appendAlerts([alert('ann')]);
      assert.deepEqual(
        (await store.openAlerts()).map((a) => a.player),
        ['bob', 'ann'],
      );
      // Pruning keeps open alerts whatever their age.
      assert.equal(await store.pruneAlerts('2000-01-01T00:00:00.000Z'), 0);
      assert.equal(await store.pruneAlerts('2999-01-01T00:00:00.000Z'), 2);
      assert.deepEqual(
        (await store.readAlerts()).map((a) => [a.player, a.kind]),
        [
          ['bob', 'raised'],
          ['ann', 'raised'],
        ],
      );
    });
  });
};

/** Declares the suite `alert store conformance: ${name}`; every case gets a store of its own from `fresh` and closes it. */
export function alertStoreSuite(name: string, fresh: FreshStore<AlertStore & Closing>, test: TestFunctions): void {
  declarePortSuite('alert store', alertStoreCases, name, fresh, test);
}
