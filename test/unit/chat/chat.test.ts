/** Chat reputation (docs/spec.md §6, §6.1): β per slot, the recipes, decay with broadcasts, floors and caps. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chat, type ChatState, type StandingEvent } from '../../../src/index.js';

const msg = (from: string, to: string[], time = 0): StandingEvent => ({ type: 'chat', time, community: 'c', from, to });

function run(events: readonly StandingEvent[], params: Record<string, unknown> = {}): ChatState {
  const state = chat.initialState(chat.params.resolve(params));
  for (const e of events) chat.evolve(state, e);
  return state;
}

const rep = (s: ChatState, player: string) => chat.explain(s, 'c', player)?.score;

describe('β(R, S) for every slot (recipe 3, where the gain is β alone)', () => {
  // γ0 = 0.004 for a sender not in the list; γ1 / 2^(pos − 1) = 0.003 / 2^(pos − 1) at position pos
  it('a new sender is worth γ0 and enters at the back (slot L, worth γ1/2^(L−1))', () => {
    const s = run([msg('a', ['r'])], { recipe: 3 });
    expect(rep(s, 'r')).toBeCloseTo(0.1 + 0.004, 15);
    const again = run([msg('a', ['r']), msg('a', ['r'])], { recipe: 3 });
    expect(rep(again, 'r')).toBeCloseTo(0.1 + 0.004 + 0.003 / 16, 15);
  });

  it('each newer sender moves the older ones one slot toward the front', () => {
    // a enters at slot 5; b, c, d, e each push a one slot forward: a ends at slot 1 (front)
    const senders = ['a', 'b', 'c', 'd', 'e'];
    for (let k = 0; k < senders.length; k++) {
      const events = [...senders.slice(0, k + 1).map((x) => msg(x, ['r'])), msg('a', ['r'])];
      const s = run(events, { recipe: 3 });
      const position = 5 - k; // a's position from the front before its second message
      const expected = 0.1 + 0.004 * (k + 1) + 0.003 / 2 ** (position - 1);
      expect(rep(s, 'r')).toBeCloseTo(expected, 15);
    }
  });

  it('the front sender leaves when a sixth one arrives, and is new again', () => {
    const events = ['a', 'b', 'c', 'd', 'e', 'f', 'a'].map((x) => msg(x, ['r']));
    expect(rep(run(events, { recipe: 3 }), 'r')).toBeCloseTo(0.1 + 7 * 0.004, 15);
  });

  it('a sender already in the list keeps its slot', () => {
    const s = run(['a', 'b', 'a', 'a'].map((x) => msg(x, ['r'])), { recipe: 3 });
    // a at slot 4 after b arrived: worth 0.003/8 twice, since a does not move
    expect(rep(s, 'r')).toBeCloseTo(0.1 + 2 * 0.004 + 2 * (0.003 / 8), 15);
    // slots 4 and 5 of 5: a next message from a would bring γ1/2^3, from b γ1/2^4
    expect(chat.explain(s, 'c', 'r')!.senders).toEqual([
      { player: 'a', beta: 0.003 / 8 },
      { player: 'b', beta: 0.003 / 16 },
    ]);
  });
});

describe('the recipes', () => {
  it('recipe 1: rep(R) += α·rep(S)/M + β', () => {
    const s = run([msg('s', ['a', 'b'])]);
    expect(rep(s, 'a')).toBeCloseTo(0.1 + (0.0001 * 0.1) / 2 + 0.002, 15);
  });

  it('recipe 2: rep(R) += β·rep(S)/M', () => {
    const s = run([msg('s', ['a', 'b'])], { recipe: 2 });
    expect(rep(s, 'a')).toBeCloseTo(0.1 + (0.004 * 0.1) / 2, 15);
  });

  it('uses the sender’s reputation from before the message, and caps at repMax', () => {
    const s = run([msg('s', ['r'])], { recipe: 3, gamma0: 0.95 });
    expect(rep(s, 'r')).toBe(1);
  });

  it('drops duplicate receivers and the sender: M counts the rest', () => {
    const s = run([msg('s', ['a', 'a', 's', 'b'])]);
    expect(rep(s, 'a')).toBeCloseTo(0.1 + (0.0001 * 0.1) / 2 + 0.002, 15);
    expect(rep(s, 's')).toBe(0.1);
    expect(chat.explain(s, 'c', 's')!.sent).toBe(2);
  });
});

describe('decay (concept IV)', () => {
  it('recipe 1: after every N = 20 messages sent, rep ← max((1 − τ)·rep, repMin)', () => {
    // γ0 = 0.5 lifts s to 0.6 + α·0.1 first, so that 3.5 % of it stays above repMin
    const s = run([msg('x', ['s']), ...Array.from({ length: 19 }, () => msg('s', ['r']))], { gamma0: 0.5 });
    const lifted = 0.1 + 0.0001 * 0.1 + 0.5;
    expect(rep(s, 's')).toBeCloseTo(lifted, 15); // 19 sent: no decay yet
    const t = run([msg('x', ['s']), ...Array.from({ length: 20 }, () => msg('s', ['r']))], { gamma0: 0.5 });
    expect(rep(t, 's')).toBeCloseTo(lifted * 0.965, 15);
  });

  it('a broadcast to M receivers counts M, and can cross several multiples of N at once', () => {
    const to = Array.from({ length: 45 }, (_, i) => `r${i}`);
    const s = run([...Array.from({ length: 10 }, (_, i) => msg(`f${i}`, ['s'])), msg('s', to)], { recipe: 3, delta: 0.001 });
    // 10 new senders lifted s by 10 × 0.004; 45 sent crosses 20 and 40: two decays of 0.001
    expect(rep(s, 's')).toBeCloseTo(0.1 + 10 * 0.004 - 2 * 0.001, 15);
  });

  it('recipe 3 subtracts δ and stops at repMin', () => {
    const s = run([msg('f', ['s']), ...Array.from({ length: 40 }, () => msg('s', ['r']))], { recipe: 3 });
    // 0.104 − 0.035 = 0.069 is below repMin: floored at 0.1, twice
    expect(rep(s, 's')).toBe(0.1);
  });

  it('recipes 1–2 never go below repMin', () => {
    const s = run(Array.from({ length: 200 }, () => msg('s', ['r'])));
    expect(rep(s, 's')).toBe(0.1);
  });
});

describe('parameters', () => {
  it('defaults follow the recipe', () => {
    expect(chat.params.resolve({})).toMatchObject({ recipe: 1, gamma0: 0.002, gamma1: 0.0016, alpha: 0.0001, L: 5, N: 20 });
    expect(chat.params.resolve({ recipe: '3' })).toMatchObject({ recipe: 3, gamma0: 0.004, gamma1: 0.003, delta: 0.035 });
    expect(chat.params.resolve({ recipe: 2, gamma0: 0.01 })).toMatchObject({ gamma0: 0.01, gamma1: 0.003 });
  });

  it('rejects bad values', () => {
    expect(() => chat.params.resolve({ recipe: 4 })).toThrow(/"recipe" must be 1, 2 or 3/);
    expect(() => chat.params.resolve({ L: 0 })).toThrow(/"L" must be an integer ≥ 1/);
    expect(() => chat.params.resolve({ tau: 2 })).toThrow(/"tau" must be ≤ 1/);
    expect(() => chat.params.resolve({ repMin: 2 })).toThrow(/repMin/);
    expect(() => chat.params.resolve({ speed: 1 })).toThrow(/not a parameter of chat/);
  });
});

describe('invariants (property)', () => {
  const message = fc.record({ from: fc.integer({ min: 0, max: 7 }), to: fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 6 }) });
  it('every reputation stays in [repMin, repMax] and receiving never lowers it', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 150 }), fc.constantFrom(1, 2, 3), (messages, recipe) => {
        const state = chat.initialState(chat.params.resolve({ recipe }));
        for (const m of messages) {
          const before = new Map(chat.rank(state).map((r) => [r.player, r.score]));
          chat.evolve(state, msg(`p${m.from}`, m.to.map((t) => `p${t}`)));
          for (const row of chat.rank(state)) {
            if (row.score < 0.1 - 1e-15 || row.score > 1) return false;
            const was = before.get(row.player);
            if (was !== undefined && row.player !== `p${m.from}` && row.score < was) return false;
          }
        }
        return true;
      }),
      { seed: 11, numRuns: 200 },
    );
  });
});
