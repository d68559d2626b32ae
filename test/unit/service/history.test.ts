/** A player's score over event time, hand-computed: a replay of the stored log sampled at evenly spaced events. */
import { describe, expect, it, vi } from 'vitest';
import { instantiate } from '../../../src/engine/engine.js';
import { SCORERS } from '../../../src/scorers/index.js';
import { scoreHistory } from '../../../src/service/history.js';
import { eventsAfter } from '../../../src/store/pages.js';
import { openSqlite, QUALITY, sqlitePath } from './support.js';

const act = (player: string, delta: number, time: number) => ({ type: 'action' as const, time, community: 'default', player, delta });
/** Sequences 1…6: bob 5, ann 10, bob 50, ann 20, ann 30, ann 40. */
const SIX_EVENTS = [act('bob', 5, 100), act('ann', 10, 200), act('bob', 50, 300), act('ann', 20, 400), act('ann', 30, 500), act('ann', 40, 600)];
/**
 * ann after each of them: unknown after event 1; then 10 ahead of bob's 5 (rank 1), 10 behind
 * bob's 55 (rank 2), 30 (rank 2), 60 (rank 1), 100 (rank 1).
 */
const ANN_AFTER_EACH = [
  { sequence: 1, time: 100, score: null, rank: null },
  { sequence: 2, time: 200, score: 10, rank: 1 },
  { sequence: 3, time: 300, score: 10, rank: 2 },
  { sequence: 4, time: 400, score: 30, rank: 2 },
  { sequence: 5, time: 500, score: 60, rank: 1 },
  { sequence: 6, time: 600, score: 100, rank: 1 },
];

async function storeWithSixEvents() {
  const store = openSqlite(sqlitePath());
  await store.append(SIX_EVENTS);
  return store;
}

describe('score history', () => {
  it('samples the score (and rank) after the last event at or before each of `points` evenly spaced sequences', async () => {
    const store = await storeWithSixEvents();
    const cqr = instantiate(SCORERS.cqr!, { T: 8, x: 0, k: 8 });
    // 6 points, one per event.
    expect(await scoreHistory(store, cqr, QUALITY, 'default', 'ann', 6, 6)).toEqual(ANN_AFTER_EACH);
    // 3 points: sequences ceil(6·k/3) = 2, 4, 6.
    expect((await scoreHistory(store, cqr, QUALITY, 'default', 'ann', 6, 3)).map((p) => [p.sequence, p.score])).toEqual([
      [2, 10],
      [4, 30],
      [6, 100],
    ]);
    // 4 points: ceil(1.5, 3, 4.5, 6) = 2, 3, 5, 6.
    expect((await scoreHistory(store, cqr, QUALITY, 'default', 'ann', 6, 4)).map((p) => p.sequence)).toEqual([2, 3, 5, 6]);
    // A community without events has no history.
    expect(await scoreHistory(store, cqr, QUALITY, 'elsewhere', 'ann', 0, 5)).toEqual([]);
    await store.close();
  });

  it('stops at `last`: events stored after it change nothing, and the log past them is not read', async () => {
    const store = await storeWithSixEvents();
    const cqr = instantiate(SCORERS.cqr!, { T: 8, x: 0, k: 8 });
    // More than two pages' worth of events (eventsAfter reads 5,000 at a time) that would change
    // both players' scores and ranks if they were read: bob far ahead, ann far behind.
    const later = Array.from({ length: 12_000 }, (_, i) => (i % 2 === 0 ? act('bob', 1000, 700 + i) : act('ann', -1000, 700 + i)));
    await store.append(later);
    const read = vi.spyOn(store, 'read'); // counts calls; the real read answers
    const six = await scoreHistory(store, cqr, QUALITY, 'default', 'ann', 6, 6);
    const three = await scoreHistory(store, cqr, QUALITY, 'default', 'ann', 6, 3);
    const upToFour = await scoreHistory(store, cqr, QUALITY, 'default', 'ann', 4, 2);
    const readsToLast = read.mock.calls.length;
    // The hand-computed history of the first test, as if the later events were not there.
    expect(six).toEqual(ANN_AFTER_EACH);
    expect(three.map((p) => [p.sequence, p.score, p.rank])).toEqual([
      [2, 10, 1],
      [4, 30, 2],
      [6, 100, 1],
    ]);
    expect(upToFour.map((p) => [p.sequence, p.score, p.rank])).toEqual([
      [2, 10, 1],
      [4, 30, 2],
    ]);
    // Each of the three histories read one page: it stopped before the pages that hold only later events.
    expect(readsToLast).toBe(3);
    // (the whole log takes three pages, so reading it through would have shown)
    read.mockClear();
    let stored = 0;
    for await (const _event of eventsAfter(store, 'default')) stored++;
    expect(stored).toBe(6 + later.length);
    expect(read.mock.calls.length).toBeGreaterThanOrEqual(3);
    read.mockRestore();
    // With `last` at the end of the log, the later events count: ann ends last of two.
    expect((await scoreHistory(store, cqr, QUALITY, 'default', 'ann', 6 + later.length, 1)).map((p) => [p.sequence, p.rank])).toEqual([[6 + later.length, 2]]);
    await store.close();
  });
  it('issue 17: points are dated by the community clock, so an event stored late with an earlier time does not send the plot back years', async () => {
    const store = openSqlite(sqlitePath());
    // ann 10 at t=1000, bob 5 at t=5000, then ann 20 and ann 30 posted late, dated t=200 and t=300
    // (the browser tier's test events, dated 2024, landed this way in a demo dated now).
    await store.append([act('ann', 10, 1000), act('bob', 5, 5000), act('ann', 20, 200), act('ann', 30, 300)]);
    const cqr = instantiate(SCORERS.cqr!, { T: 8, x: 0, k: 8 });
    expect(await scoreHistory(store, cqr, QUALITY, 'default', 'ann', 4, 4)).toEqual([
      { sequence: 1, time: 1000, score: 10, rank: 1 },
      { sequence: 2, time: 5000, score: 10, rank: 1 },
      { sequence: 3, time: 5000, score: 30, rank: 1 },
      { sequence: 4, time: 5000, score: 60, rank: 1 },
    ]);
    await store.close();
  });
});
