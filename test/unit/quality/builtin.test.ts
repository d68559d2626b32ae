import { describe, expect, it } from 'vitest';
import { ParameterError } from '../../../src/errors.js';
import type { ActionEvent } from '../../../src/events/types.js';
import { BUILTIN_DOMAINS, clustering, forum, minecraft, recommendation } from '../../../src/quality/index.js';
import { QualityStage } from '../../../src/quality/stage.js';

function act(domain: string, payload: Record<string, unknown>, community = 'default'): ActionEvent {
  return { type: 'action', time: 0, community, player: 'ann', domain, ...payload };
}

describe('built-in quality domains', () => {
  it('lists the four domains once each, by name', () => {
    expect(BUILTIN_DOMAINS).toEqual([clustering, minecraft, forum, recommendation]);
    expect(BUILTIN_DOMAINS.map((d) => d.name)).toEqual(['clustering', 'minecraft', 'forum', 'recommendation']);
  });

  it('have frozen defaults that resolve to themselves', () => {
    for (const domain of BUILTIN_DOMAINS) {
      expect(Object.isFrozen(domain.options.defaults)).toBe(true);
      expect(domain.options.resolve()).toEqual(domain.options.defaults);
      expect(() => domain.options.resolve({ nope: 1 })).toThrow(ParameterError);
    }
  });

  it('run through the quality stage: deltas filled in, board set-up dropped, options applied', () => {
    const stage = new QualityStage({ domains: BUILTIN_DOMAINS, options: { minecraft: { rarity: 'stone=7' } } });
    expect(stage.resolve(act('clustering', { dot: 'a', color: 'A', x: 0, y: 0 }))).toBeNull();
    expect(stage.resolve(act('clustering', { dot: 'b', color: 'B', x: 3, y: 4 }))).toBeNull();
    // Q = 5 + 5 (ordered pairs); moving b to (0,8) gives 16: Δ = 6.
    const moved = stage.resolve(act('clustering', { dot: 'b', x: 0, y: 8 }));
    expect(moved).toMatchObject({ type: 'action', dot: 'b' });
    expect((moved as ActionEvent).delta).toBeCloseTo(6, 12);
    // stone weighs 7 by the option: 7·(2 − 1).
    expect(stage.resolve(act('minecraft', { op: 'break', block: 'stone', x: 0, y: 0, z: 0 }))).toMatchObject({ delta: 7 });
    expect(stage.resolve(act('forum', { op: 'post', post: 'p', text: 'hi' }))).toMatchObject({ delta: 200 });
    expect(stage.resolve(act('recommendation', { item: 'm', stars: 3 }))).toMatchObject({ delta: 0 });
    expect(stage.quality('default', 'minecraft')).toBe(7);
    // Communities are independent.
    expect(stage.quality('other', 'minecraft')).toBe(0);
  });
});
