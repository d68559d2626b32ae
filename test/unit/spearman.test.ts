/** Spearman's rank correlation on hand-worked cases. */
import { describe, expect, it } from 'vitest';
import { averageRanks, spearman, spearmanOfScores } from '../../src/evaluation/spearman.js';

describe('spearman', () => {
  it('ranks ties by their mean rank', () => {
    expect([...averageRanks([10, 20, 20, 5])]).toEqual([2, 3.5, 3.5, 1]);
  });

  it('is 1 for the same order, −1 for the reverse, whatever the scale', () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 400])).toBe(1);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBe(-1);
  });

  it('matches 1 − 6Σd²/(n(n²−1)) without ties', () => {
    // ranks a: 1 2 3 4 5, b: 2 1 4 3 5: Σd² = 4, ρ = 1 − 24/120 = 0.8
    expect(spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5])).toBeCloseTo(0.8, 14);
  });

  it('handles ties as Pearson on mean ranks', () => {
    // ranks a: 1 2 3 4, b: 1.5 1.5 3 4: means 2.5; cov = (−1.5)(−1) + (−0.5)(−1) + 0.5·0.5 + 1.5·1.5 = 4.5;
    // var a = 5, var b = 1 + 1 + 0.25 + 2.25 = 4.5: ρ = 4.5/√22.5
    expect(spearman([1, 2, 3, 4], [7, 7, 8, 9])).toBeCloseTo(4.5 / Math.sqrt(22.5), 14);
  });

  it('is null for fewer than two players or a constant scoring, and pairs players by name', () => {
    expect(spearman([1], [2])).toBeNull();
    expect(spearman([1, 2, 3], [5, 5, 5])).toBeNull();
    expect(spearmanOfScores(new Map([['a', 1], ['b', 2], ['c', 3]]), new Map([['c', 30], ['a', 10], ['b', 20], ['d', 0]]))).toBe(1);
  });
});
