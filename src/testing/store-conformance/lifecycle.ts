/**
 * The store lifecycle's conformance suite: the schema version a new store is migrated to, the
 * same after reopening; and holds, services and workers together, an erasure alone.
 */
import assert from 'node:assert/strict';
import type { StoreLifecycle } from '../../store/types.js';
import { withStoreOf, type FreshStore, type PortCases, type TestFunctions } from './support.js';

export interface ConformanceOptions {
  /** What `schemaVersion()` must answer; when absent, any whole number above 0 that stays the same across reopening. */
  readonly schemaVersion?: number;
}

export function storeLifecycleCases(options: ConformanceOptions = {}): PortCases<StoreLifecycle> {
  return (it, withStore) => {
    it('migrates a new store to the latest schema version, once', async () => {
      await withStore(async (store, reopen) => {
        const version = await store.schemaVersion();
        if (options.schemaVersion !== undefined) assert.equal(version, options.schemaVersion);
        assert.ok(Number.isInteger(version) && version > 0, `schemaVersion() answered ${version}`);
        const again = await reopen();
        try {
          assert.equal(await again.schemaVersion(), version);
        } finally {
          await again.close();
        }
      });
    });

    it('holds: services and workers together, an erasure alone; a released hold frees the store', async () => {
      await withStore(async (store, reopen) => {
        const other = await reopen();
        try {
          const held = { code: 'STORE_HELD' };
          const serve = await store.hold('serve');
          const worker = await other.hold('worker');
          await assert.rejects(other.hold('erase'), { ...held, role: 'erase' });
          await serve.release();
          await assert.rejects(store.hold('erase'), held, 'the worker still holds the store');
          await worker.release();
          await worker.release(); // releasing twice is harmless
          const erase = await other.hold('erase');
          await assert.rejects(store.hold('serve'), { ...held, role: 'serve' });
          await assert.rejects(store.hold('worker'), held);
          await assert.rejects(store.hold('erase'), held);
          await erase.release();
          await (await store.hold('erase')).release();
          await (await store.hold('serve')).release();
        } finally {
          await other.close();
        }
      });
    });
  };
}

/** Declares the suite `store lifecycle conformance: ${name}`; every case gets a store of its own from `fresh` and closes it. */
export function storeLifecycleSuite(name: string, fresh: FreshStore<StoreLifecycle>, test: TestFunctions, options: ConformanceOptions = {}): void {
  test.describe(`store lifecycle conformance: ${name}`, () => storeLifecycleCases(options)(test.it, withStoreOf(fresh)));
}
