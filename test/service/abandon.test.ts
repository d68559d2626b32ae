/**
 * RunningService.abandon: a stop as a killed process leaves the store (no checkpoints saved), which
 * still lets go of the store's hold, so an erasure or the next start is not refused, and the next
 * start replays what was stored. Before it, a bench that stopped a service this way left the
 * PostgreSQL hold's connection open and never exited.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.js';
import { dropPostgresSchemas, freshPostgresUrl, postgresAvailable } from '../support/postgres.js';
import { startTestService, tempDb } from './support.js';

afterAll(dropPostgresSchemas);

const T0 = Date.parse('2026-11-01T00:00:00Z');
const EVENTS = [
  { id: 'a1', type: 'action', community: 'eu', time: T0, player: 'eve', delta: 30 },
  { id: 'a2', type: 'action', community: 'eu', time: T0 + 1, player: 'bob', delta: 12 },
];

async function abandonThenReopen(db: string): Promise<void> {
  const first = await startTestService({ db });
  const posted = await first.call('/v1/events', { method: 'POST', key: first.keys.ingest, headers: { 'content-type': 'application/json' }, body: JSON.stringify(EVENTS) });
  expect(posted.status).toBe(200);
  await first.service.abandon();

  const store = await openStore(db);
  try {
    expect(await store.loadCheckpoints('eu')).toBeUndefined();
    const erasing = await store.hold('erase');
    await erasing.release();
  } finally {
    await store.close();
  }

  const second = await startTestService({ db }, first.keys);
  try {
    const answer = await second.call('/v1/players/eve?community=eu', { key: second.keys.read });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { player: string }).player).toBe('eve');
  } finally {
    await second.close();
  }
}

describe('issue 27: a service abandoned as a crash would leave it', () => {
  it('saves no checkpoint, lets go of its SQLite hold, and the next start replays the log', async () => {
    await abandonThenReopen(tempDb());
  });

  it.runIf(postgresAvailable)('lets go of its PostgreSQL hold (an erasure may hold the store at once)', async () => {
    await abandonThenReopen(await freshPostgresUrl());
  });
});
