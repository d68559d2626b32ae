/**
 * The checkpoint store's conformance suite: a community's checkpoint set saved and replaced
 * whole, several communities' sets saved in one go and loaded in one read, and kept across
 * reopening.
 */
import assert from 'node:assert/strict';
import type { CheckpointSet, CheckpointStore } from '../../store/types.js';
import { declarePortSuite, type Closing, type FreshStore, type PortCases, type TestFunctions } from './support.js';

export const checkpointCases: PortCases<CheckpointStore & Closing> = (it, withStore) => {
  it('keeps checkpoints across closing and reopening', async () => {
    await withStore(async (store, reopen) => {
      await store.saveCheckpoints('default', { sequence: 2, states: { cqr: '{"s":1}' } });
      await store.close();
      const again = await reopen();
      try {
        assert.deepEqual(await again.loadCheckpoints('default'), { sequence: 2, states: { cqr: '{"s":1}' } });
      } finally {
        await again.close();
      }
    });
  });

  it('saves and replaces the checkpoint set of a community whole', async () => {
    await withStore(async (store) => {
      assert.equal(await store.loadCheckpoints('default'), undefined);
      await store.saveCheckpoints('default', { sequence: 5, states: { cqr: 'a', chat: 'c' } });
      await store.saveCheckpoints('default', { sequence: 9, states: { cqr: 'b', quality: 'q' } });
      await store.saveCheckpoints('eu', { sequence: 1, states: { cqr: 'e' } });
      assert.deepEqual(await store.loadCheckpoints('default'), { sequence: 9, states: { cqr: 'b', quality: 'q' } });
      assert.deepEqual(await store.loadCheckpoints('eu'), { sequence: 1, states: { cqr: 'e' } });
      assert.equal(await store.loadCheckpoints('us'), undefined);
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
      assert.deepEqual(await store.loadCheckpoints('default'), { sequence: 9, states: { cqr: 'b', quality: 'q' } });
      assert.deepEqual(
        await store.loadCheckpointSets(['eu', 'default', 'us', 'nowhere']),
        new Map([
          ['default', { sequence: 9, states: { cqr: 'b', quality: 'q' } }],
          ['eu', { sequence: 1, states: { cqr: 'e' } }],
          ['us', { sequence: 2, states: { cqr: 'u' } }],
        ]),
      );
      assert.deepEqual(await store.loadCheckpointSets([]), new Map());
    });
  });
};

/** Declares the suite `checkpoint store conformance: ${name}`; every case gets a store of its own from `fresh` and closes it. */
export function checkpointSuite(name: string, fresh: FreshStore<CheckpointStore & Closing>, test: TestFunctions): void {
  declarePortSuite('checkpoint store', checkpointCases, name, fresh, test);
}
