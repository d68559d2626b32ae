/**
 * The attack suite on a small seeded community (400 players): each scenario's headline figure is
 * pinned for seed 1 under every defence setting, and every target holds with the recommended
 * defences. A change of these figures is a change of the scorers or of the suite, never noise.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runAttackSuite, suiteCommunity, type AttackSuiteResult } from '../../../src/simulations/attacks/suite.js';

let result: AttackSuiteResult;

beforeAll(() => {
  const options = { seed: 1, players: 400 };
  result = runAttackSuite(options, suiteCommunity(options));
});

/** The headline figure of each row of `attack`, by defence (and ring size or alternate accounts where a scenario has several rows). */
function headlines(attack: string): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const row of result.attacks.filter((r) => r.attack === attack)) {
    const size = row.effect.ring ?? row.effect.alts;
    out[size === undefined ? row.defence : `${row.defence} ${String(size)}`] = row.effect.value;
  }
  return out;
}

describe('the attack suite, seed 1, 400 players', () => {
  it('generates the same honest community', () => {
    expect(result.community).toMatchObject({ players: 400, trulyBad: 20, matches: 996, events: 22_457 });
  });

  it('reports/outsiders: 100 outsiders lift an innocent to the top of the published ranking', () => {
    expect(headlines('reports/outsiders')).toEqual({ published: 330 });
  });

  it('reports/insiders: one shared match is enough under the published method', () => {
    expect(headlines('reports/insiders')).toEqual({ published: 1 });
  });

  it('reports/retaliation', () => {
    expect(headlines('reports/retaliation')).toEqual({ published: 0 });
  });

  it('trust/sybil-ring: the published method accepts the whole ring through one attack edge', () => {
    expect(headlines('trust/sybil-ring')).toEqual({ 'published 10': 10, 'published 100': 100, 'published 1000': 1000 });
  });

  it('chat/farming', () => {
    expect(headlines('chat/farming')).toEqual({ 'published 1': 270, 'published 10': 16 });
  });

  it('reliability/farming: one alternate account turns a red dropper green', () => {
    expect(headlines('reliability/farming')).toEqual({ published: 262 });
  });
});
