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

describe('issue 17: a reports checkpoint written before report times were kept', () => {
  it('is refused, and its community replayed from the log, which gives the reports their times', async () => {
    const path = sqlitePath();
    const first = await openLive(openSqlite(path), 4);
    const log = [
      ...['a', 'b', 'c'].map((player) => ({ type: 'played', time: 0, community: 'eu', player, games: 10 })),
      ...['b', 'c'].map((from, i) => ({ type: 'report', time: 1000 * (i + 1), community: 'eu', from, to: 'a' })),
    ];
    await first.ingest(log);
    await first.close();

    // The checkpoint as an earlier version wrote it: the same state without `times`.
    const db = new Database(path);
    const rows = db.prepare("SELECT name, text FROM checkpoint_chunks WHERE community = 'eu' AND name LIKE 'reports@3 %'").all() as { name: string; text: string }[];
    expect(rows).toHaveLength(1);
    const { times, ...legacy } = JSON.parse(rows[0]!.text) as Record<string, unknown>;
    expect(typeof times).toBe('string');
    db.prepare("UPDATE checkpoint_chunks SET text = ? WHERE community = 'eu' AND name = ?").run(JSON.stringify(legacy), rows[0]!.name);
    db.close();

    const reported: CheckpointError[] = [];
    const store = openSqlite(path);
    const live = await LiveEngine.open({ store, instances: freshInstances(), quality: QUALITY, onCheckpointError: (error) => reported.push(error) });
    try {
      expect(reported.map((e) => [e.community, e.state.split(' ')[0], e.reason])).toEqual([['eu', 'reports@3', 'reports checkpoint: written without report times (by an earlier version); the log has them']]);
      expect(view(live.engine, ['eu'])).toBe(await fullReplay(store));
      const instance = live.engine.instances.find((i) => i.scorer.id === 'reports')!;
      const e = instance.scorer.explain(instance.state, 'eu', 'a') as { reportedBy: { reporter: string; time: number }[] };
      expect(e.reportedBy.map((r) => [r.reporter, r.time])).toEqual([
        ['b', 1000],
        ['c', 2000],
      ]);
    } finally {
      await live.close();
    }
  });
});
