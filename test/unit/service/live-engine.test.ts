/**
 * The live engine over a real SQLite file: batches are atomic and durable, duplicates are not
 * applied twice, a refused batch leaves no trace (not even in domain states), and reopening —
 * after a clean close or after simply dropping the process state — reaches exactly the state a
 * full replay of the stored log reaches.
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../../src/store/postgres.js';
import { dropPostgresSchemas, freshPostgresUrl, postgresAvailable } from '../../support/postgres.js';
import { ApplyFailedError, BatchRejectedError, BatchTooLargeError } from '../../../src/errors.js';
import { instantiate } from '../../../src/index.js';
import { LiveEngine } from '../../../src/service/live-engine.js';
import { EngineClosedError } from '../../../src/service/live-engine/closed.js';
import { DEFAULT_CHECKPOINT_SECONDS } from '../../../src/service/live-engine/checkpoints.js';
import { DEFAULT_CONFIG } from '../../../src/service/config.js';
import { fullReplay, openLive, openSqlite, QUALITY, freshInstances, sqlitePath, view } from './support.js';
import { fragile } from '../../support/fragile-scorer.js';

const T0 = Date.parse('2026-11-01T00:00:00Z');
const DAY = 86_400_000;

describe('live engine', () => {
  it('stores and applies a batch, and reports the sequences it reached', async () => {
    const live = await openLive(openSqlite(sqlitePath()));
    const outcome = await live.ingest([
      { type: 'action', time: T0, player: 'ann', delta: 12 },
      { type: 'action', time: T0 + 1, player: 'bob', delta: -30, community: 'eu' },
      { type: 'rating', time: T0 + 2, from: 'p0', to: 'ann', value: 1 },
    ]);
    expect(outcome).toEqual({ accepted: 3, duplicates: 0, sequences: { default: 2, eu: 1 } });
    const cqr = live.instances[0]!;
    expect(cqr.scorer.rank(cqr.state).map((r) => [r.community, r.player, r.score])).toEqual([
      ['default', 'ann', 12],
      ['eu', 'bob', -30],
    ]);
    expect(live.sequence('default')).toBe(2);
    expect(live.communities()).toEqual(['default', 'eu']);
    expect(view(live.engine, live.communities())).toBe(await fullReplay(live.store));
    await live.close();
  });

  it('refuses a batch with invalid events, naming every bad index, and stores none of it', async () => {
    const live = await openLive(openSqlite(sqlitePath()));
    await live.ingest([{ type: 'action', time: T0, player: 'ann', delta: 12 }]);
    const error = await live.ingest([
      { type: 'action', time: T0, player: 'bob', delta: 5 },
      { type: 'action', time: 'yesterday', player: 'cid', delta: 5 },
      { type: 'rating', time: T0, from: 'a', to: 'b', value: 3 },
      'not an object',
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchRejectedError);
    expect((error as BatchRejectedError).problems.map((p) => [p.index, p.field])).toEqual([
      [1, 'time'],
      [2, 'value'],
      [3, ''],
    ]);
    expect((await live.store.read('default')).length).toBe(1);
    expect(live.sequence('default')).toBe(1);
    await live.close();
  });

  it('refuses a batch whose domain action conflicts, and leaves the domain states as they were', async () => {
    const path = sqlitePath();
    const live = await openLive(openSqlite(path));
    const post = (player: string, op: string, id: string, text?: string) => ({ type: 'action', time: T0, player, domain: 'forum', op, post: id, text });
    await live.ingest([post('ann', 'post', 'a', 'hello there')]);
    // b is posted, then an edit of a post that does not exist: the whole batch goes.
    const error = await live.ingest([post('bob', 'post', 'b', 'SHOUTING'), post('bob', 'edit', 'zzz', 'x')]).catch((e: unknown) => e);
    expect((error as BatchRejectedError).problems).toEqual([{ index: 1, code: 'EVENT_CONFLICT', field: 'post', reason: '"zzz" does not exist' }]);
    // b was never posted, so posting it now is no conflict and gets the same delta as without the refused batch.
    await live.ingest([post('bob', 'post', 'b', 'SHOUTING')]);
    const reference = await openLive(openSqlite(sqlitePath()));
    await reference.ingest([post('ann', 'post', 'a', 'hello there')]);
    await reference.ingest([post('bob', 'post', 'b', 'SHOUTING')]);
    expect(view(live.engine, ['default'])).toBe(view(reference.engine, ['default']));
    await live.close();
    await reference.close();
  });

  it('accepts a repeated id once: within a batch, across batches, and across a restart', async () => {
    const path = sqlitePath();
    const live = await openLive(openSqlite(path));
    const e = { type: 'action', time: T0, player: 'ann', delta: 12, id: 'e1' };
    expect(await live.ingest([e, e])).toMatchObject({ accepted: 1, duplicates: 1 });
    expect(await live.ingest([e, { ...e, community: 'eu' }])).toMatchObject({ accepted: 1, duplicates: 1 });
    await live.close();
    const again = await openLive(openSqlite(path));
    expect(await again.ingest([e])).toMatchObject({ accepted: 0, duplicates: 1 });
    const cqr = again.instances[0]!;
    expect(cqr.scorer.rank(cqr.state, { community: 'default' }).map((r) => r.score)).toEqual([12]);
    await again.close();
  });

  it('refuses a batch over the size limit before looking at it', async () => {
    const store = openSqlite(sqlitePath());
    const live = await LiveEngine.open({ store, instances: freshInstances(), quality: QUALITY, maxBatchEvents: 2 });
    await expect(live.ingest([{}, {}, {}])).rejects.toBeInstanceOf(BatchTooLargeError);
    await live.close();
  });

  it('commits concurrent batches as groups, each acknowledged, in one gapless order', async () => {
    const live = await openLive(openSqlite(sqlitePath()));
    const batches = Array.from({ length: 30 }, (_, b) =>
      Array.from({ length: 5 }, (_, i) => ({ type: 'action', time: T0 + b, player: `p${i}`, delta: b - i * 7, id: `${b}-${i}` })),
    );
    const outcomes = await Promise.all(batches.map((batch) => live.ingest(batch)));
    expect(outcomes.every((o) => o.accepted === 5)).toBe(true);
    expect(outcomes.map((o) => o.sequences.default)).toEqual(batches.map((_, b) => 5 * (b + 1)));
    expect(view(live.engine, live.communities())).toBe(await fullReplay(live.store));
    await live.close();
  });
});

/** Random valid raw events over a few players, matches and forum posts, times non-decreasing. */
const player = fc.integer({ min: 0, max: 5 }).map((i) => `p${i}`);
const rawEvent = fc.oneof(
  fc.record({ type: fc.constant('action'), player, delta: fc.integer({ min: -40, max: 40 }) }),
  fc.record({ type: fc.constant('action'), player, domain: fc.constant('forum'), op: fc.constantFrom('post', 'edit', 'delete'), post: fc.constantFrom('a', 'b'), text: fc.constantFrom('hi', 'HEY', 'idiot') }),
  fc.record({ type: fc.constant('match.start'), match: fc.constantFrom('m0', 'm1'), players: fc.uniqueArray(player, { minLength: 2, maxLength: 3 }) }),
  fc.record({ type: fc.constantFrom('match.end', 'match.resume'), match: fc.constantFrom('m0', 'm1') }),
  fc.record({ type: fc.constant('disconnect'), player }),
  fc.record({ type: fc.constant('rating'), from: player, to: player, value: fc.constantFrom(-1, 0, 0.5, 1) }).filter((r) => r.from !== r.to),
  fc.record({ type: fc.constant('report'), from: player, to: player }),
  fc.record({ type: fc.constant('played'), player, games: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ type: fc.constant('chat'), from: player, to: fc.array(player, { minLength: 1, maxLength: 2 }) }),
);
const step = fc.record({
  events: fc.array(fc.tuple(rawEvent, fc.constantFrom('default', 'eu'), fc.integer({ min: 0, max: 3 * DAY }), fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined })), { minLength: 1, maxLength: 6 }),
  crash: fc.boolean(),
});

const BACKENDS = [
  { name: 'SQLite file', skip: false, runs: 60, fresh: async () => { const path = sqlitePath(); return async () => openSqlite(path); } },
  { name: 'PostgreSQL', skip: !postgresAvailable, runs: 12, fresh: async () => { const url = await freshPostgresUrl(); return () => openPostgresStore(url); } },
];

afterAll(dropPostgresSchemas);

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(`live engine restarts on ${backend.name}`, () => {
    it('reopening after a close, or after a crash between batches, reaches what a full replay reaches', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 9 }), async (steps, every) => {
          const open = await backend.fresh();
          let live = await openLive(await open(), every);
          let time = T0;
          for (const { events, crash } of steps) {
            const batch = events.map(([e, community, gap, id]) => ({ ...e, community, time: (time += gap), ...(id === undefined ? {} : { id: `i${id}` }) }));
            await live.ingest(batch).catch((error: unknown) => {
              if (!(error instanceof BatchRejectedError)) throw error;
            });
            if (crash) {
              // A crash: the process state is gone, only the store remains.
              await live.store.close();
              live = await openLive(await open(), every);
            }
          }
          const expected = await fullReplay(live.store);
          expect(view(live.engine, await live.store.communities())).toBe(expected);
          await live.close();
          const reopened = await openLive(await open(), every);
          expect(view(reopened.engine, await reopened.store.communities())).toBe(expected);
          await reopened.close();
        }),
        { seed: 5, numRuns: backend.runs },
      );
    });
  });
}

describe('an event a scorer throws on', () => {
  it('is stored and its batch answered with the error; a restart leaves it out the same way and says so', async () => {
    const path = sqlitePath();
    const skipped: [string, number, string][] = [];
    const open = () =>
      LiveEngine.open({
        store: openSqlite(path),
        instances: [instantiate(fragile, { T: 8, x: 0, k: 8 })],
        quality: QUALITY,
        onSkipped: (community, sequence, error) => skipped.push([community, sequence, (error as Error).message]),
      });
    const rows = (live: LiveEngine) => live.instances[0]!.scorer.rank(live.instances[0]!.state).map((r) => [r.player, r.score]);
    const live = await open();
    await live.ingest([{ type: 'action', time: T0, player: 'ann', delta: 3 }]);
    const error = await live.ingest([
      { type: 'action', time: T0 + 1, player: 'boom', delta: 9 },
      { type: 'action', time: T0 + 2, player: 'bob', delta: -2 },
    ]).catch((e: unknown) => e);
    // issue 25: a typed error (APPLY_FAILED, 500 over HTTP in serve and a cluster alike) carrying the scorer's.
    expect(error).toBeInstanceOf(ApplyFailedError);
    expect(((error as ApplyFailedError).cause as Error).message).toBe('fragile cannot take boom');
    expect((error as ApplyFailedError).message).toMatch(/^the batch is stored, but a scorer failed on one of its events \(fragile cannot take boom\)/);
    expect(live.sequence('default')).toBe(3);
    expect(rows(live)).toEqual([['ann', 3], ['bob', -2]]);
    // A crash: the process state is gone, only the store remains (no checkpoint was taken).
    await live.store.close();
    const restarted = await open();
    expect(skipped).toEqual([['default', 2, 'fragile cannot take boom']]);
    expect(restarted.sequence('default')).toBe(3);
    expect(rows(restarted)).toEqual([['ann', 3], ['bob', -2]]);
    await restarted.close();
  });
});

describe('live engine checkpoints and configuration changes', () => {
  it('ignores a checkpoint taken with other parameters and replays the community instead', async () => {
    const path = sqlitePath();
    const { instantiate } = await import('../../../src/engine/engine.js');
    const { SCORERS } = await import('../../../src/scorers/index.js');
    const open = (params: Record<string, unknown>) =>
      LiveEngine.open({ store: openSqlite(path), instances: [instantiate(SCORERS.cqr!, params, 'cqr')], quality: QUALITY, checkpointEvery: 1 });
    const first = await open({ T: 2, x: 0, k: 2 });
    await first.ingest([10, 20, 30].map((delta, i) => ({ type: 'action', time: T0 + i, player: 'ann', delta })));
    await first.close();
    // Same instance name, other parameters: the saved state (20 + 30) must not be restored.
    const second = await open({ T: 3, x: 0, k: 3 });
    const cqr = second.instances[0]!;
    expect(cqr.scorer.rank(cqr.state).map((r) => r.score)).toEqual([60]);
    await second.close();
  });
});

/** A handful of events of every kind in community `c${n}`, ids unique per community. */
function smallCommunity(n: number, round: number): Record<string, unknown>[] {
  const community = `c${n}`;
  const time = T0 + n * 1000 + round * DAY;
  const [a, b] = [`p${n % 7}`, `p${(n + 1) % 7}`];
  const id = (i: number) => `${round}-${i}`;
  return [
    { community, id: id(1), time, type: 'action', player: a, delta: 10 + (n % 13) },
    { community, id: id(2), time: time + 1, type: 'action', player: b, delta: -(n % 9) },
    { community, id: id(3), time: time + 2, type: 'chat', from: a, to: [b] },
    { community, id: id(4), time: time + 3, type: 'report', from: b, to: a },
    { community, id: id(5), time: time + 4, type: 'rating', from: 'p0', to: b === 'p0' ? a : b, value: 1 },
    { community, id: id(6), time: time + 5, type: 'match.start', match: `m${round}`, players: [a, b] },
    ...(n % 3 === 0 ? [{ community, id: id(7), time: time + 6, type: 'match.end', match: `m${round}` }] : []),
  ];
}

/** Every instance's ranking of every community, as one comparable text. */
function rankings(live: LiveEngine, communities: readonly string[]): string {
  return JSON.stringify(communities.map((c) => live.instances.map((i) => [i.name, i.scorer.rank(i.state, { community: c })])));
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(`many small communities on ${backend.name}`, () => {
    it('restart, after a close or a crash, to the rankings and states a full replay gives', async () => {
      const open = await backend.fresh();
      const COMMUNITIES = 200;
      const ingestRound = async (live: LiveEngine, round: number, which: (n: number) => boolean) => {
        const events = Array.from({ length: COMMUNITIES }, (_, n) => n)
          .filter(which)
          .flatMap((n) => smallCommunity(n, round));
        for (let first = 0; first < events.length; first += 500) await live.ingest(events.slice(first, first + 500));
      };
      const check = async (live: LiveEngine) => {
        const communities = await live.store.communities();
        expect(communities).toHaveLength(COMMUNITIES);
        expect(view(live.engine, communities)).toBe(await fullReplay(live.store));
        return rankings(live, communities);
      };

      let live = await openLive(await open());
      await ingestRound(live, 0, () => true);
      const before = rankings(live, live.communities());
      await live.close(); // every community checkpointed, many to a transaction
      live = await openLive(await open());
      expect(rankings(live, live.communities())).toBe(before);
      expect(await check(live)).toBe(before);

      // A third of the communities gain events, then the process dies: checkpoint plus tail.
      await ingestRound(live, 1, (n) => n % 3 === 1);
      const beforeCrash = rankings(live, live.communities());
      await live.store.close();
      live = await openLive(await open());
      expect(rankings(live, live.communities())).toBe(beforeCrash);
      expect(await check(live)).toBe(beforeCrash);

      // More events in other communities, a close and a reopen.
      await ingestRound(live, 2, (n) => n % 5 === 0);
      const beforeClose = rankings(live, live.communities());
      await live.close();
      live = await openLive(await open());
      expect(await check(live)).toBe(beforeClose);
      expect(live.sequence('c0')).toBe(2 * 7);
      expect(live.lastTime('c0')).toBe(T0 + 2 * DAY + 6);
      await live.close();
    });
  });
}

describe('checkpoints of small communities', () => {
  it('a one-player community writes a small checkpoint', async () => {
    const path = sqlitePath();
    const live = await openLive(openSqlite(path));
    await live.ingest([{ community: 'tiny', time: T0, type: 'action', player: 'ann', delta: 20 }]);
    await live.close();
    const db = new Database(path, { readonly: true });
    const rows = db.prepare("SELECT name, length(text) AS bytes FROM checkpoint_chunks WHERE community = 'tiny'").all() as { name: string; bytes: number }[];
    db.close();
    expect(rows).toHaveLength(6); // the quality stage and five instances
    // cqr T=4, k=2: one block of 19 doubles in a first chunk of room for 4 players is cut to the one player.
    for (const { bytes } of rows) expect(bytes).toBeLessThan(400);
  });

  it('a stop writes the checkpoints of the communities with new events only', async () => {
    const path = sqlitePath();
    let live = await openLive(openSqlite(path));
    await live.ingest([...smallCommunity(1, 0), ...smallCommunity(2, 0)]);
    await live.close();
    // A row no checkpoint writes: it survives exactly as long as its community's set is not replaced.
    const mark = (community: string) => {
      const db = new Database(path);
      db.prepare("INSERT INTO checkpoint_chunks (name, community, part, chunk, text) VALUES ('mark', ?, 0, 0, '')").run(community);
      db.close();
    };
    mark('c1');
    mark('c2');
    live = await openLive(openSqlite(path));
    await live.ingest(smallCommunity(2, 1));
    await live.close();
    const db = new Database(path, { readonly: true });
    const marked = db.prepare("SELECT community FROM checkpoint_chunks WHERE name = 'mark' ORDER BY community").pluck().all();
    db.close();
    expect(marked).toEqual(['c1']);
  });
});

describe('restart with a long tail beside short ones', () => {
  it('a tail too long to read with the others is paged alone, and every community reaches a full replay', async () => {
    const path = sqlitePath();
    let live = await openLive(openSqlite(path), 1_000_000);
    const long = Array.from({ length: 20_050 }, (_, i) => ({ community: 'long', time: T0 + i, type: 'action', player: `p${i % 50}`, delta: (i % 41) - 20 }));
    for (let first = 0; first < long.length; first += 10_000) await live.ingest(long.slice(first, first + 10_000));
    await live.ingest([...smallCommunity(1, 0), ...smallCommunity(2, 0)]);
    await live.store.close(); // a crash: no checkpoint at all
    live = await openLive(openSqlite(path), 1_000_000);
    expect(live.sequence('long')).toBe(20_050);
    expect(view(live.engine, await live.store.communities())).toBe(await fullReplay(live.store));
    await live.close();
  });
});

describe('issue 25: a dry run and a group of batches (what a cluster worker answers with)', () => {
  const post = (id: string, player: string, op: 'post' | 'edit', postId: string, text = 'Hello there.') => ({ id, type: 'action', time: T0, player, domain: 'forum', op, post: postId, text });

  it('check() names what ingest would refuse, changes nothing, and an accepted check leaves the domain states as they were', async () => {
    const live = await openLive(openSqlite(sqlitePath()));
    await live.ingest([post('a', 'ann', 'post', 'p1')]);
    expect(await live.check([post('b', 'bob', 'edit', 'nope'), { type: 'action', time: T0, player: 'x', delta: 'y' }])).toEqual([expect.objectContaining({ index: 1, code: 'EVENT_INVALID', field: 'delta' })]);
    expect(await live.check([post('b', 'bob', 'edit', 'nope')])).toEqual([expect.objectContaining({ index: 0, code: 'EVENT_CONFLICT', field: 'post' })]);
    // A post the check accepted is not on the board afterwards: posting it for real is accepted, an edit of it before is not.
    expect(await live.check([post('c', 'cid', 'post', 'p2')])).toEqual([]);
    expect(await live.check([post('d', 'cid', 'edit', 'p2')])).toEqual([expect.objectContaining({ index: 0, code: 'EVENT_CONFLICT' })]);
    // An id the community holds is a duplicate, not a problem.
    expect(await live.check([post('a', 'ann', 'post', 'p1')])).toEqual([]);
    expect(live.sequence('default')).toBe(1);
    const reference = await openLive(openSqlite(sqlitePath()));
    await reference.ingest([post('a', 'ann', 'post', 'p1')]);
    await live.ingest([post('c', 'cid', 'post', 'p2'), post('e', 'ann', 'edit', 'p1', 'Changed.')]);
    await reference.ingest([post('c', 'cid', 'post', 'p2'), post('e', 'ann', 'edit', 'p1', 'Changed.')]);
    expect(view(live.engine, ['default'])).toEqual(view(reference.engine, ['default']));
    await live.close();
    await reference.close();
  });

  it('ingestGroup() answers each batch on its own, as concurrent requests are answered, in one commit', async () => {
    const live = await openLive(openSqlite(sqlitePath()));
    const answers = await live.ingestGroup([
      [post('a', 'ann', 'post', 'p1'), { id: 'x', type: 'action', time: T0, player: 'ann', delta: 1 }],
      [post('b', 'bob', 'post', 'p1')],
      [{ id: 'x', type: 'action', time: T0, player: 'ann', delta: 1 }, { id: 'y', type: 'action', time: T0, player: 'bob', delta: 2 }],
      [{ type: 'action', time: T0, player: 'bob', delta: 'no' }],
    ]);
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
    expect((answers[0] as PromiseFulfilledResult<unknown>).value).toEqual({ accepted: 2, duplicates: 0, sequences: { default: 2 } });
    expect(((answers[1] as PromiseRejectedResult).reason as BatchRejectedError).problems).toEqual([expect.objectContaining({ index: 0, code: 'EVENT_CONFLICT', field: 'post' })]);
    expect((answers[2] as PromiseFulfilledResult<unknown>).value).toEqual({ accepted: 1, duplicates: 1, sequences: { default: 3 } });
    expect(((answers[3] as PromiseRejectedResult).reason as BatchRejectedError).problems).toEqual([expect.objectContaining({ index: 0, field: 'delta' })]);
    expect(live.sequence('default')).toBe(3);
    await live.close();
  });
});

describe('issue 26: a closed live engine', () => {
  it('refuses a batch to ingest or check with an EngineClosedError, code SERVICE_STOPPING, storing nothing', async () => {
    const path = sqlitePath();
    const live = await openLive(openSqlite(path));
    await live.ingest([{ type: 'action', time: T0, player: 'ann', delta: 1 }]);
    await live.close();
    const batch = [{ type: 'action', time: T0 + 1, player: 'bob', delta: 2 }];
    for (const refused of [live.ingest(batch), live.check(batch), live.ingestGroup([batch])]) {
      await expect(refused).rejects.toBeInstanceOf(EngineClosedError);
      await expect(refused).rejects.toMatchObject({ code: 'SERVICE_STOPPING', message: 'the engine is closed: the service is stopping; retry once it is back' });
    }
    const reopened = await openLive(openSqlite(path));
    expect(reopened.sequence('default')).toBe(1);
    await reopened.close();
  });
});

describe('issue 27: checkpoints no more often than every checkpointSeconds, 10 by default', () => {
  const action = (i: number) => ({ type: 'action', time: T0 + i, id: `a${i}`, player: 'ann', delta: 1 });

  it('saves a community’s first checkpoint after checkpointEvery events, and none again within 10 s by default; with 0, every checkpointEvery events', async () => {
    expect(DEFAULT_CHECKPOINT_SECONDS).toBe(10);
    expect(DEFAULT_CONFIG.checkpointSeconds).toBe(DEFAULT_CHECKPOINT_SECONDS);
    for (const [seconds, expected] of [
      [undefined, 2],
      [0, 4],
    ] as const) {
      const path = sqlitePath();
      const store = openSqlite(path);
      const live = await LiveEngine.open({ store, instances: freshInstances(), quality: QUALITY, checkpointEvery: 2, ...(seconds === undefined ? {} : { checkpointSeconds: seconds }) });
      await live.ingest([action(1), action(2)]);
      await live.ingest([action(3), action(4)]);
      expect((await store.loadCheckpoints('default'))?.sequence).toBe(expected);
      await live.close(); // saves what is pending, whatever the cadence
      const reopened = openSqlite(path);
      expect((await reopened.loadCheckpoints('default'))?.sequence).toBe(4);
      await reopened.close();
    }
  });
});
