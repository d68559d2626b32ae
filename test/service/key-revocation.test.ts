/**
 * Keys are verified once and kept in memory, and a revocation still takes effect at once in
 * every process on the store (src/service/key-cache.ts): on SQLite, `standing keys revoke` run as
 * another process while the service runs; on PostgreSQL, two services on one database, a key
 * revoked through one refused by the other on its very next request.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/service/keys.js';
import { runCli } from '../support/cli.js';
import { dropPostgresSchemas, freshPostgresUrl, postgresAvailable } from '../support/postgres.js';
import { json, startTestService, tempDb } from './support.js';

afterAll(dropPostgresSchemas);

const keyId = (key: string) => /^stk_([A-Za-z0-9]{12})_/.exec(key)![1]!;
const batch = (id: string) => json([{ type: 'action', id, time: Date.now(), player: 'ann', delta: 1 }]);

describe('issue 27: a revoked key is refused at once, in every process', () => {
  it('SQLite: the service refuses a key on the first request after `standing keys revoke` (another process) revoked it', async () => {
    const db = tempDb();
    const t = await startTestService({ db });
    try {
      const { key } = await createKey(t.service.store, ['ingest']);
      expect((await t.call('/v1/events', { ...batch('a1'), key })).status).toBe(200);
      expect((await t.call('/v1/events', { ...batch('a2'), key })).status).toBe(200);
      const revoked = await runCli(['keys', 'revoke', keyId(key), '--db', db]);
      expect(revoked.code, revoked.stderr).toBe(0);
      const refused = await t.call('/v1/events', { ...batch('a3'), key });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ error: 'UNAUTHORIZED', message: 'the key is unknown or revoked' });
      expect((await t.call('/v1/events', { ...batch('a4'), key: t.keys.ingest })).status).toBe(200); // the other keys still work
    } finally {
      await t.close();
    }
  });

  it.skipIf(!postgresAvailable)('PostgreSQL: a key revoked through one service is refused by another on its very next request; a new key works on both at once', async () => {
    const db = await freshPostgresUrl();
    const one = await startTestService({ db });
    const two = await startTestService({ db }, one.keys);
    try {
      const { key } = await createKey(one.service.store, ['read']);
      for (const service of [one, two, one, two]) expect((await service.call('/v1/communities', { key })).status).toBe(200);
      expect(await one.service.store.revokeKey(keyId(key), new Date().toISOString())).toBe(true);
      expect((await two.call('/v1/communities', { key })).status).toBe(401);
      expect((await one.call('/v1/communities', { key })).status).toBe(401);
      expect((await two.call('/v1/communities', { key: one.keys.read })).status).toBe(200);
      const made = await createKey(one.service.store, ['read']);
      expect((await two.call('/v1/communities', { key: made.key })).status).toBe(200);
    } finally {
      await two.close();
      await one.close();
    }
  });
});
