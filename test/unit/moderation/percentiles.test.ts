/** issue 17: one row's standing, found by binary search, equals the whole ranking's walk. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { standingAt, standingsOf } from '../../../src/moderation/percentiles.js';

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
