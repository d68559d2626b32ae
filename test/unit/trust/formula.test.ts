/**
 * The trust scorer against its formula (src/scorers/trust/formula.ts, docs/spec.md §4). The
 * scorer's iteration always runs in WebAssembly (src/scorers/trust/iterate.wat), on one thread or
 * two; the rater terms Inf(R_i) and Inf(R_i)·R_i are computed in WebAssembly for the default
 * Influence and in JavaScript for any other, and a negative-rating weight other than 1 takes the
 * kernel's weighted sums: each of these paths is compared with the formula here.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRng, trust } from '../../../src/index.js';
import type { StandingEvent, TrustParams, TrustState } from '../../../src/index.js';
import type { TrustCommunity } from '../../../src/scorers/trust/community.js';
import { trustReputations, type LiveRating } from '../../../src/scorers/trust/formula.js';

const HOUR_MS = 3_600_000;

/** The community's live ratings in the kernel's order: by ratee (in player order), then in log order. */
function kernelOrder(c: TrustCommunity): LiveRating[] {
  const { offsets, sources, entries } = c.ratings.byRatee();
  const ids = c.ratings.players.ids();
  const ratings: LiveRating[] = [];
  for (let j = 0; j < ids.length; j++) {
    for (let k = offsets[j]!; k < offsets[j + 1]!; k++) {
      ratings.push({ rater: ids[sources[k]!]!, ratee: ids[j]!, value: c.ratings.valueAt(entries[k]!), ttl: c.ttlOf(entries[k]!) });
    }
  }
  return ratings;
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

  it('is the same bits as the formula given the ratings in its order, on one thread and two, with and without a negative-rating weight', () => {
    for (const negativeWeight of [1, 3]) {
      for (const threads of [1, 2]) {
        const state = trust.initialState(trust.params.resolve({ observers: 'p2999,p2990,p2950', threads, negativeWeight, tolerance: 1e-13 }));
        for (const e of events) trust.evolve(state, e);
        const c = state.communities.get('c')!;
        expect(c.ratings.length).toBeGreaterThan(c.ratings.countLive()); // superseded and withdrawn entries remain
        const result = c.compute();
        expect(result.threads).toBe(threads);
        const players = c.ratings.players.ids();
        const expected = trustReputations(players, kernelOrder(c), state.params.observers, state.params);
        expect(result.residuals.length).toBeGreaterThan(5);
        expect(result.residuals).toEqual(expected.residuals);
        expect(Array.from(result.reputation)).toEqual(players.map((id) => expected.reputation.get(id)));
      }
    }
  });
});

/** One rating event of a random graph: from, to (players 0–5), value (0 withdraws), minutes after the previous. */
interface RandomRating {
  readonly from: number;
  readonly to: number;
  readonly value: number;
  readonly minutes: number;
}

const randomRating: fc.Arbitrary<RandomRating> = fc.record({
  from: fc.integer({ min: 0, max: 5 }),
  to: fc.integer({ min: 0, max: 5 }),
  value: fc.oneof({ arbitrary: fc.constant(0), weight: 1 }, { arbitrary: fc.integer({ min: -10, max: 10 }).map((v) => v / 10), weight: 6 }),
  minutes: fc.integer({ min: 0, max: 90 }),
});

const graph = fc.record({
  ratings: fc.array(randomRating, { minLength: 1, maxLength: 50, size: 'max' }),
  observers: fc.subarray([0, 1, 2], { minLength: 1, maxLength: 2 }),
  ttlMax: fc.integer({ min: 3, max: 12 }),
  decay: fc.constantFrom('linear', 'constant'),
});

function ratingEvents(ratings: readonly RandomRating[]): (StandingEvent & { type: 'rating' })[] {
  let time = 0;
  return ratings.map((r) => {
    time += r.minutes * 60_000;
    const to = r.to === r.from ? (r.to + 1) % 6 : r.to; // no self-ratings
    return { type: 'rating', time, community: 'c', from: `p${r.from}`, to: `p${to}`, value: r.value };
  });
}

/**
 * The players and live ratings after `events` (docs/spec.md §4), read from the events alone: the
 * last rating of each pair, if not 0 and its TTL, TTL_MAX − ⌊(now − set) / T_expire⌋, is still
 * ≥ 1. Players in order of first appearance (a withdrawal creates no one), ratings in log order.
 */
function liveRatings(events: readonly (StandingEvent & { type: 'rating' })[], p: TrustParams): { players: string[]; ratings: LiveRating[] } {
  const players: string[] = [];
  const last = new Map<string, { index: number; from: string; to: string; value: number; time: number }>();
  events.forEach((e, index) => {
    if (e.value !== 0) for (const id of [e.from, e.to]) if (!players.includes(id)) players.push(id);
    last.set(`${e.from} ${e.to}`, { index, from: e.from, to: e.to, value: e.value, time: e.time });
  });
  const now = events.at(-1)!.time;
  const ratings = [...last.values()]
    .sort((a, b) => a.index - b.index)
    .map((r) => ({ rater: r.from, ratee: r.to, value: r.value, ttl: p.ttlMax - Math.floor((now - r.time) / (p.expireHours * HOUR_MS)) }))
    .filter((r) => r.value !== 0 && r.ttl >= 1);
  return { players, ratings };
}

/** Replays `events` through the scorer and holds its ranking and iteration to the formula's. */
function agrees(events: readonly (StandingEvent & { type: 'rating' })[], params: Record<string, unknown>): TrustState {
  const state = trust.initialState(trust.params.resolve({ expireHours: 1, tolerance: 1e-12, maxIterations: 300, ...params }));
  for (const e of events) trust.evolve(state, e);
  const p = state.params;
  const { players, ratings } = liveRatings(events, p);
  const expected = trustReputations(players, ratings, p.observers, p);
  const rows = trust.rank(state);
  const observers = new Set(p.observers);
  expect(rows.map((r) => r.player).sort()).toEqual(players.filter((id) => !observers.has(id)).sort());
  for (const row of rows) expect(Math.abs(row.score - expected.reputation.get(row.player)!)).toBeLessThanOrEqual(1e-12);
  // The rows are in the formula's order (ties within rounding aside).
  for (let r = 1; r < rows.length; r++) expect(expected.reputation.get(rows[r - 1]!.player)!).toBeGreaterThanOrEqual(expected.reputation.get(rows[r]!.player)! - 1e-12);
  const [stats] = trust.stats!(state, 'c');
  expect(stats!.iterations).toBe(expected.residuals.length);
  expect(stats!.converged).toBe(expected.converged);
  return state;
}

const observerIds = (observers: readonly number[]) => observers.map((o) => `p${o}`);

describe('issue 26: trust equals its formula on random small rating graphs', () => {
  it('with the default Influence (rater terms in WebAssembly), with and without a negative-rating weight', () => {
    fc.assert(
      fc.property(graph, fc.constantFrom(1, 2.5), (g, negativeWeight) => {
        agrees(ratingEvents(g.ratings), { observers: observerIds(g.observers), ttlMax: g.ttlMax, decay: g.decay, negativeWeight, threads: 1 });
      }),
      { seed: 26, numRuns: 150 },
    );
  });

  it('with another Influence (rater terms in JavaScript)', () => {
    const influence = (r: number) => (r > 0 ? Math.sqrt(r) : 0);
    fc.assert(
      fc.property(graph, fc.constantFrom(1, 2), (g, negativeWeight) => {
        const state = agrees(ratingEvents(g.ratings), { observers: observerIds(g.observers), ttlMax: g.ttlMax, decay: g.decay, negativeWeight, influence });
        expect(state.communities.get('c')!.compute().threads).toBe(1);
      }),
      { seed: 27, numRuns: 100 },
    );
  });

  it('on two threads (the main thread and the trust helper in lockstep)', () => {
    fc.assert(
      fc.property(graph, (g) => {
        const state = agrees(ratingEvents(g.ratings), { observers: observerIds(g.observers), ttlMax: g.ttlMax, decay: g.decay, threads: 2 });
        expect(state.communities.get('c')!.compute().threads).toBe(2);
      }),
      { seed: 28, numRuns: 50 },
    );
  });

  it('with the trust-flow defence', () => {
    const defence = fc.record({ minFlow: fc.constantFrom(0.05, 0.3, 1, 1.5), flowDamping: fc.constantFrom(0.2, 0.5, 0.8) });
    fc.assert(
      fc.property(graph, defence, (g, d) => {
        agrees(ratingEvents(g.ratings), { observers: observerIds(g.observers), ttlMax: g.ttlMax, decay: g.decay, ...d });
      }),
      { seed: 29, numRuns: 100 },
    );
  });
});
