/**
 * The moderation index's conformance suite: the moderator events of the event log (so a store
 * under it keeps an event log too), filtered by community, player, moderator, action and time,
 * paged by cursor in either order, and the player of a verdict on a report found by the report's id.
 */
import assert from 'node:assert/strict';
import type { EventLog, ModerationCursor, ModerationIndex } from '../../store/types.js';
import { at, listed, moderatorEvents } from './fixtures.js';
import { declarePortSuite, type Closing, type FreshStore, type PortCases, type TestFunctions } from './support.js';

export const moderationIndexCases: PortCases<ModerationIndex & EventLog & Closing> = (it, withStore) => {
  it('lists moderator events filtered by community, player, moderator, action and time, paged by cursor in either order', async () => {
    await withStore(async (store) => {
      await store.append(moderatorEvents);
      const list = async (query: Parameters<ModerationIndex['moderationEvents']>[0]) => listed(await store.moderationEvents(query));
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
        { cursor: 'string', community: 'default', sequence: 2, time: 2, moderator: 'mia', action: 'note', player: 'bob', event: moderatorEvents[1] },
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
    });
  });

  it('finds the player of a verdict naming its report by id only in a report of that id', async () => {
    await withStore(async (store) => {
      const inDefault = (time: number, fields: Record<string, unknown>) => at(time, 'default', fields);
      await store.append([
        inDefault(1, { type: 'rating', id: 'x1', from: 'ann', to: 'bob', value: -1 }),
        inDefault(2, { type: 'report', id: 'r1', from: 'ann', to: 'cid' }),
        inDefault(3, { type: 'verdict', on: 'report', report: 'x1', outcome: 'upheld', moderator: 'mia' }),
        inDefault(4, { type: 'verdict', on: 'report', report: 'r1', outcome: 'upheld', moderator: 'mia' }),
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
};

/** Declares the suite `moderation index conformance: ${name}`; every case gets a store of its own from `fresh` and closes it. */
export function moderationIndexSuite(name: string, fresh: FreshStore<ModerationIndex & EventLog & Closing>, test: TestFunctions): void {
  declarePortSuite('moderation index', moderationIndexCases, name, fresh, test);
}
