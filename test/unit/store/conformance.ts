/**
 * One conformance suite for every event store backend: migrations, gapless per-community
 * sequences, idempotency by id, atomic batches, checkpoints, durability across reopening.
 */
import { describe, expect, it } from 'vitest';
import type { StandingEvent } from '../../../src/index.js';
import { LATEST_VERSION, MIGRATIONS } from '../../../src/store/migrations.js';
import type { EventStore } from '../../../src/store/types.js';

const action = (player: string, delta: number, extra: Record<string, unknown> = {}): StandingEvent => ({
  type: 'action',
  time: 1_714_586_400_000,
  community: 'default',
  player,
  delta,
  ...extra,
});

/** `open` opens the same store each call (so reopening can be tested); `fresh` starts an empty one. */
export function storeConformance(name: string, setup: { fresh(): Promise<() => Promise<EventStore>>; skip?: boolean }): void {
  describe.skipIf(setup.skip === true)(`event store conformance: ${name}`, () => {
    async function withStore<T>(body: (store: EventStore, reopen: () => Promise<EventStore>) => Promise<T>): Promise<T> {
      const open = await setup.fresh();
      const store = await open();
      try {
        return await body(store, open);
      } finally {
        await store.close();
      }
    }

    it('migrates a new store to the latest schema version, once', async () => {
      await withStore(async (store, reopen) => {
        expect(await store.schemaVersion()).toBe(LATEST_VERSION);
        expect(LATEST_VERSION).toBe(MIGRATIONS.length);
        const again = await reopen();
        expect(await again.schemaVersion()).toBe(LATEST_VERSION);
        await again.close();
      });
    });

    it('gives each community a gapless sequence in the order events arrive', async () => {
      await withStore(async (store) => {
        const first = await store.append([action('a', 1), action('b', 2), { ...action('c', 3), community: 'eu' }]);
        expect(first.appended.map((s) => [s.community, s.sequence])).toEqual([
          ['default', 1],
          ['default', 2],
          ['eu', 1],
        ]);
        const second = await store.append([action('d', 4)]);
        expect(second.appended.map((s) => s.sequence)).toEqual([3]);
        expect((await store.read('default')).map((s) => [s.sequence, (s.event as { player: string }).player])).toEqual([
          [1, 'a'],
          [2, 'b'],
          [3, 'd'],
        ]);
        expect((await store.read('default', 1, 1)).map((s) => s.sequence)).toEqual([2]);
        expect(await store.communities()).toEqual(['default', 'eu']);
      });
    });

    it('stores events exactly as validated, extra fields included', async () => {
      await withStore(async (store) => {
        const event = action('a', -2.5, { id: 'e1', note: 'hello', nested: { x: [1, 2] } });
        await store.append([event]);
        expect((await store.read('default'))[0]!.event).toEqual(event);
      });
    });

    it('accepts a repeated id once, within a batch and across batches; ids are per community', async () => {
      await withStore(async (store) => {
        const a = await store.append([action('a', 1, { id: 'x' }), action('a', 1, { id: 'x' }), action('b', 1)]);
        expect(a.duplicates).toBe(1);
        const b = await store.append([action('a', 1, { id: 'x' }), { ...action('a', 1, { id: 'x' }), community: 'eu' }, action('b', 1)]);
        expect(b.duplicates).toBe(1);
        expect(b.appended.map((s) => [s.community, s.sequence])).toEqual([
          ['eu', 1],
          ['default', 3],
        ]);
        expect(await store.read('default')).toHaveLength(3);
      });
    });

    it('stores a batch whole or not at all', async () => {
      await withStore(async (store) => {
        await store.append([action('a', 1)]);
        const circular: Record<string, unknown> = {};
        circular.self = circular;
        await expect(store.append([action('b', 2), action('c', 3, { circular })])).rejects.toThrow();
        expect((await store.read('default')).map((s) => (s.event as { player: string }).player)).toEqual(['a']);
        const next = await store.append([action('d', 4)]);
        expect(next.appended[0]!.sequence).toBe(2); // no gap left by the failed batch
      });
    });

    it('keeps what it acknowledged across closing and reopening', async () => {
      await withStore(async (store, reopen) => {
        await store.append([action('a', 1, { id: 'k' }), action('b', 2)]);
        await store.saveCheckpoint('cqr', 'default', { sequence: 2, state: '{"s":1}' });
        await store.close();
        await store.close(); // harmless
        const again = await reopen();
        try {
          expect((await again.read('default')).map((s) => s.sequence)).toEqual([1, 2]);
          expect((await again.append([action('a', 1, { id: 'k' })])).duplicates).toBe(1);
          expect(await again.loadCheckpoint('cqr', 'default')).toEqual({ sequence: 2, state: '{"s":1}' });
        } finally {
          await again.close();
        }
      });
    });

    it('saves and replaces checkpoints per scorer and community', async () => {
      await withStore(async (store) => {
        expect(await store.loadCheckpoint('cqr', 'default')).toBeUndefined();
        await store.saveCheckpoint('cqr', 'default', { sequence: 5, state: 'a' });
        await store.saveCheckpoint('cqr', 'default', { sequence: 9, state: 'b' });
        await store.saveCheckpoint('chat', 'default', { sequence: 1, state: 'c' });
        expect(await store.loadCheckpoint('cqr', 'default')).toEqual({ sequence: 9, state: 'b' });
        expect(await store.loadCheckpoint('chat', 'default')).toEqual({ sequence: 1, state: 'c' });
        expect(await store.loadCheckpoint('cqr', 'eu')).toBeUndefined();
      });
    });

    it('keeps sequences gapless under concurrent appends', async () => {
      await withStore(async (store) => {
        const batches = Array.from({ length: 8 }, (_, b) => Array.from({ length: 5 }, (_, i) => action(`p${b}`, i, { id: `b${b}-${i}` })));
        await Promise.all(batches.map((batch) => store.append(batch)));
        const stored = await store.read('default');
        expect(stored.map((s) => s.sequence)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
        expect(new Set(stored.map((s) => s.event.id)).size).toBe(40);
      });
    });
  });
}
