/**
 * Partition claims in PostgreSQL (../../../src/store/partitions.ts), against a real server
 * (skipped without one, unless STANDING_REQUIRE_POSTGRES=1): partitions are kept per stream, and
 * a claim refuses a stream instance other than the one the stored sequences count in.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../../src/store/postgres.js';
import { PartitionFencedError, StreamMismatchError } from '../../../src/store/partitions.js';
import { dropPostgresSchemas, freshPostgresUrl, postgresAvailable } from '../../support/postgres.js';

afterAll(dropPostgresSchemas);

describe.skipIf(!postgresAvailable)('partition claims', () => {
  it('issue 18: a stream made again (new identity) is refused, nothing changed; the same instance is claimed again', async () => {
    const store = await openPostgresStore(await freshPostgresUrl());
    try {
      const first = await store.claimPartition({ name: 's', id: 'one' }, 0);
      expect(first).toEqual({ stream: 's', partition: 0, epoch: 1, streamSequence: 0 });
      await store.appendFenced([], first, 41);
      const refused = store.claimPartition({ name: 's', id: 'two' }, 0);
      await expect(refused).rejects.toThrow(StreamMismatchError);
      await expect(refused).rejects.toThrow(/instance one, the stream now is instance two/);
      // The refusal raised no epoch: the holder still writes, and its sequence stays.
      await store.appendFenced([], first, 42);
      expect(await store.claimPartition({ name: 's', id: 'one' }, 0)).toEqual({ stream: 's', partition: 0, epoch: 2, streamSequence: 42 });
    } finally {
      await store.close();
    }
  });

  it('issue 18: a fenced erasure checks the fence even when the partition has no communities', async () => {
    const store = await openPostgresStore(await freshPostgresUrl());
    try {
      const old = await store.claimPartition({ name: 's', id: 'i' }, 0);
      const rewrite = () => null;
      expect(await store.eraseFenced('p', rewrite, old, [])).toEqual({ communities: [], removed: 0, rewritten: 0 });
      await store.claimPartition({ name: 's', id: 'i' }, 0);
      await expect(store.eraseFenced('p', rewrite, old, [])).rejects.toThrow(PartitionFencedError);
    } finally {
      await store.close();
    }
  });

  it('issue 18: two streams on one database keep their own partitions: neither claim fences the other', async () => {
    const store = await openPostgresStore(await freshPostgresUrl());
    try {
      const a = await store.claimPartition({ name: 'a', id: 'ia' }, 3);
      const b = await store.claimPartition({ name: 'b', id: 'ib' }, 3);
      expect([a.epoch, b.epoch]).toEqual([1, 1]);
      await store.appendFenced([], a, 7);
      await store.appendFenced([], b, 2);
      expect(await store.streamSequences('a')).toEqual(new Map([[3, 7]]));
      expect(await store.streamSequences('b')).toEqual(new Map([[3, 2]]));
      // A new claim of a's partition fences a's old holder only.
      await store.claimPartition({ name: 'a', id: 'ia' }, 3);
      await expect(store.appendFenced([], a, 8)).rejects.toThrow(PartitionFencedError);
      await store.appendFenced([], b, 3);
      expect(await store.streamSequences('b')).toEqual(new Map([[3, 3]]));
    } finally {
      await store.close();
    }
  });
});
