/**
 * Two threads give the same trust results as one, bit for bit, also when the helper thread is
 * reused or replaced. The test runs from the TypeScript sources; a worker thread cannot load
 * those, so the helper runs the compiled worker in dist/ (built by the global setup): the
 * fallback a library user running from sources gets too.
 */
import { describe, expect, it } from 'vitest';
import { seededRng, trust } from '../../../src/index.js';
import { trustHelper } from '../../../src/scorers/trust/helper.js';

describe('trust on two threads', () => {
  it('matches one thread exactly: reputations, residuals and iterations', async () => {
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
});
