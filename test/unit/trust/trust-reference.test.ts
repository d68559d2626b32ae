/**
 * The trust iteration (WebAssembly, one or two threads) against a plain JavaScript Jacobi
 * iteration written here from docs/spec.md §4, doing the same operations in the same order: the
 * reputations, the residual of every iteration and the iteration count must be the same bits.
 * The log has re-ratings and withdrawals, so it holds more entries than live ratings.
 */
import { describe, expect, it } from 'vitest';
import { seededRng, trust } from '../../../src/index.js';
import type { StandingEvent } from '../../../src/index.js';
import { BLOCK } from '../../../src/scorers/trust/kernel/split.js';
import type { TrustCommunity } from '../../../src/scorers/trust/community.js';

/** docs/spec.md §4: R = 1 on the observers, 0 elsewhere; R'_j = Σ Inf(R_i)·w_ij·r_ij·R_i·Decay / Σ Inf(R_i)·w_ij. */
function reference(c: TrustCommunity, observers: readonly number[]): { reputation: number[]; residuals: number[] } {
  const p = c.params;
  const { offsets, sources, weights } = c.ratings.byRatee((value, time) => value * p.decay(c.ttlAt(time), p.ttlMax));
  const n = offsets.length - 1;
  const pinned = new Set(observers);
  let current: number[] = Array.from({ length: n }, (_, j) => (pinned.has(j) ? 1 : 0));
  let rated = 0;
  for (let j = 0; j < n; j++) if (offsets[j + 1]! > offsets[j]! && !pinned.has(j)) rated++;
  const residuals: number[] = [];
  for (let it = 0; it < p.maxIterations; it++) {
    const influence = current.map((r) => Math.max(p.influence(r), 0));
    const next = new Array<number>(n);
    const blockSquares: number[] = [];
    for (let j = 0; j < n; j++) {
      if (j % BLOCK === 0) blockSquares.push(0);
      if (pinned.has(j)) {
        next[j] = 1;
        continue;
      }
      let num = 0;
      let den = 0;
      for (let e = offsets[j]!; e < offsets[j + 1]!; e++) {
        const i = sources[e]!;
        const w = weights[e]!;
        const f = w < 0 ? p.negativeWeight : 1;
        // With the weight 1 for every rating the product f·w is skipped, as the kernel does.
        num += (p.negativeWeight === 1 ? w : f * w) * (influence[i]! * current[i]!);
        den += p.negativeWeight === 1 ? influence[i]! : f * influence[i]!;
      }
      next[j] = den > 0 ? num / den : 0;
      const d = next[j]! - current[j]!;
      if (offsets[j + 1]! > offsets[j]!) blockSquares[blockSquares.length - 1]! += d * d;
    }
    const rmsd = rated === 0 ? 0 : Math.sqrt(blockSquares.reduce((sum, x) => sum + x, 0) / rated);
    residuals.push(rmsd);
    current = next;
    if (rmsd < p.tolerance) break;
  }
  return { reputation: current, residuals };
}

describe('the trust iteration', () => {
  const rng = seededRng(5);
  const events: StandingEvent[] = [];
  for (let i = 0; i < 40_000; i++) {
    const from = Math.floor(rng() * 3_000);
    let to = Math.floor(3_000 * rng() ** 2);
    if (to === from) to = (to + 1) % 3_000;
    // A tenth withdraw, the rest rate −1..1; pairs repeat, so later ratings replace earlier ones.
    const value = rng() < 0.1 ? 0 : Math.round(rng() * 20 - 6) / 10 || 0.5;
    events.push({ type: 'rating', time: i * 60_000, community: 'c', from: `p${from}`, to: `p${to}`, value });
  }

  it('is the same bits as a plain JavaScript Jacobi iteration, on one thread and two, with and without a negative-rating weight', () => {
    for (const negativeWeight of [1, 3]) {
      for (const threads of [1, 2]) {
        const state = trust.initialState(trust.params.resolve({ observers: 'p2999,p2990,p2950', threads, negativeWeight, tolerance: 1e-13 }));
        for (const e of events) trust.evolve(state, e);
        const c = state.communities.get('c')!;
        expect(c.ratings.length).toBeGreaterThan(c.ratings.countLive()); // superseded and withdrawn entries remain
        const result = c.compute();
        expect(result.threads).toBe(threads);
        const expected = reference(c, result.observers);
        expect(result.residuals.length).toBeGreaterThan(5);
        expect(result.residuals).toEqual(expected.residuals);
        expect(Array.from(result.reputation)).toEqual(expected.reputation);
      }
    }
  });
});
