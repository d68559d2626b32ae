/**
 * One conformance suite for every event store backend: migrations, gapless per-community
 * sequences, idempotency by id, atomic batches, checkpoints, durability across reopening.
 */
import { describe, expect, it } from 'vitest';
import type { StandingEvent } from '../../../src/index.js';
import { LATEST_VERSION, MIGRATIONS } from '../../../src/store/migrations.js';
import { alertPagesAfter } from '../../../src/store/pages.js';
import type { CheckpointSet, EventStore, NewAlert } from '../../../src/store/types.js';

const action = (player: string, delta: number, extra: Record<string, unknown> = {}): StandingEvent => ({
  type: 'action',
  time: 1_714_586_400_000,
  community: 'default',
  player,
  delta,
  ...extra,
});

const alert = (player: string): NewAlert => ({
  community: 'default',
  scorer: 'cqr T=8,x=10,k=4',
  player,
  threshold: 'cqr-low',
  kind: 'raised',
  score: -60.5,
  sequence: 3,
  time: 1_714_586_400_000,
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
        // The very same object twice is one event too.
        const same = action('c', 1, { id: 'same' });
        const c = await store.append([same, same]);
        expect([c.duplicates, c.appended.length]).toEqual([1, 1]);
      });
    });

    it('stores a batch whole or not at all', async () => {
      await withStore(async (store) => {
        await store.append([action('a', 1)]);
        // The last row breaks a NOT NULL column inside the transaction, after the others were written.
        const broken = { ...action('c', 3, { community: 'other' }), type: undefined as never };
        await expect(store.append([action('b', 2), action('b2', 2, { community: 'other' }), broken])).rejects.toThrow();
        expect((await store.read('default')).map((s) => (s.event as { player: string }).player)).toEqual(['a']);
        expect(await store.read('other')).toEqual([]);
        const next = await store.append([action('d', 4)]);
        expect(next.appended[0]!.sequence).toBe(2); // no gap left by the failed batch
      });
    });

    it('keeps what it acknowledged across closing and reopening', async () => {
      await withStore(async (store, reopen) => {
        await store.append([action('a', 1, { id: 'k' }), action('b', 2)]);
        await store.saveCheckpoints('default', { sequence: 2, states: { cqr: '{"s":1}' } });
        await store.close();
        await store.close(); // harmless
        const again = await reopen();
        try {
          expect((await again.read('default')).map((s) => s.sequence)).toEqual([1, 2]);
          expect((await again.append([action('a', 1, { id: 'k' })])).duplicates).toBe(1);
          expect(await again.loadCheckpoints('default')).toEqual({ sequence: 2, states: { cqr: '{"s":1}' } });
        } finally {
          await again.close();
        }
      });
    });

    it('saves and replaces the checkpoint set of a community whole', async () => {
      await withStore(async (store) => {
        expect(await store.loadCheckpoints('default')).toBeUndefined();
        await store.saveCheckpoints('default', { sequence: 5, states: { cqr: 'a', chat: 'c' } });
        await store.saveCheckpoints('default', { sequence: 9, states: { cqr: 'b', quality: 'q' } });
        await store.saveCheckpoints('eu', { sequence: 1, states: { cqr: 'e' } });
        expect(await store.loadCheckpoints('default')).toEqual({ sequence: 9, states: { cqr: 'b', quality: 'q' } });
        expect(await store.loadCheckpoints('eu')).toEqual({ sequence: 1, states: { cqr: 'e' } });
        expect(await store.loadCheckpoints('us')).toBeUndefined();
      });
    });

    it('saves the checkpoint sets of many communities together, and loads them together', async () => {
      await withStore(async (store) => {
        await store.saveCheckpoints('default', { sequence: 5, states: { cqr: 'a', chat: 'c' } });
        await store.saveCheckpoints('us', { sequence: 2, states: { cqr: 'u' } });
        await store.saveCheckpointSets(
          new Map<string, CheckpointSet>([
            ['default', { sequence: 9, states: { cqr: 'b', quality: 'q' } }],
            ['eu', { sequence: 1, states: { cqr: 'e' } }],
          ]),
        );
        await store.saveCheckpointSets(new Map());
        expect(await store.loadCheckpoints('default')).toEqual({ sequence: 9, states: { cqr: 'b', quality: 'q' } });
        expect(await store.loadCheckpointSets(['eu', 'default', 'us', 'nowhere'])).toEqual(
          new Map([
            ['default', { sequence: 9, states: { cqr: 'b', quality: 'q' } }],
            ['eu', { sequence: 1, states: { cqr: 'e' } }],
            ['us', { sequence: 2, states: { cqr: 'u' } }],
          ]),
        );
        expect(await store.loadCheckpointSets([])).toEqual(new Map());
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
        expect(tails.map((t) => [t.community, t.sequence, (t.event as { player: string }).player])).toEqual([
          ['us', 1, 'e'],
          ['default', 2, 'b'],
          ['default', 3, 'c'],
        ]);
        expect(await store.readTails(new Map())).toEqual([]);
      });
    });

    it('answers the sequence and time of the last event of every community', async () => {
      await withStore(async (store) => {
        expect(await store.lastEvents()).toEqual(new Map());
        await store.append([action('a', 1), { ...action('b', 2), time: 7 }, { ...action('c', 3), community: 'eu', time: 4 }]);
        expect(await store.lastEvents()).toEqual(
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
        expect([...(await store.knownIds('default', ['x', 'z', 'w']))]).toEqual(['x']);
        expect(await store.knownIds('default', [])).toEqual(new Set());
        expect(await store.sequences()).toEqual(new Map([['default', 2], ['eu', 1]]));
      });
    });

    it('erases a player: rewrites or removes the events naming them, drops checkpoints and alerts, in one go', async () => {
      await withStore(async (store) => {
        await store.append([
          action('ann', 1),
          { type: 'chat', time: 2, community: 'default', from: 'bob', to: ['ann', 'cid'] },
          action('bob', 3, { note: 'not about "ann" as a player' }),
          { type: 'rating', time: 4, community: 'eu', from: 'ann', to: 'bob', value: 1 },
          action('cid', 5),
          action('ann', 6),
        ]);
        await store.saveCheckpoints('default', { sequence: 5, states: { cqr: 's' } });
        await store.saveCheckpoints('us', { sequence: 1, states: { cqr: 'u' } });
        await store.appendAlerts([alert('ann'), alert('bob')]);
        const outcome = await store.erase('ann', (e) => {
          if (e.type === 'chat') return { ...e, to: e.to.filter((p) => p !== 'ann') };
          if ((e.type === 'action' && e.player === 'ann') || (e.type === 'rating' && e.from === 'ann')) return null;
          return undefined;
        });
        expect(outcome).toEqual({ communities: ['default', 'eu'], removed: 3, rewritten: 1 });
        expect((await store.read('default')).map((s) => [s.sequence, s.event.type])).toEqual([
          [2, 'chat'],
          [3, 'action'],
          [4, 'action'],
        ]);
        expect((await store.read('default'))[0]!.event).toMatchObject({ to: ['cid'] });
        expect(await store.read('eu')).toEqual([]);
        expect(await store.loadCheckpoints('default')).toBeUndefined();
        expect(await store.loadCheckpoints('us')).toEqual({ sequence: 1, states: { cqr: 'u' } });
        expect((await store.readAlerts()).map((a) => a.player)).toEqual(['bob']);
        // Sequences go on from the last one given (5, erased), never reused.
        expect((await store.append([action('dan', 1)])).appended[0]!.sequence).toBe(6);
      });
    });

    it('keeps API keys by id, lists them and revokes them once', async () => {
      await withStore(async (store) => {
        const key = { id: 'k1', hash: 'ab'.repeat(32), scopes: ['ingest', 'read'] as const, label: 'game server', createdAt: '2026-11-21T00:00:00.000Z' };
        await store.saveKey({ ...key, scopes: [...key.scopes] });
        expect(await store.findKey('k1')).toEqual(key);
        expect(await store.findKey('k2')).toBeUndefined();
        await expect(store.saveKey({ ...key, scopes: ['admin'] })).rejects.toThrow();
        expect(await store.revokeKey('k1', '2026-11-22T00:00:00.000Z')).toBe(true);
        expect(await store.revokeKey('k1', '2026-11-23T00:00:00.000Z')).toBe(false);
        expect(await store.revokeKey('nope', '2026-11-23T00:00:00.000Z')).toBe(false);
        expect(await store.listKeys()).toEqual([{ ...key, revokedAt: '2026-11-22T00:00:00.000Z' }]);
      });
    });

    it('pages through every alert after an id, filtered, each once and in order', async () => {
      await withStore(async (store) => {
        const first = await store.appendAlerts([alert('zed')]);
        const many = Array.from({ length: 5_003 }, (_, i) => alert(i % 2 === 0 ? 'ann' : 'bob'));
        await store.appendAlerts(many);
        const pages: number[][] = [];
        for await (const page of alertPagesAfter(store, { after: first[0]!.id })) pages.push(page.map((a) => a.id));
        expect(pages.map((p) => p.length)).toEqual([5_000, 3]);
        const ids = pages.flat();
        expect(new Set(ids).size).toBe(5_003);
        expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
        let anns = 0;
        for await (const page of alertPagesAfter(store, { player: 'ann' })) anns += page.length;
        expect(anns).toBe(2_502);
      });
    });

    it('numbers alerts in order, filters them, and knows which are still open', async () => {
      await withStore(async (store) => {
        const stored = await store.appendAlerts([alert('ann'), alert('bob'), { ...alert('ann'), kind: 'cleared', score: 3 }]);
        expect(stored.map((a) => [a.player, a.kind])).toEqual([
          ['ann', 'raised'],
          ['bob', 'raised'],
          ['ann', 'cleared'],
        ]);
        expect(stored[0]!.id < stored[1]!.id && stored[1]!.id < stored[2]!.id).toBe(true);
        expect(stored[0]).toMatchObject({ ...alert('ann') });
        expect(stored[0]!.createdAt).toMatch(/^\d{4}-/);
        expect(await store.appendAlerts([])).toEqual([]);
        expect((await store.readAlerts({ player: 'ann' })).map((a) => a.kind)).toEqual(['raised', 'cleared']);
        expect((await store.readAlerts({ after: stored[0]!.id, limit: 1 })).map((a) => a.player)).toEqual(['bob']);
        expect((await store.readAlerts({ community: 'nowhere' }))).toEqual([]);
        expect((await store.readAlerts({ newestFirst: true, limit: 2 })).map((a) => a.id)).toEqual([stored[2]!.id, stored[1]!.id]);
        expect((await store.openAlerts()).map((a) => a.player)).toEqual(['bob']);
        await store.appendAlerts([alert('ann')]);
        expect((await store.openAlerts()).map((a) => a.player)).toEqual(['bob', 'ann']);
        // Pruning keeps open alerts whatever their age.
        expect(await store.pruneAlerts('2000-01-01T00:00:00.000Z')).toBe(0);
        expect(await store.pruneAlerts('2999-01-01T00:00:00.000Z')).toBe(2);
        expect((await store.readAlerts()).map((a) => [a.player, a.kind])).toEqual([
          ['bob', 'raised'],
          ['ann', 'raised'],
        ]);
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
