/**
 * trust/sybil-ring: k fake accounts rate each other +1, and a honest players who rate a fake +1
 * (attack edges, each to a different fake) attach the ring to the honest graph. Effect: the fakes
 * with positive reputation as the observers (the community's most trusted honest players) see
 * it, per attack edge, the most over 1 to 10 edges. Target: at most 1 for rings of 10, 100 and
 * 1,000. The endorsers are random honest players the observers trust; the same attack through
 * endorsers from the most trusted tenth of the honest players is measured beside it.
 */
import type { RatingEvent } from '../../events/types.js';
import { trust, trustView, type TrustState } from '../../scorers/trust/scorer.js';
import { mostTrusted } from '../trust-convergence.js';
import { shuffled } from '../../util/random.js';
import { COMMUNITY, MINUTE, type HonestCommunity } from './community.js';
import { replay, scenarioRng } from './replay.js';
import { defenceSettings, attackRow } from './settings.js';
import type { AttackRow, AttackScenario, Curve } from './types.js';

const NAME = 'trust/sybil-ring';
export const RING_SIZES = [10, 100, 1000] as const;
export const ATTACK_EDGES = [1, 2, 5, 10] as const;
/** Observers: the honest players with the most positive ratings. */
export const OBSERVER_COUNT = 10;

export function ratingEvents(community: HonestCommunity): RatingEvent[] {
  return community.events.filter((e): e is RatingEvent => e.type === 'rating');
}

/** The observers of the scenario: the honest players most often rated up. */
export function communityObservers(community: HonestCommunity): string[] {
  return mostTrusted(
    ratingEvents(community).filter((e) => !community.bad.has(e.to)),
    OBSERVER_COUNT,
  );
}

function fake(i: number): string {
  return `fake-${i + 1}`;
}

/** The fakes with positive reputation in the observers' view. */
function accepted(state: TrustState, observers: readonly string[], k: number): number {
  const view = trustView(state, COMMUNITY, observers);
  let count = 0;
  for (let i = 0; i < k; i++) if ((view.get(fake(i)) ?? 0) > 0) count++;
  return count;
}

/**
 * The endorsers of the scenario: honest players (not observers) the observers trust under the
 * published method, in a seeded order, as many as the most attack edges; with the trust they
 * have and every such candidate.
 */
export function ringEndorsers(community: HonestCommunity, seed: number): { published: Map<string, number>; candidates: string[]; endorsers: string[] } {
  const observers = communityObservers(community);
  const published = trustView(replay(trust, { observers }, ratingEvents(community)), COMMUNITY, observers);
  const candidates = community.players.filter((p) => !community.bad.has(p) && !observers.includes(p) && (published.get(p) ?? 0) > 0);
  return { published, candidates, endorsers: shuffled(candidates, scenarioRng(seed, NAME)).slice(0, ATTACK_EDGES.at(-1)) };
}

export const trustSybilRing: AttackScenario = {
  name: NAME,
  description: 'k fake accounts rate each other +1; honest players who rate a fake +1 attach the ring',
  scorer: 'trust',
  run({ community, seed }) {
    const events = ratingEvents(community);
    const observers = communityObservers(community);
    const time = community.end + MINUTE;
    // Endorsers: honest players (not observers) the observers trust under the published method, in a seeded order;
    // and the same from the most trusted tenth of them.
    const { published, candidates, endorsers } = ringEndorsers(community, seed);
    const mostTrustedTenth = [...candidates].sort((a, b) => published.get(b)! - published.get(a)! || (a < b ? -1 : 1)).slice(0, Math.ceil(candidates.length / 10));
    const trustedEndorsers = shuffled(mostTrustedTenth, scenarioRng(seed, `${NAME} trusted`)).slice(0, ATTACK_EDGES.at(-1));
    const rows: AttackRow[] = [];
    const series: { name: string; points: [number, number][] }[] = [];
    for (const setting of defenceSettings('trust')) {
      const params = { ...setting.params, observers };
      for (const k of RING_SIZES) {
        const points = ring(params, k, endorsers);
        const trusted = ring(params, k, trustedEndorsers);
        const worst = Math.max(...points.map(([, perEdge]) => perEdge));
        const edges = points.at(-1)![0];
        const cost = { accounts: k, events: k * (k - 1) + edges, ratings: k * (k - 1), attackEdges: edges };
        const effect = {
          measure: 'fakes with positive reputation per attack edge (the most over 1 to 10 edges)',
          value: worst,
          ring: k,
          perAttackEdges: Object.fromEntries(points.map(([a, perEdge]) => [String(a), perEdge])),
          withTrustedEndorsers: Math.max(...trusted.map(([, perEdge]) => perEdge)),
          withTrustedEndorsersPerAttackEdges: Object.fromEntries(trusted.map(([a, perEdge]) => [String(a), perEdge])),
        };
        rows.push(attackRow(NAME, setting, cost, effect, { goal: '≤ 1 accepted fake per attack edge', met: worst <= 1 }));
        if (k === RING_SIZES.at(-1)) series.push({ name: setting.name, points: points.map(([a, perEdge]) => [a, Math.log10(1 + a * perEdge)]) });
      }
    }
    /** Accepted fakes per attack edge after 1, 2, 5 and 10 edges from `by` to a ring of k. */
    function ring(params: Readonly<Record<string, unknown>>, k: number, by: readonly string[]): [number, number][] {
      const state = replay(trust, params, events);
      for (let i = 0; i < k; i++) {
        for (let j = 0; j < k; j++) if (i !== j) trust.evolve(state, { type: 'rating', time, community: COMMUNITY, from: fake(i), to: fake(j), value: 1 });
      }
      const points: [number, number][] = [];
      let edges = 0;
      for (const target of ATTACK_EDGES) {
        if (target > k || target > by.length) break;
        for (; edges < target; edges++) trust.evolve(state, { type: 'rating', time, community: COMMUNITY, from: by[edges]!, to: fake(edges), value: 1 });
        points.push([edges, accepted(state, observers, k) / edges]);
      }
      return points;
    }
    const curve: Curve = {
      attack: NAME,
      name: 'trust-sybil-ring',
      title: `A ring of ${RING_SIZES.at(-1)!.toLocaleString('en-US')} fakes attached by random honest endorsers`,
      xLabel: 'attack edges',
      yLabel: 'log10(1 + fakes with positive reputation)',
      series,
    };
    return { rows, curves: [curve] };
  },
};
