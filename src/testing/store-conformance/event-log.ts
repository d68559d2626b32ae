/**
 * The event log's conformance suite: gapless per-community sequences in arrival order, events
 * stored exactly as given, idempotency by event id, atomic batches, durability across reopening,
 * tails and last events in one read, and gapless sequences under concurrent appends.
 */
import assert from 'node:assert/strict';
import type { EventLog } from '../../store/types.js';
import { action, playerOf } from './fixtures.js';
import { declarePortSuite, type Closing, type FreshStore, type PortCases, type TestFunctions } from './support.js';

export const eventLogCases: PortCases<EventLog & Closing> = (it, withStore) => {
  it('gives each community a gapless sequence in the order events arrive', async () => {
    await withStore(async (store) => {
      const first = await store.append([action('a', 1), action('b', 2), { ...action('c', 3), community: 'eu' }]);
      assert.deepEqual(
        first.appended.map((s) => [s.community, s.sequence]),
        [
          ['default', 1],
          ['default', 2],
          ['eu', 1],
        ],
      );
      const second = await store.append([action('d', 4)]);
      assert.deepEqual(
        second.appended.map((s) => s.sequence),
        [3],
      );
      assert.deepEqual(
        (await store.read('default')).map((s) => [s.sequence, playerOf(s.event)]),
        [
          [1, 'a'],
          [2, 'b'],
          [3, 'd'],
        ],
      );
      assert.deepEqual(
        (await store.read('default', 1, 1)).map((s) => s.sequence),
        [2],
      );
      assert.deepEqual(await store.communities(), ['default', 'eu']);
    });
  });

  it('stores events exactly as validated, extra fields included', async () => {
    await withStore(async (store) => {
      const event = action('a', -2.5, { id: 'e1', note: 'hello', nested: { x: [1, 2] } });
      await store.append([event]);
      assert.deepEqual((await store.read('default'))[0]?.event, event);
    });
  });

  it('accepts a repeated id once, within a batch and across batches; ids are per community', async () => {
    await withStore(async (store) => {
      const a = await store.append([action('a', 1, { id: 'x' }), action('a', 1, { id: 'x' }), action('b', 1)]);
      assert.equal(a.duplicates, 1);
      const b = await store.append([action('a', 1, { id: 'x' }), { ...action('a', 1, { id: 'x' }), community: 'eu' }, action('b', 1)]);
      assert.equal(b.duplicates, 1);
      assert.deepEqual(
        b.appended.map((s) => [s.community, s.sequence]),
        [
          ['eu', 1],
          ['default', 3],
        ],
      );
      assert.equal((await store.read('default')).length, 3);
      // The very same object twice is one event too.
      const same = action('c', 1, { id: 'same' });
      const c = await store.append([same, same]);
      assert.deepEqual([c.duplicates, c.appended.length], [1, 1]);
    });
  });

  it('stores a batch whole or not at all', async () => {
    await withStore(async (store) => {
      await store.append([action('a', 1)]);
      // The last event has no type: storing it fails inside the batch, after the others.
      const broken = { ...action('c', 3, { community: 'other' }), type: undefined as never };
      await assert.rejects(store.append([action('b', 2), action('b2', 2, { community: 'other' }), broken]));
      assert.deepEqual(
        (await store.read('default')).map((s) => playerOf(s.event)),
        ['a'],
      );
      assert.deepEqual(await store.read('other'), []);
      const next = await store.append([action('d', 4)]);
      assert.equal(next.appended[0]?.sequence, 2, 'a failed batch leaves no gap');
    });
  });

  it('keeps what it acknowledged across closing and reopening', async () => {
    await withStore(async (store, reopen) => {
      await store.append([action('a', 1, { id: 'k' }), action('b', 2)]);
      await store.close();
      await store.close(); // harmless
      const again = await reopen();
      try {
        assert.deepEqual(
          (await again.read('default')).map((s) => s.sequence),
          [1, 2],
        );
        assert.equal((await again.append([action('a', 1, { id: 'k' })])).duplicates, 1);
      } finally {
        await again.close();
      }
    });
  });

  it('reads the tails of several communities after a sequence each, in one read', async () => {
    await withStore(async (store) => {
      await store.append([action('a', 1), action('b', 2), action('c', 3), { ...action('d', 4), community: 'eu' }, { ...action('e', 5), community: 'us' }]);
      const tails = await store.readTails(
        new Map([
          ['us', 0],
          ['default', 1],
          ['eu', 1],
          ['nowhere', 0],
        ]),
      );
      assert.deepEqual(
        tails.map((t) => [t.community, t.sequence, playerOf(t.event)]),
        [
          ['us', 1, 'e'],
          ['default', 2, 'b'],
          ['default', 3, 'c'],
        ],
      );
      assert.deepEqual(await store.readTails(new Map()), []);
    });
  });

  it('answers the sequence and time of the last event of every community', async () => {
    await withStore(async (store) => {
      assert.deepEqual(await store.lastEvents(), new Map());
      await store.append([action('a', 1), { ...action('b', 2), time: 7 }, { ...action('c', 3), community: 'eu', time: 4 }]);
      assert.deepEqual(
        await store.lastEvents(),
        new Map([
          ['default', { sequence: 2, time: 7 }],
          ['eu', { sequence: 1, time: 4 }],
        ]),
      );
    });
  });

  it('answers which ids a community holds, and the last sequence of each community', async () => {
    await withStore(async (store) => {
      await store.append([action('a', 1, { id: 'x' }), action('a', 1, { id: 'y' }), { ...action('a', 1, { id: 'z' }), community: 'eu' }]);
      assert.deepEqual([...(await store.knownIds('default', ['x', 'z', 'w']))], ['x']);
      assert.deepEqual(await store.knownIds('default', []), new Set());
      assert.deepEqual([...(await store.knownIds('default', ['x', 'y'], 'action'))].sort(), ['x', 'y']);
      assert.deepEqual(await store.knownIds('default', ['x', 'y'], 'report'), new Set());
      assert.deepEqual(
        await store.sequences(),
        new Map([
          ['default', 2],
          ['eu', 1],
        ]),
      );
    });
  });

  it('keeps sequences gapless under concurrent appends', async () => {
    await withStore(async (store) => {
      const batches = Array.from({ length: 8 }, (_, b) => Array.from({ length: 5 }, (_, i) => action(`p${b}`, i, { id: `b${b}-${i}` })));
      await Promise.all(batches.map((batch) => store.append(batch)));
      const stored = await store.read('default');
      assert.deepEqual(
        stored.map((s) => s.sequence),
        Array.from({ length: 40 }, (_, i) => i + 1),
      );
      assert.equal(new Set(stored.map((s) => s.event.id)).size, 40);
    });
  });
};

/** Declares the suite `event log conformance: ${name}`; every case gets a store of its own from `fresh` and closes it. */
export function eventLogSuite(name: string, fresh: FreshStore<EventLog & Closing>, test: TestFunctions): void {
  declarePortSuite('event log', eventLogCases, name, fresh, test);
}
