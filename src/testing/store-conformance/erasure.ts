/**
 * The erasure's conformance suite: erasing a player rewrites or removes the events naming them,
 * and the verdicts on a report it removes as the rewrite says given that report, the checkpoints of the communities that changed, their
 * alerts and their moderator events in the moderation listing, in one go; so a store under it
 * keeps an event log, checkpoints, alerts and the moderation index too.
 */
import assert from 'node:assert/strict';
import type { StandingEvent } from '../../events/types.js';
import type { AlertStore, CheckpointStore, ErasureStore, EventLog, ModerationIndex } from '../../store/types.js';
import { action, alert, listed, moderatorEvents } from './fixtures.js';
import { declarePortSuite, type Closing, type FreshStore, type PortCases, type TestFunctions } from './support.js';

/** What the erasure suite needs of a store: erasure, and everything erasure reaches. */
export type ErasableStore = ErasureStore & EventLog & CheckpointStore & AlertStore & ModerationIndex & Closing;

export const erasureCases: PortCases<ErasableStore> = (it, withStore) => {
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

  it('hands each verdict naming a removed report by id to the rewrite with that report, in its community only, and does what it says', async () => {
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
        report('r3', 'default', 'ann'),
        verdict('r1', 'default', 'abusive, see the clip'),
        verdict('r2', 'default', 'no evidence'),
        verdict('r1', 'eu', 'another community, another r1'),
        verdict('r1', 'default', 'on review: ann kept at it'),
        verdict('r3', 'default', 'about ann'),
      ]);
      const handed: [string, string][] = [];
      const outcome = await store.erase('ann', (e, removed) => {
        if (e.type === 'report' && (e.from === 'ann' || e.to === 'ann')) return null;
        if (e.type !== 'verdict' || removed === undefined) return undefined;
        handed.push([e.reason!, removed.id!]);
        // As the service's erasure does: a verdict about someone else is kept without the reporter.
        return removed.to === 'ann' ? null : { type: 'verdict', time: e.time, community: e.community, on: 'report', outcome: e.outcome, to: removed.to, reporterErased: true, reason: e.reason! };
      });
      assert.deepEqual(outcome, { communities: ['default'], removed: 3, rewritten: 2 });
      assert.deepEqual(handed.sort(), [
        ['about ann', 'r3'],
        ['abusive, see the clip', 'r1'],
        ['on review: ann kept at it', 'r1'],
      ]);
      assert.deepEqual(
        (await store.read('default')).map((s) => [s.sequence, s.event.type, s.event.id, (s.event as { report?: string }).report, (s.event as { to?: string }).to]),
        [
          [2, 'report', 'r2', undefined, 'bob'],
          [4, 'verdict', undefined, undefined, 'bob'],
          [5, 'verdict', undefined, 'r2', undefined],
          [6, 'verdict', undefined, undefined, 'bob'],
        ],
      );
      assert.deepEqual(
        (await store.read('eu')).map((s) => (s.event as { report?: string }).report),
        ['r1'],
      );
      // The kept verdicts are listed about the reported player, as before the erasure.
      assert.deepEqual(listed(await store.moderationEvents({ player: 'bob', newestFirst: false })), [
        'default/4 verdict.upheld bob -',
        'default/5 verdict.upheld bob -',
        'default/6 verdict.upheld bob -',
      ]);
    });
  });

  it('erasing a player takes the moderator events about them out of the moderation listing', async () => {
    await withStore(async (store) => {
      await store.append(moderatorEvents);
      // The verdict naming the removed report r1 by id comes with it: removed too.
      await store.erase('bob', (e, removed) => ((e as { player?: string }).player === 'bob' || (e as { to?: string }).to === 'bob' || removed !== undefined ? null : undefined));
      assert.deepEqual(listed(await store.moderationEvents({})), ['default/5 verdict.dismissed dee mia']);
    });
  });
};

/** Declares the suite `erasure conformance: ${name}`; every case gets a store of its own from `fresh` and closes it. */
export function erasureSuite(name: string, fresh: FreshStore<ErasableStore>, test: TestFunctions): void {
  declarePortSuite('erasure', erasureCases, name, fresh, test);
}
