/** A player's score over event time, hand-computed: a replay of the stored log sampled at evenly spaced events. */
import { describe, expect, it } from 'vitest';
import { instantiate } from '../../../src/engine/engine.js';
import { SCORERS } from '../../../src/scorers/index.js';
import { scoreHistory } from '../../../src/service/history.js';
import { openSqlite, QUALITY, sqlitePath } from './support.js';

describe('score history', () => {
  it('samples the score (and rank) after the last event at or before each of `points` evenly spaced sequences', async () => {
    const store = openSqlite(sqlitePath());
    const act = (player: string, delta: number, time: number) => ({ type: 'action' as const, time, community: 'default', player, delta });
    // Sequences 1…6: bob 5, ann 10, bob 50, ann 20, ann 30, ann 40.
    await store.append([act('bob', 5, 100), act('ann', 10, 200), act('bob', 50, 300), act('ann', 20, 400), act('ann', 30, 500), act('ann', 40, 600)]);
    const cqr = instantiate(SCORERS.cqr!, { T: 8, x: 0, k: 8 });
    // 6 points, one per event: ann is unknown after event 1; then 10 ahead of bob's 5 (rank 1),
    // 10 behind bob's 55 (rank 2), 30 (rank 2), 60 (rank 1), 100 (rank 1).
    expect(await scoreHistory(store, cqr, QUALITY, 'default', 'ann', 6, 6)).toEqual([
      { sequence: 1, time: 100, score: null, rank: null },
      { sequence: 2, time: 200, score: 10, rank: 1 },
      { sequence: 3, time: 300, score: 10, rank: 2 },
      { sequence: 4, time: 400, score: 30, rank: 2 },
      { sequence: 5, time: 500, score: 60, rank: 1 },
      { sequence: 6, time: 600, score: 100, rank: 1 },
    ]);
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
});
