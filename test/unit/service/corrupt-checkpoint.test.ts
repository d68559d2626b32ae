/**
 * A checkpoint that cannot be read back (issue 15, point 4) costs a full replay of its community,
 * never the start: recovery says so with a typed CheckpointError naming the community and the
 * state, and reaches what a full replay reaches.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CheckpointError } from '../../../src/errors.js';
import { LiveEngine } from '../../../src/service/live-engine.js';
import { freshInstances, fullReplay, openLive, openSqlite, QUALITY, sqlitePath, view } from './support.js';

const events = (community: string) =>
  Array.from({ length: 12 }, (_, i) => ({ type: 'action', time: i, community, player: `p${i % 3}`, delta: 7 * (i % 5) - 12 }));

describe('issue 15: a corrupt checkpoint', () => {
  it('is reported as a CheckpointError and its community replayed from the log, the others restored', async () => {
    const path = sqlitePath();
    const first = await openLive(openSqlite(path), 4);
    await first.ingest([...events('eu'), ...events('us')]);
    await first.close();

    const db = new Database(path);
    const damaged = db.prepare("UPDATE checkpoint_chunks SET text = '{\"not\": \"a cqr state' WHERE community = 'eu' AND name LIKE 'cqr %'").run();
    db.close();
    expect(damaged.changes).toBe(1);

    const reported: CheckpointError[] = [];
    const store = openSqlite(path);
    const live = await LiveEngine.open({ store, instances: freshInstances(), quality: QUALITY, onCheckpointError: (error) => reported.push(error) });
    try {
      expect(reported).toHaveLength(1);
      expect(reported[0]).toBeInstanceOf(CheckpointError);
      expect(reported[0]).toMatchObject({ code: 'CHECKPOINT_CORRUPT', community: 'eu', state: expect.stringMatching(/^cqr /) });
      expect(view(live.engine, ['eu', 'us'])).toBe(await fullReplay(store));
      expect(live.sequence('eu')).toBe(12);
    } finally {
      await live.close();
    }
  });
});
