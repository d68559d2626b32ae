/**
 * Two threads give the same trust results as one, bit for bit, also when the helper thread is
 * reused or replaced. The test runs from the TypeScript sources; a worker thread cannot load
 * those by itself, so the helper runs the compiled worker in dist/ when there is one, else the
 * worker's source through tsx (src/util/start-worker.ts).
 */
import { describe, expect, it } from 'vitest';
import { seededRng, trust } from '../../../src/index.js';
import { trustHelper } from '../../../src/scorers/trust/helper.js';
import { runKernel } from '../../../src/scorers/trust/kernel.js';
import { allocateKernel, loadKernel } from '../../../src/scorers/trust/kernel/memory.js';
import { positiveInfluence } from '../../../src/scorers/trust/params.js';

describe('trust on two threads', () => {
  const rng = seededRng(11);
  const events = Array.from({ length: 60_000 }, () => {
    const from = Math.floor(rng() * 5_000);
    let to = Math.floor(5_000 * rng() ** 2);
    if (to === from) to = (to + 1) % 5_000;
    return { type: 'rating' as const, time: 0, community: 'c', from: `p${from}`, to: `p${to}`, value: rng() < 0.8 ? 0.5 : -0.5 };
  });
  const run = (threads: number, negativeWeight: number) => {
    const state = trust.initialState(trust.params.resolve({ observers: 'p4999,p4998', threads, negativeWeight, tolerance: 1e-12 }));
    for (const e of events) trust.evolve(state, e);
    const result = state.communities.get('c')!.compute();
    return { reputation: Array.from(result.reputation), residuals: result.residuals, iterations: result.iterations, threads: result.threads };
  };
  it('matches one thread exactly: reputations, residuals and iterations', async () => {
    for (const negativeWeight of [1, 2]) {
      const one = run(1, negativeWeight);
      const two = run(2, negativeWeight);
      expect(one.iterations).toBeGreaterThan(3);
      expect([one.threads, two.threads]).toEqual([1, 2]); // the worker really ran
      expect({ ...two, threads: 1 }).toEqual(one); // the second time on the same helper thread
    }
    // A helper that has exited is replaced by the next computation, with the same results.
    const before = trustHelper();
    await before.terminate();
    const again = run(2, 1);
    expect(trustHelper()).not.toBe(before);
    expect({ ...again, threads: 1 }).toEqual(run(1, 1));
    // A helper that dies of an error (here a malformed job) does not take the process with it,
    // and is replaced too.
    const broken = trustHelper();
    const died = new Promise((resolve) => broken.once('exit', resolve));
    broken.postMessage({ not: 'a job' });
    await died;
    const after = run(2, 1);
    expect(trustHelper()).not.toBe(broken);
    expect({ ...after, threads: 1 }).toEqual(run(1, 1));
  });

  it('gives one thread’s results in two-thread computations back to back, over memory laid out anew each time', () => {
    // Small graphs of varying sizes, each computation's arrays laid out over the one memory the
    // last used: the helper must have left a computation (it reads the block sums after the last
    // barrier) before the next one reuses the memory, or it reads the next one's arrays as its
    // own and the two threads fall out of step.
    const small = seededRng(12);
    for (let round = 0; round < 300; round++) {
      const ratings = Array.from({ length: 1 + Math.floor(small() * 12) }, (_, i) => {
        const from = Math.floor(small() * 9);
        const to = (from + 1 + Math.floor(small() * 8)) % 9;
        return { type: 'rating' as const, time: i * 60_000, community: 'c', from: `p${from}`, to: `p${to}`, value: Math.round(small() * 20 - 8) / 10 || 0.5 };
      });
      const results = [1, 2].map((threads) => {
        const state = trust.initialState(trust.params.resolve({ observers: 'p0,p1', threads, tolerance: 1e-12 }));
        for (const e of ratings) trust.evolve(state, e);
        const result = state.communities.get('c')!.compute();
        return { reputation: Array.from(result.reputation), residuals: result.residuals, threads: result.threads };
      });
      expect(results.map((r) => r.threads)).toEqual([1, 2]);
      expect({ ...results[1], threads: 1 }).toEqual(results[0]);
    }
  });

  it('computes the default Influence in WebAssembly to the same bits as the same function in JavaScript', () => {
    // Another function object with the default's body takes the JavaScript path for rater terms
    // (and the iteration's layout for any Influence), with and without a negative-rating weight.
    for (const negativeWeight of [1, 2]) {
      const results = [positiveInfluence, (r: number) => (r > 0 ? r : 0)].map((influence) => {
        const state = trust.initialState(trust.params.resolve({ observers: 'p4999,p4998', threads: 1, tolerance: 1e-12, influence, negativeWeight }));
        for (const e of events) trust.evolve(state, e);
        const result = state.communities.get('c')!.compute();
        return { reputation: Array.from(result.reputation), residuals: result.residuals };
      });
      expect(results[0]!.residuals.length).toBeGreaterThan(3);
      expect(results[1]).toEqual(results[0]);
    }
  });

  it('a helper whose half fails makes the main thread fail with that, not wait for the timeout', () => {
    // A 4-node graph in two halves; the helper's half lacks its offsets, so it throws in the
    // first iteration and raises the failure flag the main thread checks at the barrier.
    const csr = { nodes: 4, offsets: Int32Array.from([0, 1, 2, 3, 4]), sources: Int32Array.from([1, 0, 3, 2]), weights: Float64Array.from([1, 1, 1, 1]) };
    const arrays = loadKernel(allocateKernel(csr.nodes, csr.sources.length, 1), csr, [0], 1);
    const common = { maxIterations: 10, tolerance: 0, rated: 3 };
    trustHelper().postMessage({ ...common, arrays: { ...arrays, offsets: undefined }, lo: 2, hi: 4, parties: 2 });
    expect(() => runKernel({ ...common, arrays, lo: 0, hi: 2, parties: 2, influence: positiveInfluence, leader: true })).toThrow(
      'the other trust thread failed',
    );
    // The helper took the failure as a job's and stays up for the next computation.
    expect(run(2, 1).threads).toBe(2);
  });
});
