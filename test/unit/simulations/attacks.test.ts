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
}, 120_000);

/** The headline figure of each row of `attack`, by defence (and ring size or alternate accounts where a scenario has several rows). */
function headlines(attack: string): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const row of result.attacks.filter((r) => r.attack === attack)) {
    const size = row.effect.ring ?? row.effect.alts;
    const value = row.effect.value;
    out[size === undefined ? row.defence : `${row.defence} ${String(size)}`] = value === null || Number.isInteger(value) ? value : Number(value.toFixed(6));
  }
  return out;
}

describe('the attack suite, seed 1, 400 players', () => {
  it('generates the same honest community', () => {
    expect(result.community).toMatchObject({ players: 400, trulyBad: 20, matches: 1010, events: 23_144 });
  });

  const REPORT_DEFENCES = ['published', 'shared match', 'one voice per match', 'one voice per reporter', 'judgment split', 'verdicts', 'recommended'];
  const byDefence = (values: readonly (number | null)[]) => Object.fromEntries(REPORT_DEFENCES.map((d, i) => [d, values[i]]));

  it('reports/outsiders: 100 outsiders lift an innocent 60 places; the shared-match window stops them', () => {
    expect(headlines('reports/outsiders')).toEqual(byDefence([60, 0, 0, 60, 51, 62, 0]));
  });

  it('reports/insiders: one shared match is enough unless every defence is on', () => {
    expect(headlines('reports/insiders')).toEqual(byDefence([1, 1, 1, 1, 1, 1, null]));
  });

  it('reports/retaliation: once 10 brigade reports are dismissed, the rest weigh 9 % of an honest report', () => {
    expect(headlines('reports/retaliation')).toEqual(byDefence([1, 1, 1, 1, 1, 0.089439, 0.089439]));
  });

  it('trust/sybil-ring: the published method accepts the whole ring through one attack edge, trust flow at most one fake per edge', () => {
    expect(headlines('trust/sybil-ring')).toEqual({ 'published 10': 10, 'published 100': 100, 'published 1000': 1000, 'recommended 10': 0.8, 'recommended 100': 0.5, 'recommended 1000': 1 });
  });

  it('chat/farming: the partner defence takes 22 and 21 times the messages', () => {
    expect(headlines('chat/farming')).toEqual({ 'published 1': 311, 'published 10': 18, 'recommended 1': 6891, 'recommended 10': 379 });
  });

  it('reliability/farming: one alternate account turns a red dropper green, unless its repeated finishes weigh less', () => {
    expect(headlines('reliability/farming')).toEqual({ published: 296, 'repeated opponents': null, 'short matches': null, recommended: null });
    const recommended = result.attacks.find((r) => r.attack === 'reliability/farming' && r.defence === 'recommended')!;
    expect(recommended.effect).toMatchObject({ startBand: 'red', bestBand: 'red' });
  });

  it('meets every target with the recommended defences', () => {
    const checked = result.attacks.filter((r) => r.goal !== null);
    expect(checked.map((r) => r.attack)).toEqual(['reports/outsiders', 'reports/insiders', 'reports/retaliation', 'trust/sybil-ring', 'trust/sybil-ring', 'trust/sybil-ring', 'chat/farming', 'chat/farming', 'reliability/farming']);
    for (const row of checked) expect({ attack: row.attack, defence: row.defence, met: row.met }).toEqual({ attack: row.attack, defence: 'recommended', met: true });
  });
});
