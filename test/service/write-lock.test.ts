/**
 * Ingest beside another connection that writes to the service's SQLite file (issue 15). The
 * service's own main connection writes alerts, checkpoints and keys while the append thread
 * commits batches; a `standing keys` command or a backup may hold the file too. Here a second
 * real connection in the test takes the write lock (BEGIN IMMEDIATE, as a writer holds it while
 * it commits) and a batch is posted meanwhile: it waits for the lock and is answered 200; a lock
 * held past the store's busy_timeout is answered 503 STORE_BUSY with Retry-After, nothing of the
 * batch stored, and the same batch sent again is applied once.
 */
import Database from 'better-sqlite3';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestService, tempDb, type TestService } from './support.js';

const T0 = Date.parse('2026-11-01T00:00:00Z');

function batch(name: string, size = 20): string {
  return JSON.stringify(Array.from({ length: size }, (_, i) => ({ type: 'action', id: `${name}-${i}`, time: T0 + i, player: `p${i % 5}`, delta: 1 })));
}

let open: { service: TestService; other: Database.Database } | undefined;

afterEach(async () => {
  if (open === undefined) return;
  if (open.other.inTransaction) open.other.exec('ROLLBACK');
  open.other.close();
  await open.service.close();
  open = undefined;
});

/** A service on a fresh SQLite file, a second connection to that file, and one batch already in (the append thread started). */
async function setUp(): Promise<{ service: TestService; other: Database.Database; post(body: string): Promise<Response> }> {
  const db = tempDb();
  const service = await startTestService({ db });
  const other = new Database(db);
  open = { service, other };
  const post = (body: string) => service.call('/v1/events', { method: 'POST', body, headers: { 'content-type': 'application/json' }, key: service.keys.ingest });
  expect((await post(batch('warm'))).status).toBe(200);
  return { service, other, post };
}

describe('ingest while another connection holds the SQLite write lock', () => {
  it('issue 15: a batch posted while another connection holds the write lock waits for it and is answered 200, not 500', async () => {
    const { service, other, post } = await setUp();
    other.exec('BEGIN IMMEDIATE');
    const answer = post(batch('during'));
    // Held until the batch is answered or for a second (well within busy_timeout): the append
    // thread meets the held lock either way.
    await Promise.race([answer, sleep(1000)]);
    other.exec('COMMIT');
    const response = await answer;
    const body = (await response.json()) as { accepted: number; sequences: Record<string, number> };
    expect({ status: response.status, body }).toEqual({ status: 200, body: { accepted: 20, duplicates: 0, sequences: { default: 40 } } });
    expect(service.logs()).not.toContain('"level":50');
  });

  it('a write lock held past busy_timeout is answered 503 STORE_BUSY with Retry-After, nothing stored; the same batch sent again is applied once', async () => {
    const { service, other, post } = await setUp();
    other.exec('BEGIN IMMEDIATE');
    const busy = await post(batch('held'));
    other.exec('COMMIT');
    const body = (await busy.json()) as { error: string; message: string };
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(body.error).toBe('STORE_BUSY');
    expect(body.message).toMatch(/another connection held its write lock past the store's wait.*nothing was stored, send the same write again/);
    expect(service.logs()).toContain('store busy');

    const again = await post(batch('held'));
    expect([again.status, await again.json()]).toEqual([200, { accepted: 20, duplicates: 0, sequences: { default: 40 } }]);
    const twice = await post(batch('held'));
    expect([twice.status, await twice.json()]).toEqual([200, { accepted: 0, duplicates: 20, sequences: {} }]);
  });
});
