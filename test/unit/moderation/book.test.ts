/**
 * issue 17: the moderation book over a real SQLite store: built from a log as `standing import`
 * would leave it (events without ids, dated in the past), sanctions judged at `now` by event time,
 * lifts and granted appeals, and the queue's facts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateEvent } from '../../../src/events/validate.js';
import { ModerationBook } from '../../../src/moderation/book.js';
import { openSqliteStore } from '../../../src/store/sqlite.js';
import type { EventStore } from '../../../src/store/types.js';

const H = 3_600_000;
let store: EventStore | undefined;
afterEach(async () => store?.close());

async function bookOf(events: Record<string, unknown>[]): Promise<ModerationBook> {
  store = openSqliteStore(join(mkdtempSync(join(tmpdir(), 'standing-book-')), 'events.sqlite'));
  await store.append(events.map((e) => validateEvent({ community: 'c', ...e })));
  return ModerationBook.build(store);
}

describe('issue 17: ModerationBook', () => {
  it('judges expiry at now, ends sanctions by lift and by a granted appeal, and names events without an id by sequence', async () => {
    const book = await bookOf([
      { type: 'sanction', time: 1 * H, player: 'bob', action: 'suspend', until: 10 * H, reason: 'drops', moderator: 'mia' },
      { type: 'sanction', time: 2 * H, id: 'm1', player: 'bob', action: 'mute', reason: 'chat' },
      { type: 'sanction', time: 2 * H, id: 'w1', player: 'bob', action: 'warn', reason: 'language' },
      { type: 'appeal', time: 3 * H, id: 'a1', player: 'bob', status: 'opened', sanction: 'm1' },
      { type: 'note', time: 4 * H, player: 'bob', text: 'asked twice' },
      { type: 'verdict', time: 5 * H, on: 'player', player: 'bob', outcome: 'upheld', moderator: 'ole' },
    ]);
    expect(book.facts('c', 'bob', 5 * H)).toEqual({ handledAt: 5 * H, openAppeals: 1, activeSanctions: ['suspend', 'mute', 'warn'] });
    expect(book.withOpenAppeals('c')).toEqual(['bob']);
    // At 11 h the suspension has run out.
    const later = await book.record('c', 'bob', 11 * H);
    expect(later.sanctions.map((s) => [s.id, s.action, s.active, s.endedBy])).toEqual([
      ['w1', 'warn', true, undefined],
      ['m1', 'mute', true, undefined],
      ['#1', 'suspend', false, { kind: 'expired', time: 10 * H }],
    ]);
    expect(later.notes).toEqual([{ id: '#5', time: 4 * H, text: 'asked twice' }]);
    expect(later.verdicts).toEqual([{ id: '#6', time: 5 * H, on: 'player', outcome: 'upheld', moderator: 'ole' }]);
    expect(await book.record('c', 'nobody', 0)).toEqual({ sanctions: [], appeals: [], notes: [], verdicts: [] });
    expect(book.facts('c', 'nobody', 0)).toEqual({ openAppeals: 0, activeSanctions: [] });
  });

  it('follows a live engine\'s changes: a granted appeal lifts its sanction, a lift without id ends every active one, an erasure rebuilds', async () => {
    const book = await bookOf([
      { type: 'sanction', time: 1 * H, id: 'm1', player: 'bob', action: 'mute', reason: 'chat' },
      { type: 'sanction', time: 1 * H, id: 'b1', player: 'bob', action: 'ban', reason: 'cheats' },
      { type: 'appeal', time: 2 * H, id: 'a1', player: 'bob', status: 'opened', sanction: 'b1' },
    ]);
    let listener: ((change: Parameters<Parameters<Parameters<ModerationBook['follow']>[0]['onApplied']>[0]>[0]) => void) | undefined;
    book.follow({ onApplied: (l) => (listener = l) });
    const commit = async (event: Record<string, unknown>) => {
      const { appended } = await store!.append([validateEvent({ community: 'c', ...event })]);
      listener!({ communities: new Map([['c', { sequence: appended[0]!.sequence, time: appended[0]!.event.time }]]), events: appended });
    };
    await commit({ type: 'appeal', time: 3 * H, id: 'd1', player: 'bob', status: 'granted', appeal: 'a1', reason: 'shared account', moderator: 'mia' });
    expect((await book.record('c', 'bob', 3 * H)).sanctions.find((s) => s.id === 'b1')).toMatchObject({ active: false, endedBy: { kind: 'appeal', time: 3 * H, id: 'd1', moderator: 'mia' } });
    expect(book.appeal('c', 'bob', 'a1')).toMatchObject({ status: 'granted', decided: { id: 'd1', moderator: 'mia' } });
    expect((await book.record('c', 'bob', 3 * H)).appeals[0]).toMatchObject({ status: 'granted', decided: { id: 'd1', reason: 'shared account', moderator: 'mia' } });
    expect(book.withOpenAppeals('c')).toEqual([]);
    await commit({ type: 'sanction', time: 4 * H, id: 'l1', player: 'bob', action: 'lift', reason: 'served' });
    expect(book.facts('c', 'bob', 4 * H).activeSanctions).toEqual([]);
    expect(book.sanction('c', 'bob', 'm1', 4 * H)).toMatchObject({ active: false, endedBy: { kind: 'lifted', id: 'l1' } });
    await store!.erase('bob', (e) => ((e as { player?: string }).player === 'bob' ? null : undefined));
    listener!({ communities: new Map([['c', { sequence: 5, time: 4 * H }]]), events: [], erased: true });
    await book.whenCurrent();
    expect(await book.record('c', 'bob', 4 * H)).toEqual({ sanctions: [], appeals: [], notes: [], verdicts: [] });
  });
});
