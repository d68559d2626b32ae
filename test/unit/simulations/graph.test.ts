/** The trust and report experiments on small seeded graphs. */
import { describe, expect, it } from 'vitest';
import { seededRng, type RatingEvent } from '../../../src/index.js';
import { simulateReportBrigade } from '../../../src/simulations/report-brigade.js';
import { simulateTrustCollusion } from '../../../src/simulations/trust-collusion.js';
import { mostTrusted, simulateTrustConvergence } from '../../../src/simulations/trust-convergence.js';

/** 60 players, each rating 4 random others, mostly positively. */
function network(seed: number): RatingEvent[] {
  const rng = seededRng(seed);
  const events: RatingEvent[] = [];
  for (let i = 0; i < 60; i++) {
    for (let k = 0; k < 4; k++) {
      const j = Math.floor(rng() * 60);
      if (j !== i) events.push({ type: 'rating', time: 0, community: 'default', from: `p${i}`, to: `p${j}`, value: rng() < 0.8 ? 1 : -1 });
    }
  }
  return events;
}

describe('trust convergence', () => {
  it('records one RMSD per iteration and settles within tens of iterations', () => {
    const events = network(1);
    const r = simulateTrustConvergence(events, { observers: mostTrusted(events, 3), iterations: 40 });
    expect(r.rmsd).toHaveLength(40);
    expect(r.rmsd[0]).toBeGreaterThan(0);
    expect(r.rmsd.findIndex((x) => x < 1e-9)).toBeLessThan(40);
    expect(r.players).toBe(60);
  });
});

describe('trust collusion', () => {
  it('trusts adversaries while they are endorsed, and none once every endorsement turned', () => {
    const curves = simulateTrustCollusion(network(2), { groups: [0.1], steps: 4, endorsers: 3, viewers: 5, rng: seededRng(3) });
    expect(curves).toHaveLength(1);
    const [curve] = curves;
    expect(curve!.adversaries).toBe(6);
    expect(curve!.positive).toHaveLength(5);
    expect(curve!.positive[0]).toBeGreaterThan(0);
    expect(curve!.positive[4]).toBe(0);
  });

  it('repeats exactly for a seed', () => {
    const run = () => simulateTrustCollusion(network(2), { groups: [0.05], steps: 2, endorsers: 2, viewers: 3, rng: seededRng(9) });
    expect(run()).toEqual(run());
  });
});

describe('report brigade', () => {
  const run = () => simulateReportBrigade({ players: 200, bad: 10, reportsPerBad: 6, noise: 30, brigades: [0, 3, 30], rng: seededRng(5) });
  it('pushes the innocent player up as the brigade grows, to the top with enough accounts', () => {
    const [none, few, many] = run();
    expect(none!.bp).toBe(0);
    expect(few!.rank).toBeLessThan(none!.rank);
    expect(many!.rank).toBe(1);
    expect(many!.bp).toBeGreaterThan(many!.weakestBadBp);
  });
  it('repeats exactly for a seed', () => {
    expect(run()).toEqual(run());
  });
});
