/** The trust-flow defence (docs/trust.md#defences) on hand-worked cases; the arithmetic is in the comments. */
import { describe, expect, it } from 'vitest';
import { ParameterError, trust, trustView, type StandingEvent } from '../../../src/index.js';
import { trustFlow } from '../../../src/scorers/trust/flow.js';

const rating = (from: string, to: string, value: number): StandingEvent => ({ type: 'rating', time: 0, community: 'c', from, to, value });
// o (the observer) rates a +1 and b +0.5; a rates c +1; c rates d +1; a rates e −1.
const GRAPH = [rating('o', 'a', 1), rating('o', 'b', 0.5), rating('a', 'c', 1), rating('c', 'd', 1), rating('a', 'e', -1)];

function view(params: Record<string, unknown>, events: readonly StandingEvent[] = GRAPH): Map<string, number> {
  const state = trust.initialState(trust.params.resolve({ observers: 'o', decay: 'constant', ...params }));
  for (const e of events) trust.evolve(state, e);
  return trustView(state, 'c', ['o']);
}

describe('trust flow', () => {
  it('passes on half of what reaches a player, split over its positive ratings, normalized by the mean of the rated', () => {
    // Positive out-weights: o 1.5, a 1 (its −1 passes nothing), c 1. With damping ½:
    // F_a = ½·1·1/1.5 = 1/3, F_b = ½·0.5/1.5 = 1/6, F_c = ½·(1/3)·1/1 = 1/6, F_d = ½·(1/6) = 1/12, F_e = 0.
    // Mean over the rated non-observers a, b, c, d, e: (1/3 + 1/6 + 1/6 + 1/12 + 0)/5 = 3/20.
    const index = { o: 0, a: 1, b: 2, c: 3, d: 4, e: 5 };
    const csr = { nodes: 6, offsets: Int32Array.from([0, 0, 1, 2, 3, 4, 5]), sources: Int32Array.from([0, 0, 1, 3, 1]), weights: Float64Array.from([1, 0.5, 1, 1, -1]) };
    const flow = trustFlow(csr, [index.o], 0.5);
    const mean = 3 / 20;
    expect(flow[index.a]).toBeCloseTo(1 / 3 / mean, 12);
    expect(flow[index.b]).toBeCloseTo(1 / 6 / mean, 12);
    expect(flow[index.c]).toBeCloseTo(1 / 6 / mean, 12);
    expect(flow[index.d]).toBeCloseTo(1 / 12 / mean, 12);
    expect(flow[index.e]).toBe(0);
  });

  it('takes positive reputation from a player below minFlow, and leaves negative reputations alone', () => {
    // Published: a = 1, b = 0.5, c = 1, d = 1, e = −1. Normalized flows: a 20/9, b 10/9, c 10/9, d 5/9, e 0.
    expect(Object.fromEntries(view({}))).toEqual({ o: 1, a: 1, b: 0.5, c: 1, d: 1, e: -1 });
    expect(Object.fromEntries(view({ minFlow: 0.6, flowDamping: 0.5 }))).toEqual({ o: 1, a: 1, b: 0.5, c: 1, d: 0, e: -1 });
    expect(Object.fromEntries(view({ minFlow: 1.2, flowDamping: 0.5 }))).toEqual({ o: 1, a: 1, b: 0, c: 0, d: 0, e: -1 });
  });

  it('lets into a ring no more than its attack edge carries, however dense the ring', () => {
    // 30 fakes rating each other +1, attached by d's +1 on fake-0: published, every fake is trusted.
    const ring: StandingEvent[] = [rating('d', 'fake-0', 1)];
    for (let i = 0; i < 30; i++) for (let j = 0; j < 30; j++) if (i !== j) ring.push(rating(`fake-${i}`, `fake-${j}`, 1));
    const positive = (v: Map<string, number>) => [...v].filter(([p, r]) => p.startsWith('fake-') && r > 0).length;
    expect(positive(view({}, [...GRAPH, ...ring]))).toBe(30);
    expect(positive(view({ minFlow: 0.02, flowDamping: 0.3 }, [...GRAPH, ...ring]))).toBeLessThanOrEqual(1);
  });

  it('checks its parameters', () => {
    expect(() => trust.params.resolve({ observers: 'o', flowDamping: 1 })).toThrow(ParameterError);
    expect(() => trust.params.resolve({ observers: 'o', minFlow: -1 })).toThrow(/minFlow/);
  });
});

describe('trust explain with the trust-flow defence', () => {
  const explainOf = (params: Record<string, unknown>, player: string) => {
    const state = trust.initialState(trust.params.resolve({ observers: 'o', decay: 'constant', ...params }));
    for (const e of GRAPH) trust.evolve(state, e);
    return trust.explain(state, 'c', player)!;
  };

  it("gives the raters' reputations the iteration weighed, and flags the ones the flow cut", () => {
    // minFlow 1.2: flows a 20/9, b 10/9, c 10/9, d 5/9 (above). c and d are cut to 0 after the iteration,
    // which had c = 1 and d = 1. d's only rater is c: its share is all the weight, from c's pre-cut 1.
    const d = explainOf({ minFlow: 1.2, flowDamping: 0.5 }, 'd');
    expect(d.score).toBe(0);
    expect(d.cut?.reputation).toBe(1);
    expect(d.cut?.flow).toBeCloseTo(5 / 9, 12);
    expect(d.ratings).toHaveLength(1);
    expect(d.ratings[0]).toMatchObject({ rater: 'c', value: 1, raterReputation: 1, share: 1 });
    expect(d.ratings[0]!.cut?.reputation).toBe(1);
    expect(d.ratings[0]!.cut?.flow).toBeCloseTo(10 / 9, 12);
    // a is above minFlow: not cut, and its explanation carries no cut.
    const c = explainOf({ minFlow: 1.2, flowDamping: 0.5 }, 'c');
    expect(c.ratings[0]).toEqual({ rater: 'a', value: 1, time: c.ratings[0]!.time, ttl: c.ratings[0]!.ttl, decay: 1, raterReputation: 1, share: 1 });
  });

  it('explains exactly as the published method with the defence off', () => {
    const d = explainOf({}, 'd');
    expect(d.score).toBe(1);
    expect('cut' in d).toBe(false);
    expect(d.ratings.map((r) => Object.keys(r).sort())).toEqual([['decay', 'rater', 'raterReputation', 'share', 'time', 'ttl', 'value']]);
  });
});
