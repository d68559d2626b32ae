/**
 * The chat scorer (through initialState, evolve and rank) against its formula
 * (src/scorers/chat/formula.ts, docs/spec.md §6, §6.1) on random message streams, for each recipe,
 * with and without the partner defence: the same reputations to the bit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chat, type StandingEvent } from '../../../src/index.js';
import { beta, chatReputations, enter, type ChatMessage } from '../../../src/scorers/chat/formula.js';

const PLAYERS = ['a', 'b', 'c', 'd', 'e', 'f'];

const message: fc.Arbitrary<ChatMessage> = fc.record({
  from: fc.constantFrom(...PLAYERS),
  // Up to four receivers, duplicates and the sender itself among them at times.
  to: fc.array(fc.constantFrom(...PLAYERS), { maxLength: 4 }),
});
const messages = fc.array(message, { minLength: 1, maxLength: 150, size: 'max' });
const params = fc.record({
  recipe: fc.constantFrom(1, 2, 3),
  L: fc.integer({ min: 1, max: 5 }),
  N: fc.integer({ min: 1, max: 12 }),
  partners: fc.constantFrom(1, 2, 4),
  repMax: fc.constantFrom(1, 0.15),
  // Large enough to reach the cap and the floor within a short stream.
  alpha: fc.constantFrom(0.0001, 0.05),
  tau: fc.constantFrom(0.035, 0.3),
});

describe('issue 26: chat equals its formula on random message streams', () => {
  it('every player’s reputation, messages sent and received, ranked by reputation, then id', () => {
    fc.assert(
      fc.property(messages, params, (list, overrides) => {
        const state = chat.initialState(chat.params.resolve(overrides));
        list.forEach((m, time) => {
          const event: StandingEvent = { type: 'chat', time, community: 'c', from: m.from, to: m.to };
          chat.evolve(state, event);
        });
        const expected = [...chatReputations(list, state.params)]
          .map(([player, s]) => ({ player, score: s.rep, sent: s.sent, received: s.received }))
          .sort((x, y) => y.score - x.score || (x.player < y.player ? -1 : 1));
        const rows = chat.rank(state).map(({ player, score, sent, received }) => ({ player, score, sent, received }));
        expect(rows).toEqual(expected);
      }),
      { seed: 26, numRuns: 200 },
    );
  });

  it('β by slot, front first: a sender who has just arrived is worth γ1/2^(L−1), one about to leave γ1 (docs/spec.md §6.1)', () => {
    const p = { gamma0: 0.004, gamma1: 0.003 };
    let list = new Array<string | null>(3).fill(null);
    expect(beta(list, 'x', p)).toBe(0.004);
    list = enter(list, 'x');
    expect(list).toEqual([null, null, 'x']);
    expect(beta(list, 'x', p)).toBe(0.003 / 4);
    list = enter(enter(list, 'y'), 'x'); // x keeps its slot
    expect(list).toEqual([null, 'x', 'y']);
    list = enter(list, 'z');
    expect(beta(list, 'x', p)).toBe(0.003);
    expect(enter(list, 'w')).toEqual(['y', 'z', 'w']); // x leaves from the front
  });
});
