/** Alert thresholds (docs/spec.md §2.3), hand-computed, and crossing semantics over a live engine. */
import { describe, expect, it } from 'vitest';
import { instantiate } from '../../../src/engine/engine.js';
import { SCORERS } from '../../../src/scorers/index.js';
import { AlertMonitor, cutOf } from '../../../src/service/alerts.js';
import { LiveEngine } from '../../../src/service/live-engine.js';
import { RankingViews } from '../../../src/service/views.js';
import type { StoredAlert } from '../../../src/store/types.js';
import { openSqlite, QUALITY, sqlitePath } from './support.js';

describe('threshold cuts', () => {
  const scores = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];

  it('absolute: the value itself', () => {
    expect(cutOf({ name: 'a', scorer: 'cqr', below: -50 }, scores)).toBe(-50);
    expect(cutOf({ name: 'a', scorer: 'reports', above: 2.5 }, [])).toBe(2.5);
  });

  it('percentile: nearest rank, the smallest score with at least p % at or below it', () => {
    // p = 25 of 10 scores: ceil(2.5) = 3rd smallest = 30; "below" it are 10 and 20.
    expect(cutOf({ name: 'p', scorer: 'cqr', percentile: 25 }, scores)).toBe(30);
    expect(cutOf({ name: 'p', scorer: 'cqr', percentile: 10 }, scores)).toBe(10);
    expect(cutOf({ name: 'p', scorer: 'cqr', percentile: 10 }, [])).toBeUndefined();
  });

  it('z-score: mean − z·sd (population sd); none when every score is equal', () => {
    // mean 55, variance = Σ(x−55)²/10 = 825, sd = 28.7228…; z = 1 → 26.277…
    expect(cutOf({ name: 'z', scorer: 'cqr', zscore: 1 }, scores)).toBeCloseTo(55 - Math.sqrt(825), 12);
    expect(cutOf({ name: 'z', scorer: 'cqr', zscore: 1 }, [5, 5, 5])).toBeUndefined();
  });
});

describe('alert monitor', () => {
  it('raises once per crossing, clears on recovery, watches every instance of a scorer id, and remembers across restarts', async () => {
    const path = sqlitePath();
    const thresholds = [
      { name: 'low', scorer: 'cqr', below: -10 },
      { name: 'bottom-quarter', scorer: 'cqr T=1', percentile: 25 },
    ];
    const start = async () => {
      const store = openSqlite(path);
      const instances = [instantiate(SCORERS.cqr!, { T: 8, x: 0, k: 8 }, 'cqr'), instantiate(SCORERS.cqr!, { T: 1, x: 0, k: 1 }, 'cqr T=1')];
      const live = await LiveEngine.open({ store, instances, quality: QUALITY, checkpointEvery: 1 });
      const views = new RankingViews(live, 0);
      const monitor = await AlertMonitor.start(store, live, views, thresholds, 0, (e) => {
        throw e;
      });
      const heard: StoredAlert[] = [];
      monitor.subscribe((list) => heard.push(...list));
      return { live, monitor, heard };
    };
    const act = (player: string, delta: number) => ({ type: 'action', time: 1, player, delta });

    const first = await start();
    await first.live.ingest([act('a', -20), act('b', 5), act('c', 7), act('d', 9)]);
    await first.monitor.flush();
    // "low" on both cqr instances (both are cqr): a at −20. Bottom quarter of T=1 (4 scores: cut at the
    // 1st smallest, −20): nobody is strictly below it.
    expect(first.heard.map((x) => [x.scorer, x.threshold, x.player, x.kind])).toEqual([
      ['cqr', 'low', 'a', 'raised'],
      ['cqr T=1', 'low', 'a', 'raised'],
    ]);
    first.heard.length = 0;
    await first.live.ingest([act('a', -1)]); // still below on cqr (−21); T=1 now −1: recovered
    await first.monitor.flush();
    expect(first.heard.map((x) => [x.scorer, x.threshold, x.player, x.kind])).toEqual([['cqr T=1', 'low', 'a', 'cleared']]);
    first.monitor.stop();
    await first.live.close();

    const second = await start();
    await second.live.ingest([act('b', 1)]);
    await second.monitor.flush();
    // a is still below on cqr: remembered, not raised again.
    expect(second.heard.filter((x) => x.scorer === 'cqr' && x.player === 'a')).toEqual([]);
    second.monitor.stop();
    await second.live.close();
  });
});
