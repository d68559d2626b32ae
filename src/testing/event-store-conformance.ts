/**
 * The conformance suite every event store passes (standing's SQLite and PostgreSQL stores run it
 * in their own tests): gapless per-community sequences, idempotency by event id, atomic batches,
 * checkpoints, durability across reopening, erasure, keys, alerts and holds. A store of one's own that
 * passes it can stand behind the service.
 *
 * The suite brings no test framework: the caller hands it its own `describe` and `it` (vitest,
 * jest, mocha or node:test), and the cases check with node:assert.
 */
import assert from 'node:assert/strict';
import type { StandingEvent } from '../events/types.js';
import type { CheckpointSet, EventStore, ModerationCursor, NewAlert, StoredAlert } from '../store/types.js';

/** The two functions of a test framework the suite needs. */
export interface TestFunctions {
  describe(name: string, body: () => void): unknown;
  it(name: string, body: () => Promise<void>): unknown;
}

/**
 * Sets up an empty store (a new file, a new database schema) and answers how to open it. Each
 * call of the answer opens that same store again: the suite closes a store and reopens it to
 * check what survives.
 */
export type FreshStore = () => Promise<() => EventStore | Promise<EventStore>>;

export interface ConformanceOptions {
  /** What `schemaVersion()` must answer; when absent, any whole number above 0 that stays the same across reopening. */
  readonly schemaVersion?: number;
}

const action = (player: string, delta: number, extra: Record<string, unknown> = {}): StandingEvent => ({
  type: 'action',
  time: 1_714_586_400_000,
  community: 'default',
  player,
  delta,
  ...extra,
});

const alert = (player: string): NewAlert => ({
  community: 'default',
  scorer: 'cqr T=8,x=10,k=4',
  player,
  threshold: 'cqr-low',
  kind: 'raised',
  score: -60.5,
  sequence: 3,
  time: 1_714_586_400_000,
});

const playerOf = (event: StandingEvent): string => (event as { player: string }).player;

/** The alerts matching `query` with an id above `after`, read `limit` at a time, as pages. */
async function alertPages(store: EventStore, query: { after?: number; player?: string }, limit: number): Promise<StoredAlert[][]> {
  const pages: StoredAlert[][] = [];
  let after = query.after ?? 0;
  for (;;) {
    const page = await store.readAlerts({ ...query, after, limit });
    if (page.length > 0) pages.push(page);
    if (page.length < limit) return pages;
    after = page[page.length - 1]!.id;
  }
}

/**
 * Declares the suite, `event store conformance: ${name}`, with `test`'s describe and it. Every
 * case gets a store of its own from `fresh` and closes it.
 */
export function eventStoreConformance(name: string, fresh: FreshStore, test: TestFunctions, options: ConformanceOptions = {}): void {
  const { describe, it } = test;

  async function withStore(body: (store: EventStore, reopen: () => Promise<EventStore>) => Promise<void>): Promise<void> {
    const open = await fresh();
    const reopen = async () => open();
    const store = await reopen();
    try {
      await body(store, reopen);
    } finally {
      await store.close();
    }
  }

  describe(`event store conformance: ${name}`, () => {
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

    it('gives each community a gapless sequence in the order events arrive', async () => {
      await withStore(async (store) => {
        const first = await store.append([action('a', 1), action('b', 2), { ...action('c', 3), community: 'eu' }]);
        assert.deepEqual(
          first.appended.map((s) => [s.community, s.sequence]),
          [
            ['default', 1],
            ['default', 2],
            ['eu', 1],
          ],
        );
        const second = await store.append([action('d', 4)]);
        assert.deepEqual(
          second.appended.map((s) => s.sequence),
          [3],
        );
        assert.deepEqual(
          (await store.read('default')).map((s) => [s.sequence, playerOf(s.event)]),
          [
            [1, 'a'],
            [2, 'b'],
            [3, 'd'],
          ],
        );
        assert.deepEqual(
          (await store.read('default', 1, 1)).map((s) => s.sequence),
          [2],
        );
        assert.deepEqual(await store.communities(), ['default', 'eu']);
      });
    });

    it('stores events exactly as validated, extra fields included', async () => {
      await withStore(async (store) => {
        const event = action('a', -2.5, { id: 'e1', note: 'hello', nested: { x: [1, 2] } });
        await store.append([event]);
        assert.deepEqual((await store.read('default'))[0]?.event, event);
      });
    });

    it('accepts a repeated id once, within a batch and across batches; ids are per community', async () => {
      await withStore(async (store) => {
        const a = await store.append([action('a', 1, { id: 'x' }), action('a', 1, { id: 'x' }), action('b', 1)]);
        assert.equal(a.duplicates, 1);
        const b = await store.append([action('a', 1, { id: 'x' }), { ...action('a', 1, { id: 'x' }), community: 'eu' }, action('b', 1)]);
        assert.equal(b.duplicates, 1);
        assert.deepEqual(
          b.appended.map((s) => [s.community, s.sequence]),
          [
            ['eu', 1],
            ['default', 3],
          ],
        );
        assert.equal((await store.read('default')).length, 3);
        // The very same object twice is one event too.
        const same = action('c', 1, { id: 'same' });
        const c = await store.append([same, same]);
        assert.deepEqual([c.duplicates, c.appended.length], [1, 1]);
      });
    });

    it('stores a batch whole or not at all', async () => {
      await withStore(async (store) => {
        await store.append([action('a', 1)]);
        // The last event has no type: storing it fails inside the batch, after the others.
        const broken = { ...action('c', 3, { community: 'other' }), type: undefined as never };
        await assert.rejects(store.append([action('b', 2), action('b2', 2, { community: 'other' }), broken]));
        assert.deepEqual(
          (await store.read('default')).map((s) => playerOf(s.event)),
          ['a'],
        );
        assert.deepEqual(await store.read('other'), []);
        const next = await store.append([action('d', 4)]);
        assert.equal(next.appended[0]?.sequence, 2, 'a failed batch leaves no gap');
      });
    });

    it('keeps what it acknowledged across closing and reopening', async () => {
      await withStore(async (store, reopen) => {
        await store.append([action('a', 1, { id: 'k' }), action('b', 2)]);
        await store.saveCheckpoints('default', { sequence: 2, states: { cqr: '{"s":1}' } });
        await store.close();
        await store.close(); // harmless
        const again = await reopen();
        try {
          assert.deepEqual(
            (await again.read('default')).map((s) => s.sequence),
            [1, 2],
          );
          assert.equal((await again.append([action('a', 1, { id: 'k' })])).duplicates, 1);
          assert.deepEqual(await again.loadCheckpoints('default'), { sequence: 2, states: { cqr: '{"s":1}' } });
        } finally {
          await again.close();
        }
      });
    });

    it('saves and replaces the checkpoint set of a community whole', async () => {
      await withStore(async (store) => {
        assert.equal(await store.loadCheckpoints('default'), undefined);
        await store.saveCheckpoints('default', { sequence: 5, states: { cqr: 'a', chat: 'c' } });
        await store.saveCheckpoints('default', { sequence: 9, states: { cqr: 'b', quality: 'q' } });
        await store.saveCheckpoints('eu', { sequence: 1, states: { cqr: 'e' } });
        assert.deepEqual(await store.loadCheckpoints('default'), { sequence: 9, states: { cqr: 'b', quality: 'q' } });
        assert.deepEqual(await store.loadCheckpoints('eu'), { sequence: 1, states: { cqr: 'e' } });
        assert.equal(await store.loadCheckpoints('us'), undefined);
      });
    });

    it('saves the checkpoint sets of many communities together, and loads them together', async () => {
      await withStore(async (store) => {
        await store.saveCheckpoints('default', { sequence: 5, states: { cqr: 'a', chat: 'c' } });
        await store.saveCheckpoints('us', { sequence: 2, states: { cqr: 'u' } });
        await store.saveCheckpointSets(
          new Map<string, CheckpointSet>([
            ['default', { sequence: 9, states: { cqr: 'b', quality: 'q' } }],
            ['eu', { sequence: 1, states: { cqr: 'e' } }],
          ]),
        );
        await store.saveCheckpointSets(new Map());
        assert.deepEqual(await store.loadCheckpoints('default'), { sequence: 9, states: { cqr: 'b', quality: 'q' } });
        assert.deepEqual(
          await store.loadCheckpointSets(['eu', 'default', 'us', 'nowhere']),
          new Map([
            ['default', { sequence: 9, states: { cqr: 'b', quality: 'q' } }],
            ['eu', { sequence: 1, states: { cqr: 'e' } }],
            ['us', { sequence: 2, states: { cqr: 'u' } }],
          ]),
        );
        assert.deepEqual(await store.loadCheckpointSets([]), new Map());
      });
    });

    it('reads the tails of several communities after a sequence each, in one read', async () => {
      await withStore(async (store) => {
        await store.append([action('a', 1), action('b', 2), action('c', 3), { ...action('d', 4), community: 'eu' }, { ...action('e', 5), community: 'us' }]);
        const tails = await store.readTails(
          new Map([
            ['us', 0],
            ['default', 1],
            ['eu', 1],
            ['nowhere', 0],
          ]),
        );
        assert.deepEqual(
          tails.map((t) => [t.community, t.sequence, playerOf(t.event)]),
          [
            ['us', 1, 'e'],
            ['default', 2, 'b'],
            ['default', 3, 'c'],
          ],
        );
        assert.deepEqual(await store.readTails(new Map()), []);
      });
    });

    it('answers the sequence and time of the last event of every community', async () => {
      await withStore(async (store) => {
        assert.deepEqual(await store.lastEvents(), new Map());
        await store.append([action('a', 1), { ...action('b', 2), time: 7 }, { ...action('c', 3), community: 'eu', time: 4 }]);
        assert.deepEqual(
          await store.lastEvents(),
          new Map([
            ['default', { sequence: 2, time: 7 }],
            ['eu', { sequence: 1, time: 4 }],
          ]),
        );
      });
    });

    it('answers which ids a community holds, and the last sequence of each community', async () => {
      await withStore(async (store) => {
        await store.append([action('a', 1, { id: 'x' }), action('a', 1, { id: 'y' }), { ...action('a', 1, { id: 'z' }), community: 'eu' }]);
        assert.deepEqual([...(await store.knownIds('default', ['x', 'z', 'w']))], ['x']);
        assert.deepEqual(await store.knownIds('default', []), new Set());
        assert.deepEqual([...(await store.knownIds('default', ['x', 'y'], 'action'))].sort(), ['x', 'y']);
        assert.deepEqual(await store.knownIds('default', ['x', 'y'], 'report'), new Set());
        assert.deepEqual(
          await store.sequences(),
          new Map([
            ['default', 2],
            ['eu', 1],
          ]),
        );
      });
    });

    it('erases a player: rewrites or removes the events naming them, drops checkpoints and alerts, in one go', async () => {
      await withStore(async (store) => {
        await store.append([
          action('ann', 1),
          { type: 'chat', time: 2, community: 'default', from: 'bob', to: ['ann', 'cid'] },
          action('bob', 3, { note: 'not about "ann" as a player' }),
          { type: 'rating', time: 4, community: 'eu', from: 'ann', to: 'bob', value: 1 },
          action('cid', 5),
          action('ann', 6),
        ]);
        await store.saveCheckpoints('default', { sequence: 5, states: { cqr: 's' } });
        await store.saveCheckpoints('us', { sequence: 1, states: { cqr: 'u' } });
        await store.appendAlerts([alert('ann'), alert('bob')]);
        const outcome = await store.erase('ann', (e) => {
          if (e.type === 'chat') return { ...e, to: e.to.filter((p) => p !== 'ann') };
          if ((e.type === 'action' && e.player === 'ann') || (e.type === 'rating' && e.from === 'ann')) return null;
          return undefined;
        });
        assert.deepEqual(outcome, { communities: ['default', 'eu'], removed: 3, rewritten: 1 });
        const left = await store.read('default');
        assert.deepEqual(
          left.map((s) => [s.sequence, s.event.type]),
          [
            [2, 'chat'],
            [3, 'action'],
            [4, 'action'],
          ],
        );
        assert.deepEqual((left[0]?.event as { to?: unknown }).to, ['cid']);
        assert.deepEqual(await store.read('eu'), []);
        assert.equal(await store.loadCheckpoints('default'), undefined);
        assert.deepEqual(await store.loadCheckpoints('us'), { sequence: 1, states: { cqr: 'u' } });
        assert.deepEqual(
          (await store.readAlerts()).map((a) => a.player),
          ['bob'],
        );
        // Sequences go on from the last one given (5, erased), never reused.
        assert.equal((await store.append([action('dan', 1)])).appended[0]?.sequence, 6);
      });
    });

    it('erasing removes the verdicts that name a removed report by id, in its community only', async () => {
      await withStore(async (store) => {
        const report = (id: string, community: string, to: string): StandingEvent => ({ type: 'report', time: 1, id, community, from: 'ann', to });
        const verdict = (report: string, community: string, reason: string): StandingEvent => ({
          type: 'verdict',
          time: 2,
          community,
          on: 'report',
          report,
          outcome: 'upheld',
          reason,
        });
        await store.append([
          report('r1', 'default', 'bob'),
          { type: 'report', time: 1, id: 'r2', community: 'default', from: 'cid', to: 'bob' },
          verdict('r1', 'default', 'abusive, see the clip'),
          verdict('r2', 'default', 'no evidence'),
          verdict('r1', 'eu', 'another community, another r1'),
          verdict('r1', 'default', 'on review: ann kept at it'),
        ]);
        const outcome = await store.erase('ann', (e) => (e.type === 'report' && e.from === 'ann' ? null : undefined));
        assert.deepEqual(outcome, { communities: ['default'], removed: 3, rewritten: 0 });
        assert.deepEqual(
          (await store.read('default')).map((s) => [s.sequence, s.event.type, s.event.id]),
          [
            [2, 'report', 'r2'],
            [4, 'verdict', undefined],
          ],
        );
        assert.deepEqual(
          (await store.read('eu')).map((s) => s.event.type),
          ['verdict'],
        );
      });
    });

    it('lists moderator events filtered by community, player, moderator, action and time, paged by cursor in either order', async () => {
      await withStore(async (store) => {
        const at = (time: number, community: string, fields: Record<string, unknown>): StandingEvent => ({ time, community, ...fields }) as unknown as StandingEvent;
        await store.append([
          at(1, 'default', { type: 'report', id: 'r1', from: 'ann', to: 'bob' }),
          at(2, 'default', { type: 'note', player: 'bob', text: 'toxic in chat', moderator: 'mia' }),
          at(3, 'default', { type: 'sanction', id: 's1', player: 'bob', action: 'suspend', until: 10, reason: 'r', moderator: 'mia' }),
          at(3, 'eu', { type: 'sanction', player: 'bob', action: 'warn', reason: 'r', moderator: 'ole' }),
          at(4, 'default', { type: 'verdict', on: 'report', report: 'r1', outcome: 'upheld', moderator: 'ole' }),
          at(5, 'default', { type: 'verdict', on: 'report', from: 'cid', to: 'dee', outcome: 'dismissed', moderator: 'mia' }),
          at(6, 'default', { type: 'appeal', id: 'a1', player: 'bob', status: 'opened', sanction: 's1' }),
          at(7, 'default', { type: 'appeal', player: 'bob', status: 'granted', appeal: 'a1', moderator: 'ole' }),
          at(8, 'default', { type: 'action', player: 'bob', delta: 1, moderator: 'not a moderator event' }),
        ]);
        const list = async (query: Parameters<EventStore['moderationEvents']>[0]) =>
          (await store.moderationEvents(query)).map((e) => `${e.community}/${e.sequence} ${e.action} ${e.player ?? '-'} ${e.moderator ?? '-'}`);
        assert.deepEqual(await list({}), [
          'default/2 note bob mia',
          'default/3 sanction.suspend bob mia',
          'eu/1 sanction.warn bob ole',
          'default/4 verdict.upheld bob ole',
          'default/5 verdict.dismissed dee mia',
          'default/6 appeal.opened bob -',
          'default/7 appeal.granted bob ole',
        ]);
        const first = (await store.moderationEvents({ limit: 1 }))[0]!;
        assert.deepEqual(
          { ...first, cursor: typeof first.cursor },
          { cursor: 'string', community: 'default', sequence: 2, time: 2, moderator: 'mia', action: 'note', player: 'bob', event: at(2, 'default', { type: 'note', player: 'bob', text: 'toxic in chat', moderator: 'mia' }) },
        );
        assert.deepEqual(await list({ community: 'eu' }), ['eu/1 sanction.warn bob ole']);
        assert.deepEqual(await list({ player: 'dee' }), ['default/5 verdict.dismissed dee mia']);
        assert.equal((await list({ player: 'bob', community: 'default' })).length, 5, 'a verdict naming its report by id counts for the reported player');
        assert.deepEqual(await list({ moderator: 'ole' }), ['eu/1 sanction.warn bob ole', 'default/4 verdict.upheld bob ole', 'default/7 appeal.granted bob ole']);
        assert.deepEqual(await list({ action: 'sanction' }), ['default/3 sanction.suspend bob mia', 'eu/1 sanction.warn bob ole']);
        assert.deepEqual(await list({ action: 'appeal.granted' }), ['default/7 appeal.granted bob ole']);
        assert.deepEqual(await list({ action: 'note.x' }), []);
        assert.deepEqual(await list({ since: 4, until: 6 }), ['default/4 verdict.upheld bob ole', 'default/5 verdict.dismissed dee mia']);
        assert.deepEqual(await list({ newestFirst: true, limit: 2 }), ['default/7 appeal.granted bob ole', 'default/6 appeal.opened bob -']);
        for (const newestFirst of [false, true]) {
          const paged: string[] = [];
          let after: ModerationCursor | undefined;
          for (;;) {
            const page = await store.moderationEvents({ newestFirst, limit: 2, ...(after === undefined ? {} : { after }) });
            if (page.length === 0) break;
            paged.push(...page.map((e) => `${e.community}/${e.sequence}`));
            const last = page[page.length - 1]!;
            after = { time: last.time, community: last.community, sequence: last.sequence };
          }
          const whole = (await store.moderationEvents({ newestFirst })).map((e) => `${e.community}/${e.sequence}`);
          assert.deepEqual(paged, whole);
        }
        await store.erase('bob', (e) => ((e as { player?: string }).player === 'bob' || (e as { to?: string }).to === 'bob' ? null : undefined));
        assert.deepEqual(await list({}), ['default/5 verdict.dismissed dee mia']);
      });
    });

    it('finds the player of a verdict naming its report by id only in a report of that id', async () => {
      await withStore(async (store) => {
        const at = (time: number, fields: Record<string, unknown>): StandingEvent => ({ time, community: 'default', ...fields }) as unknown as StandingEvent;
        await store.append([
          at(1, { type: 'rating', id: 'x1', from: 'ann', to: 'bob', value: -1 }),
          at(2, { type: 'report', id: 'r1', from: 'ann', to: 'cid' }),
          at(3, { type: 'verdict', on: 'report', report: 'x1', outcome: 'upheld', moderator: 'mia' }),
          at(4, { type: 'verdict', on: 'report', report: 'r1', outcome: 'upheld', moderator: 'mia' }),
        ]);
        const entries = await store.moderationEvents({});
        assert.deepEqual(
          entries.map((e) => [e.sequence, e.player]),
          [
            [3, undefined],
            [4, 'cid'],
          ],
        );
        assert.deepEqual(await store.moderationEvents({ player: 'bob' }), []);
      });
    });

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

    it('pages through every alert after an id, filtered, each once and in order', async () => {
      await withStore(async (store) => {
        const first = await store.appendAlerts([alert('zed')]);
        const many = Array.from({ length: 5_003 }, (_, i) => alert(i % 2 === 0 ? 'ann' : 'bob'));
        await store.appendAlerts(many);
        const pages = (await alertPages(store, { after: first[0]!.id }, 5_000)).map((page) => page.map((a) => a.id));
        assert.deepEqual(
          pages.map((p) => p.length),
          [5_000, 3],
        );
        const ids = pages.flat();
        assert.equal(new Set(ids).size, 5_003);
        assert.ok(
          ids.every((id, i) => i === 0 || id > ids[i - 1]!),
          'alert ids increase',
        );
        const anns = (await alertPages(store, { player: 'ann' }, 5_000)).flat();
        assert.equal(anns.length, 2_502);
      });
    });

    it('numbers alerts in order, filters them, and knows which are still open', async () => {
      await withStore(async (store) => {
        const stored = await store.appendAlerts([alert('ann'), alert('bob'), { ...alert('ann'), kind: 'cleared', score: 3 }]);
        assert.deepEqual(
          stored.map((a) => [a.player, a.kind]),
          [
            ['ann', 'raised'],
            ['bob', 'raised'],
            ['ann', 'cleared'],
          ],
        );
        assert.ok(stored[0]!.id < stored[1]!.id && stored[1]!.id < stored[2]!.id, 'alert ids increase');
        const { id: _id, createdAt, ...rest } = stored[0]!;
        assert.deepEqual(rest, alert('ann'));
        assert.match(createdAt, /^\d{4}-/);
        assert.deepEqual(await store.appendAlerts([]), []);
        assert.deepEqual(
          (await store.readAlerts({ player: 'ann' })).map((a) => a.kind),
          ['raised', 'cleared'],
        );
        assert.deepEqual(
          (await store.readAlerts({ after: stored[0]!.id, limit: 1 })).map((a) => a.player),
          ['bob'],
        );
        assert.deepEqual(await store.readAlerts({ community: 'nowhere' }), []);
        assert.deepEqual(
          (await store.readAlerts({ newestFirst: true, limit: 2 })).map((a) => a.id),
          [stored[2]!.id, stored[1]!.id],
        );
        assert.deepEqual(
          (await store.openAlerts()).map((a) => a.player),
          ['bob'],
        );
        await store.appendAlerts([alert('ann')]);
        assert.deepEqual(
          (await store.openAlerts()).map((a) => a.player),
          ['bob', 'ann'],
        );
        // Pruning keeps open alerts whatever their age.
        assert.equal(await store.pruneAlerts('2000-01-01T00:00:00.000Z'), 0);
        assert.equal(await store.pruneAlerts('2999-01-01T00:00:00.000Z'), 2);
        assert.deepEqual(
          (await store.readAlerts()).map((a) => [a.player, a.kind]),
          [
            ['bob', 'raised'],
            ['ann', 'raised'],
          ],
        );
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

    it('keeps sequences gapless under concurrent appends', async () => {
      await withStore(async (store) => {
        const batches = Array.from({ length: 8 }, (_, b) => Array.from({ length: 5 }, (_, i) => action(`p${b}`, i, { id: `b${b}-${i}` })));
        await Promise.all(batches.map((batch) => store.append(batch)));
        const stored = await store.read('default');
        assert.deepEqual(
          stored.map((s) => s.sequence),
          Array.from({ length: 40 }, (_, i) => i + 1),
        );
        assert.equal(new Set(stored.map((s) => s.event.id)).size, 40);
      });
    });
  });
}
