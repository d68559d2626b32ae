/** The chat partner defence (docs/chat.md#defences) on hand-worked cases; the arithmetic is in the comments. */
import { describe, expect, it } from 'vitest';
import { chat, ParameterError, type StandingEvent } from '../../../src/index.js';

const message = (from: string, to: string[]): StandingEvent => ({ type: 'chat', time: 0, community: 'c', from, to });

function reps(events: readonly StandingEvent[], params: Record<string, unknown> = {}): Record<string, number> {
  const state = chat.initialState(chat.params.resolve(params));
  for (const e of events) chat.evolve(state, e);
  return Object.fromEntries(chat.rank(state).map((r) => [r.player, r.score]));
}

describe('partners: a message counts min(1, d/partners), d the distinct players its sender has messaged', () => {
  // Recipe 1: gain = α·rep(S)/M + β with α = 0.0001, rep(S) = 0.1; β = γ0 = 0.002 for a new sender,
  // γ1/2^(L−1) = 0.0016/16 = 0.0001 for the sender just entered at the back of a list of L = 5.
  it('weighs a sender by the people it talks with', () => {
    const r = reps([message('s', ['r']), message('s', ['t']), message('s', ['r'])], { partners: 2 });
    // 1st: d = 1, weight 1/2: rep(r) = 0.1 + ½·0.00201. 2nd: d = 2: rep(t) = 0.1 + 0.00201.
    // 3rd: r already counted, d = 2: rep(r) += 0.00001 + 0.0001.
    expect(r.r).toBeCloseTo(0.1 + 0.00201 / 2 + 0.00011, 15);
    expect(r.t).toBeCloseTo(0.1 + 0.00201, 15);
    // Published: rep(r) = 0.1 + 0.00201 + 0.00011
    expect(reps([message('s', ['r']), message('s', ['t']), message('s', ['r'])]).r).toBeCloseTo(0.1 + 0.00201 + 0.00011, 15);
  });

  it('counts every receiver of a message to several', () => {
    // d = 3 of 4: each receiver gains ¾·(0.0001·0.1/3 + 0.002)
    const r = reps([message('s', ['a', 'b', 'c'])], { partners: 4 });
    expect(r.a).toBeCloseTo(0.1 + 0.75 * (0.00001 / 3 + 0.002), 15);
  });

  it('leaves an alternate account that messages only its main at 1/partners', () => {
    const farm = Array.from({ length: 10 }, () => message('alt', ['main']));
    const published = reps(farm).main! - 0.1;
    const defended = reps(farm, { partners: 20 }).main! - 0.1;
    expect(defended / published).toBeCloseTo(1 / 20, 12);
  });

  it('is off with partners = 1 (the default)', () => {
    expect(chat.params.resolve({ partners: 1 })).toEqual(chat.params.resolve({}));
    expect(() => chat.params.resolve({ partners: 0 })).toThrow(/partners/);
    // At most 1000: each player keeps room for that many partners.
    expect(chat.params.resolve({ partners: 1000 }).partners).toBe(1000);
    expect(() => chat.params.resolve({ partners: 1001 })).toThrow(ParameterError);
    expect(() => chat.params.resolve({ partners: 1e9 })).toThrow('must be an integer from 1 to 1000, got 1000000000');
  });
});
