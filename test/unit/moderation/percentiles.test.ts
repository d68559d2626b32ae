/** issue 17: one row's standing, found by binary search, equals the whole ranking's walk. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { standingAt, standingsOf, worseThan } from '../../../src/moderation/percentiles.js';

describe('issue 17: standingAt', () => {
  it('equals standingsOf at every row, in both directions and with ties', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 1, maxLength: 30 }), fc.boolean(), fc.boolean(), (scores, descending, rankOneIsWorst) => {
        const sorted = [...scores].sort((a, b) => (descending ? b - a : a - b));
        const rows = sorted.map((score, i) => ({ player: `p${i}`, community: 'c', score, rank: i + 1 }));
        const all = standingsOf(rows, rankOneIsWorst);
        rows.forEach((_, i) => expect(standingAt(rows, i, rankOneIsWorst)).toEqual(all[i]));
      }),
      { seed: 17 },
    );
  });
});

describe('issue 28: worseThan', () => {
  it('counts the other players ranked strictly better (before the row for rank 1 the best, after it for rank 1 the worst), never a tie', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 1, maxLength: 30 }), fc.boolean(), (scores, rankOneIsWorst) => {
        const sorted = [...scores].sort((a, b) => b - a);
        const rows = sorted.map((score, i) => ({ player: `p${i}`, community: 'c', score, rank: i + 1 }));
        standingsOf(rows, rankOneIsWorst).forEach((standing, i) => {
          const better = rows.filter((row, j) => row.score !== rows[i]!.score && (rankOneIsWorst ? j > i : j < i)).length;
          expect(worseThan(standing)).toBe(better);
        });
      }),
      { seed: 28 },
    );
  });

  it('by hand: the worst of 20 is worse than the 19 others; a crowd tied at the best end is worse than nobody', () => {
    // Reports (rank 1 the worst): 5, 3, 0, 0, 0.
    const rows = [5, 3, 0, 0, 0].map((score, i) => ({ player: `p${i}`, community: 'c', score, rank: i + 1 }));
    expect(standingsOf(rows, true).map(worseThan)).toEqual([4, 3, 0, 0, 0]);
    const twenty = Array.from({ length: 20 }, (_, i) => ({ player: `p${i}`, community: 'c', score: 20 - i, rank: i + 1 }));
    expect(worseThan(standingsOf(twenty, false)[19]!)).toBe(19);
  });
});
