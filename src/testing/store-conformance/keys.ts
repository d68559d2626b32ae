/** The key store's conformance suite: API keys kept by id, one live key per label, listed, and revoked once; the key revision changes with a revocation. */
import assert from 'node:assert/strict';
import type { KeyStore } from '../../store/types.js';
import { declarePortSuite, type Closing, type FreshStore, type PortCases, type TestFunctions } from './support.js';

export const keyStoreCases: PortCases<KeyStore & Closing> = (it, withStore) => {
  it('keeps API keys by id, lists them and revokes them once', async () => {
    await withStore(async (store) => {
      const key = { id: 'k1', hash: 'ab'.repeat(32), scopes: ['ingest', 'read'] as const, label: 'game server', createdAt: '2026-11-21T00:00:00.000Z' };
      await store.saveKey({ ...key, scopes: [...key.scopes] });
      assert.deepEqual(await store.findKey('k1'), key);
      assert.equal(await store.findKey('k2'), undefined);
      await assert.rejects(store.saveKey({ ...key, scopes: ['admin'] }));
      assert.equal(await store.revokeKey('k1', '2026-11-22T00:00:00.000Z'), true);
      assert.equal(await store.revokeKey('k1', '2026-11-23T00:00:00.000Z'), false);
      assert.equal(await store.revokeKey('nope', '2026-11-23T00:00:00.000Z'), false);
      assert.deepEqual(await store.listKeys(), [{ ...key, revokedAt: '2026-11-22T00:00:00.000Z' }]);
    });
  });

  it('keeps the communities a key is restricted to, names with commas and quotes included', async () => {
    await withStore(async (store) => {
      const key = { id: 'k1', hash: 'ab'.repeat(32), scopes: ['player-view' as const], label: 'eu titles', createdAt: '2026-11-21T00:00:00.000Z', communities: ['eu, west', 'eu "north"'] };
      await store.saveKey(key);
      assert.deepEqual(await store.findKey('k1'), key);
      assert.deepEqual(await store.listKeys(), [key]);
    });
  });

  it('refuses a key whose label a live key has (KEY_LABEL_INVALID, compared trimmed), storing nothing; an empty label may repeat, and a revoked key frees its label', async () => {
    await withStore(async (store) => {
      const key = (id: string, label: string) => ({ id, hash: 'ab'.repeat(32), scopes: ['moderate' as const], label, createdAt: '2026-11-21T00:00:00.000Z' });
      await store.saveKey(key('k1', 'Mia'));
      await assert.rejects(store.saveKey(key('k2', ' Mia ')), (error: unknown) => (error as { code?: unknown }).code === 'KEY_LABEL_INVALID' && /live key k1/.test((error as Error).message));
      assert.equal(await store.findKey('k2'), undefined);
      await store.saveKey(key('k3', ''));
      await store.saveKey(key('k4', ''));
      await store.saveKey(key('k5', 'mia'));
      assert.equal(await store.revokeKey('k1', '2026-11-22T00:00:00.000Z'), true);
      await store.saveKey(key('k6', 'Mia'));
      assert.deepEqual(
        (await store.listKeys()).map((k) => [k.id, k.label, k.revokedAt !== undefined]),
        [
          ['k1', 'Mia', true],
          ['k3', '', false],
          ['k4', '', false],
          ['k5', 'mia', false],
          ['k6', 'Mia', false],
        ],
      );
    });
  });

  it('changes the key revision with a revocation, and not with a read', async () => {
    await withStore(async (store) => {
      await store.saveKey({ id: 'k1', hash: 'ab'.repeat(32), scopes: ['read'], label: '', createdAt: '2026-11-21T00:00:00.000Z' });
      const before = await store.keyRevision();
      assert.equal(typeof before, 'number');
      await store.findKey('k1');
      await store.listKeys();
      assert.equal(await store.keyRevision(), before);
      assert.equal(await store.revokeKey('k1', '2026-11-22T00:00:00.000Z'), true);
      const revoked = await store.keyRevision();
      assert.notEqual(revoked, before);
      assert.equal(await store.keyRevision(), revoked);
    });
  });
};

/** Declares the suite `key store conformance: ${name}`; every case gets a store of its own from `fresh` and closes it. */
export function keyStoreSuite(name: string, fresh: FreshStore<KeyStore & Closing>, test: TestFunctions): void {
  declarePortSuite('key store', keyStoreCases, name, fresh, test);
}
