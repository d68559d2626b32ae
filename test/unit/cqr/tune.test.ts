/** Tuning (T, x, k) on the paper's Table 1 against its classes (docs/spec.md §2.4). */
import { describe, expect, it } from 'vitest';
import { defaultThresholds, seededRng, tuneCqr, type ActionEvent } from '../../../src/index.js';
import { TABLE1, TABLE1_LABELS } from '../../support/table1.js';

const actions: ActionEvent[] = TABLE1.flatMap((p) =>
  p.deltas.map((delta, a) => ({ type: 'action' as const, time: a, community: 'default', player: p.player, delta })),
);

describe('tuneCqr', () => {
  it('grid search finds parameterizations at least as good as the paper’s best (104)', () => {
    const results = tuneCqr(actions, TABLE1_LABELS, {
      T: [4, 8, Infinity], x: [0, 10], search: 'grid', trials: 0, rng: seededRng(1), objective: 'score', community: 'default',
    });
    // grid: T=4 → k 1..4, T=8 → k 1..8, T=∞ → k 1..8 and ∞; each with 2 thresholds: (4 + 8 + 9) · 2
    expect(results).toHaveLength(42);
    expect(results[0]!.score).toBeGreaterThanOrEqual(104);
    const paper = results.find((r) => r.params.T === 8 && r.params.x === 10 && r.params.k === 4)!;
    expect(paper.score).toBe(104);
    for (let i = 1; i < results.length; i++) expect(results[i - 1]!.score!).toBeGreaterThanOrEqual(results[i]!.score!);
  });

  it('random search is deterministic for a seed and differs across seeds', () => {
    const run = (seed: number) =>
      tuneCqr(actions, TABLE1_LABELS, {
        T: [2, 8, 16], x: [0, 30], search: 'random', trials: 40, rng: seededRng(seed), objective: 'auc', community: 'default',
      }).map((r) => `${r.params.T},${r.params.x},${r.params.k}:${r.auc}`);
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
    expect(run(7)).toHaveLength(40);
  });

  it('default thresholds are 0 and the deciles of |Δ|', () => {
    const t = defaultThresholds([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((d) => ({ ...actions[0]!, delta: -d })));
    expect(t).toEqual([0, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
