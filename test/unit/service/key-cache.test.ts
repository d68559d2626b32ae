/**
 * Verified keys kept in memory (src/service/key-cache.ts), over real SQLite files: a revocation
 * made through another connection to the file (as `standing keys revoke` in another process
 * makes it) is seen by the very next verification; a cached key's id with another secret is
 * refused; a key made after others were cached is accepted at once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeyCache } from '../../../src/service/key-cache.js';
import { createKey } from '../../../src/service/keys.js';
import { openSqliteStore } from '../../../src/store/sqlite.js';

const keyId = (key: string) => /^stk_([A-Za-z0-9]{12})_/.exec(key)![1]!;

describe('issue 27: verified keys kept in memory', () => {
  it('refuses a key on the first verification after another connection revoked it', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'standing-keys-')), 'events.sqlite');
    const service = openSqliteStore(path);
    const other = openSqliteStore(path); // what another process holds
    try {
      const cache = new KeyCache(service);
      const { key, stored } = await createKey(other, ['ingest'], 'game server');
      const kept = await createKey(other, ['read']);
      expect(await cache.verify(key)).toEqual(stored);
      expect(await cache.verify(key)).toEqual(stored);
      expect((await cache.verify(kept.key))?.id).toBe(kept.stored.id);
      expect(await other.revokeKey(keyId(key), new Date().toISOString())).toBe(true);
      expect(await cache.verify(key)).toBeUndefined();
      expect((await cache.verify(kept.key))?.id).toBe(kept.stored.id); // the others are verified again, and kept
    } finally {
      await service.close();
      await other.close();
    }
  });

  it('refuses a cached key’s id with another secret, and accepts a key made after others were cached', async () => {
    const store = openSqliteStore(join(mkdtempSync(join(tmpdir(), 'standing-keys-')), 'events.sqlite'));
    try {
      const cache = new KeyCache(store);
      const { key, stored } = await createKey(store, ['read']);
      expect(await cache.verify(key)).toEqual(stored);
      const forged = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
      expect(await cache.verify(forged)).toBeUndefined();
      expect(await cache.verify('stk_short')).toBeUndefined();
      expect(await cache.verify(key)).toEqual(stored);
      const later = await createKey(store, ['admin']);
      expect(await cache.verify(later.key)).toEqual(later.stored);
    } finally {
      await store.close();
    }
  });
});
