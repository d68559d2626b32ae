/**
 * Partition claims in PostgreSQL (../../../src/store/partitions.ts), against a real server
 * (skipped without one, unless STANDING_REQUIRE_POSTGRES=1): partitions are kept per stream, and
 * a claim refuses a stream instance other than the one the stored sequences count in, and a
 * fenced write refuses any community of another partition than its fence's.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../../src/store/postgres.js';
import type { CheckpointSet } from '../../../src/store/types.js';
import { CommunityOutsidePartitionError, partitionOf, PartitionFencedError, StreamMismatchError } from '../../../src/store/partitions.js';
import { dropPostgresSchemas, freshPostgresUrl, postgresAvailable } from '../../support/postgres.js';

afterAll(dropPostgresSchemas);

describe.skipIf(!postgresAvailable)('partition claims', () => {
  it('issue 18: a stream made again (new identity) is refused, nothing changed; the same instance is claimed again', async () => {
    const store = await openPostgresStore(await freshPostgresUrl());
    try {
      const first = await store.claimPartition({ name: 's', id: 'one', partitions: 1 }, 0);
      expect(first).toEqual({ stream: 's', partition: 0, partitions: 1, epoch: 1, streamSequence: 0 });
      await store.appendFenced([], first, 41);
      const refused = store.claimPartition({ name: 's', id: 'two', partitions: 1 }, 0);
      await expect(refused).rejects.toThrow(StreamMismatchError);
      await expect(refused).rejects.toThrow(/instance one, the stream now is instance two/);
      // The refusal raised no epoch: the holder still writes, and its sequence stays.
      await store.appendFenced([], first, 42);
      expect(await store.claimPartition({ name: 's', id: 'one', partitions: 1 }, 0)).toEqual({ stream: 's', partition: 0, partitions: 1, epoch: 2, streamSequence: 42 });
    } finally {
      await store.close();
    }
  });

  it('issue 18: a fenced erasure checks the fence even when the partition has no communities', async () => {
    const store = await openPostgresStore(await freshPostgresUrl());
    try {
      const old = await store.claimPartition({ name: 's', id: 'i', partitions: 1 }, 0);
      const rewrite = () => null;
      expect(await store.eraseFenced('p', rewrite, old, [])).toEqual({ communities: [], removed: 0, rewritten: 0 });
      await store.claimPartition({ name: 's', id: 'i', partitions: 1 }, 0);
      await expect(store.eraseFenced('p', rewrite, old, [])).rejects.toThrow(PartitionFencedError);
    } finally {
      await store.close();
    }
  });

  it('issue 18: two streams on one database keep their own partitions: neither claim fences the other', async () => {
    const store = await openPostgresStore(await freshPostgresUrl());
    try {
      const a = await store.claimPartition({ name: 'a', id: 'ia', partitions: 4 }, 3);
      const b = await store.claimPartition({ name: 'b', id: 'ib', partitions: 4 }, 3);
      expect([a.epoch, b.epoch]).toEqual([1, 1]);
      await store.appendFenced([], a, 7);
      await store.appendFenced([], b, 2);
      expect(await store.streamSequences('a')).toEqual(new Map([[3, 7]]));
      expect(await store.streamSequences('b')).toEqual(new Map([[3, 2]]));
      // A new claim of a's partition fences a's old holder only.
      await store.claimPartition({ name: 'a', id: 'ia', partitions: 4 }, 3);
      await expect(store.appendFenced([], a, 8)).rejects.toThrow(PartitionFencedError);
      await store.appendFenced([], b, 3);
      expect(await store.streamSequences('b')).toEqual(new Map([[3, 3]]));
    } finally {
      await store.close();
    }
  });

  it("issue 25: a fenced write naming a community of another partition fails at the store, whole, and leaves that community's events, checkpoint and alerts as they were", async () => {
    const store = await openPostgresStore(await freshPostgresUrl());
    try {
      const stream = { name: 's', id: 'i', partitions: 8 };
      const mine = 'eu';
      const theirs = ['na', 'default', 'c0', 'c1', 'c2', 'c3'].find((c) => partitionOf(c, 8) !== partitionOf(mine, 8))!;
      const own = await store.claimPartition(stream, partitionOf(mine, 8));
      const owner = await store.claimPartition(stream, partitionOf(theirs, 8));
      const time = Date.parse('2026-11-01T10:00:00Z');
      const event = (id: string, community: string) => ({ id, community, time, type: 'action', player: 'v', delta: 1 }) as const;
      // The other partition's owner stores its community's event and checkpoint.
      await store.appendFenced([event('b1', theirs)], owner, 1);
      await store.saveCheckpointSetsFenced(new Map([[theirs, { sequence: 1, states: { cqr: 'theirs' } }]]), owner);

      const outside = (write: Promise<unknown>) => expect(write).rejects.toThrow(CommunityOutsidePartitionError);
      await outside(store.appendFenced([event('a1', mine), event('b2', theirs)], own, 2));
      await expect(store.appendFenced([event('b3', theirs)], own, 3)).rejects.toThrow(new RegExp(`community "${theirs}" belongs to partition ${partitionOf(theirs, 8)} of stream "s" \\(8 partitions\\), and this write is fenced by partition ${partitionOf(mine, 8)}`));
      // A partial checkpoint of the other community (the graceful restart of issue 25) cannot replace its owner's.
      await outside(store.saveCheckpointSetsFenced(new Map<string, CheckpointSet>([[mine, { sequence: 0, states: { cqr: 'mine' } }], [theirs, { sequence: 0, states: {} }]]), own));
      const alert = { community: theirs, scorer: 'cqr', player: 'v', threshold: 't', kind: 'raised', score: -1, sequence: 1, time } as const;
      await outside(store.appendAlertsFenced([alert], own));
      await outside(store.eraseFenced('v', () => null, own, [theirs]));

      // Nothing of any refused write was stored, and the partition's sequence did not move.
      expect((await store.read(mine)).length).toBe(0);
      expect((await store.read(theirs)).map((s) => s.event.id)).toEqual(['b1']);
      expect(await store.loadCheckpoints(theirs)).toEqual({ sequence: 1, states: { cqr: 'theirs' } });
      expect(await store.loadCheckpoints(mine)).toBeUndefined();
      expect(await store.readAlerts()).toEqual([]);
      expect((await store.streamSequences('s')).get(own.partition)).toBe(0);
      // The writer's own community goes through.
      expect((await store.appendFenced([event('a1', mine)], own, 2)).appended.length).toBe(1);
    } finally {
      await store.close();
    }
  });
});
