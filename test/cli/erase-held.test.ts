/**
 * Erasure that holds (issue 24, point 3): `standing erase` on the store of a running
 * `standing serve` used to report success, and the service wrote the player back from its memory
 * in its shutdown checkpoint. Now the service holds the store while it runs (EventStore.hold), and
 * the erasure refuses it, on SQLite and on PostgreSQL; a service does not start while an erasure
 * holds the store; and a service that died holds nothing.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/service/keys.js';
import { openStore } from '../../src/store/open.js';
import type { EventStore } from '../../src/store/types.js';
import { runCli } from '../support/cli.js';
import { contractFetch } from '../support/contract.js';
import { dropPostgresSchemas, freshPostgresUrl, postgresAvailable } from '../support/postgres.js';
import { startServe } from '../support/serve-process.js';

afterAll(dropPostgresSchemas);

const T0 = Date.parse('2026-11-01T00:00:00Z');
const EVENTS = [
  { id: 'a1', type: 'action', time: T0, player: 'eve', delta: 30 },
  { id: 'a2', type: 'action', time: T0 + 1, player: 'bob', delta: 12 },
  { id: 'r1', type: 'rating', time: T0 + 2, from: 'bob', to: 'eve', value: 1 },
  { id: 'c1', type: 'chat', time: T0 + 3, from: 'bob', to: ['eve', 'cat'] },
  { id: 'a3', type: 'action', time: T0 + 4, community: 'eu', player: 'eve', delta: -5 },
];

const sqliteFile = () => join(mkdtempSync(join(tmpdir(), 'standing-erase-held-')), 's.sqlite');

async function withStore<T>(db: string, body: (store: EventStore) => Promise<T>): Promise<T> {
  const store = await openStore(db);
  try {
    return await body(store);
  } finally {
    await store.close();
  }
}

/** Every stored event of every community, as JSON text. */
const storedText = (db: string) => withStore(db, async (store) => JSON.stringify(await Promise.all((await store.communities()).map((c) => store.read(c)))));

async function keysOf(db: string): Promise<{ ingest: string; read: string }> {
  return withStore(db, async (store) => ({ ingest: (await createKey(store, ['ingest'])).key, read: (await createKey(store, ['read'])).key }));
}

const bearer = (key: string): RequestInit => ({ headers: { authorization: `Bearer ${key}` } });

/** The whole story on the store `db`: refused while served, erased once stopped, still erased after a restart. */
async function erasureWaitsForTheService(db: string): Promise<void> {
  const keys = await keysOf(db);
  const first = await startServe(db);
  try {
    const ingested = await contractFetch(`${first.url}/v1/events`, {
      method: 'POST',
      body: JSON.stringify(EVENTS),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${keys.ingest}` },
    });
    expect(ingested.status).toBe(200);
    expect((await contractFetch(`${first.url}/v1/players/eve`, bearer(keys.read))).status).toBe(200);
    const before = await storedText(db);
    expect(before).toContain('"eve"');

    const refused = await runCli(['erase', 'eve', '--db', db]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^standing: the store is in use by [^\n]*standing serve[^\n]*DELETE \/v1\/players\/:id[^\n]*stop it first; nothing was erased\n$/);
    expect(await storedText(db)).toBe(before);
    expect((await contractFetch(`${first.url}/v1/players/eve`, bearer(keys.read))).status).toBe(200);
  } finally {
    await first.stop();
  }

  const erased = await runCli(['erase', 'eve', '--db', db]);
  expect(erased.stderr).toBe('');
  expect(erased.code).toBe(0);
  expect(erased.stdout).toBe('player "eve" erased: 3 events removed, 1 rewritten (communities default, eu recomputed)\n');

  const second = await startServe(db);
  try {
    expect((await contractFetch(`${second.url}/v1/players/eve`, bearer(keys.read))).status).toBe(404);
    expect((await contractFetch(`${second.url}/v1/players/bob`, bearer(keys.read))).status).toBe(200);
  } finally {
    await second.stop();
  }
  const after = await storedText(db);
  expect(after).not.toContain('"eve"');
  expect(after).toContain('"bob"');
}

/** While `standing erase` holds the store (taken here through the same EventStore.hold), `standing serve` does not start. */
async function serviceWaitsForTheErasure(db: string): Promise<void> {
  await withStore(db, async (store) => {
    const hold = await store.hold('erase');
    try {
      const refused = await runCli(['serve', '--db', db, '--port', '0']);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(/^standing: the store is held by [^\n]*standing erase[^\n]*: start the service once it has finished\n$/);
    } finally {
      await hold.release();
    }
  });
  // Released: the service starts.
  const served = await startServe(db);
  await served.stop();
}

describe('issue 24: standing erase refuses the store of a running service (SQLite)', () => {
  it('refuses while the service runs, changing nothing; erases once it is stopped; the restarted service does not know the player', async () => {
    await erasureWaitsForTheService(sqliteFile());
  });

  it('a service does not start while an erasure holds the store', async () => {
    await serviceWaitsForTheErasure(sqliteFile());
  });

  it('a service that was killed holds nothing: the erasure goes ahead', async () => {
    const db = sqliteFile();
    const keys = await keysOf(db);
    const served = await startServe(db);
    const ingested = await contractFetch(`${served.url}/v1/events`, {
      method: 'POST',
      body: JSON.stringify(EVENTS),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${keys.ingest}` },
    });
    expect(ingested.status).toBe(200);
    await served.stop('SIGKILL');
    const erased = await runCli(['erase', 'eve', '--db', db]);
    expect(erased.stderr).toBe('');
    expect(erased.code).toBe(0);
    expect(await storedText(db)).not.toContain('"eve"');
  });

  it('a second erasure is refused while one holds the store', async () => {
    const db = sqliteFile();
    await withStore(db, async (store) => {
      const hold = await store.hold('erase');
      try {
        const refused = await runCli(['erase', 'eve', '--db', db]);
        expect(refused.code).toBe(1);
        expect(refused).toEqual({ code: 1, stdout: '', stderr: 'standing: the store is held by a standing erase in progress: erase once it has finished; nothing was erased\n' });
      } finally {
        await hold.release();
      }
    });
  });
});

describe.skipIf(!postgresAvailable)('issue 24: standing erase refuses the store of a running service (PostgreSQL)', () => {
  it('refuses while the service runs, changing nothing; erases once it is stopped; the restarted service does not know the player', async () => {
    await erasureWaitsForTheService(await freshPostgresUrl());
  });

  it('a service does not start while an erasure holds the store', async () => {
    await serviceWaitsForTheErasure(await freshPostgresUrl());
  });

  it("a service on another schema of the database does not hold this one's store", async () => {
    const served = await startServe(await freshPostgresUrl());
    try {
      const db = await freshPostgresUrl();
      await withStore(db, (store) => store.append([{ type: 'action', time: T0, community: 'default', player: 'eve', delta: 1 }]));
      const erased = await runCli(['erase', 'eve', '--db', db]);
      expect(erased.stderr).toBe('');
      expect(erased.code).toBe(0);
    } finally {
      await served.stop();
    }
  });
});
