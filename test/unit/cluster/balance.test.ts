import { describe, expect, it } from 'vitest';
import { observeFree, planBalance, type BalanceView } from '../../../src/cluster/balance.js';

const view = (over: Partial<BalanceView>): BalanceView => ({
  partitions: 8,
  liveWorkers: 3,
  start: 0,
  running: [],
  beyondShare: new Set(),
  holds: new Set(),
  held: new Set(),
  freeSince: new Map(),
  backoffUntil: new Map(),
  now: 100_000,
  orphanAfterMs: 6_000,
  ...over,
});

describe('issue 25: evening the load', () => {
  it('takes free partitions up to its share (ceil(P / W)), from its own starting place, passing over held ones, its own and those it backs off from', () => {
    const plan = planBalance(view({ start: 6, running: [1], holds: new Set([1, 2]), held: new Set([0, 1, 2, 7]), backoffUntil: new Map([[3, 100_001], [4, 99_999]]) }));
    expect(plan).toEqual({ handOver: [], candidates: [6, 4, 5], wanted: 2, orphan: undefined });
  });

  it('tries every partition it does not hold when the leases could not be listed, and takes nothing beyond its share then', () => {
    const plan = planBalance(view({ running: [0, 1, 2], holds: new Set([0, 1, 2]), held: undefined, freeSince: new Map([[5, 0]]) }));
    expect(plan).toEqual({ handOver: [], candidates: [], wanted: 0, orphan: undefined });
    expect(planBalance(view({ running: [0], holds: new Set([0]), held: undefined })).candidates).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('at its share, takes a partition left free for orphanAfterMs (its backing-off worker the only one below its share), not one free for less', () => {
    const running = [0, 1, 2];
    const base = { running, holds: new Set(running), held: new Set([0, 1, 2, 3, 4, 5]) };
    expect(planBalance(view({ ...base, freeSince: new Map([[6, 94_001], [7, 94_000]]) })).orphan).toBe(7);
    expect(planBalance(view({ ...base, freeSince: new Map([[6, 94_001], [7, 94_001]]) })).orphan).toBeUndefined();
    // It backs off from it too: left to the others.
    expect(planBalance(view({ ...base, freeSince: new Map([[7, 0]]), backoffUntil: new Map([[7, 200_000]]) })).orphan).toBeUndefined();
  });

  it('hands over its excess, the partitions it took beyond its share last', () => {
    const running = [0, 1, 2, 3, 4];
    expect(planBalance(view({ running, holds: new Set(running) })).handOver).toEqual([3, 4]);
    expect(planBalance(view({ running, holds: new Set(running), beyondShare: new Set([1, 3]) })).handOver).toEqual([1, 3]);
  });

  it('counts a partition free from the first listing that shows it free, and forgets it once held', () => {
    const since = new Map<number, number>([[2, 50]]);
    observeFree(since, new Set([0, 1]), 4, 70);
    expect([...since]).toEqual([[2, 50], [3, 70]]);
    observeFree(since, new Set([2]), 4, 90);
    expect([...since].sort((a, b) => a[0] - b[0])).toEqual([[0, 90], [1, 90], [3, 70]]);
  });
});
