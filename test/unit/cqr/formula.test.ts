/**
 * The cqr scorer (its O(1) store, through initialState, evolve and rank) against its formula
 * (src/scorers/cqr/formula.ts, docs/spec.md §2.1) on random communities: several players whose
 * actions interleave. properties.test.ts compares one player's score and window in more depth.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cqr, type StandingEvent } from '../../../src/index.js';
import { readCqr } from '../../../src/scorers/cqr/formula.js';

const RUNS = { seed: 2026, numRuns: 150 };
const PLAYERS = ['a', 'b', 'c', 'd', 'e'];

const window = fc.oneof(fc.integer({ min: 1, max: 10 }), fc.constant(Infinity));
const params = window.chain((T) =>
  fc.record({
    T: fc.constant(T),
    x: fc.integer({ min: 0, max: 20 }),
    k: T === Infinity ? fc.oneof(fc.integer({ min: 1, max: 10 }), fc.constant(Infinity)) : fc.integer({ min: 1, max: T }),
  }),
);
/** Actions as (player, delta) in arrival order. */
const actions = fc.array(fc.tuple(fc.constantFrom(...PLAYERS), fc.integer({ min: -40, max: 40 })), { maxLength: 120, size: 'max' });

describe('issue 26: cqr equals its formula', () => {
  it('every ranked score is readCqr over that player’s deltas, and the ranking is by score, then id', () => {
    fc.assert(
      fc.property(params, actions, (p, list) => {
        const state = cqr.initialState(cqr.params.resolve(p));
        const deltas = new Map<string, number[]>();
        list.forEach(([player, delta], time) => {
          const event: StandingEvent = { type: 'action', time, community: 'c', player, delta };
          cqr.evolve(state, event);
          deltas.set(player, [...(deltas.get(player) ?? []), delta]);
        });
        const expected = [...deltas].map(([player, ds]) => ({ player, score: readCqr(p, ds).score }));
        expected.sort((a, b) => b.score - a.score || (a.player < b.player ? -1 : 1));
        const rows = cqr.rank(state).map((row) => ({ player: row.player, score: row.score }));
        expect(rows).toEqual(expected);
      }),
      RUNS,
    );
  });
});
