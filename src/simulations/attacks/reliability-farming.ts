/**
 * reliability/farming: a habitual dropper (the truly bad player in the red band with the most
 * scored events) finishes one-minute matches against an alternate account. Effect: the matches
 * until its band turns green. Target: with the recommended defences it never rises above orange.
 */
import type { StandingEvent } from '../../events/types.js';
import { reliability, type Band, type ReliabilityState } from '../../scorers/reliability/scorer.js';
import { COMMUNITY, MINUTE, type HonestCommunity } from './community.js';
import { replay } from './replay.js';
import { defenceSettings, attackRow } from './settings.js';
import type { AttackRow, AttackScenario, Curve } from './types.js';

const NAME = 'reliability/farming';
/** Farming matches played before the attack is called a failure. */
export const MAX_FARM_MATCHES = 1000;
const BANDS: readonly Band[] = ['red', 'orange', 'yellow', 'green'];

export function matchEvents(community: HonestCommunity): StandingEvent[] {
  return community.events.filter((e) => reliability.uses.includes(e.type));
}

/** The truly bad player in the red band with the most scored events under the published method. */
export function habitualDropper(community: HonestCommunity): string {
  const rows = reliability.rank(replay(reliability, {}, matchEvents(community)), { community: COMMUNITY });
  const red = rows.filter((r) => r.band === 'red' && community.bad.has(r.player));
  return red.sort((a, b) => b.confidence - a.confidence || (a.player < b.player ? -1 : 1))[0]!.player;
}

function standing(state: ReliabilityState, player: string): { score: number; band: Band } {
  const e = reliability.explain(state, COMMUNITY, player)!;
  return { score: e.score, band: e.band };
}

export const reliabilityFarming: AttackScenario = {
  name: NAME,
  description: 'a habitual dropper finishes one-minute matches against an alternate account',
  scorer: 'reliability',
  run({ community }) {
    const events = matchEvents(community);
    const dropper = habitualDropper(community);
    const rows: AttackRow[] = [];
    const series = defenceSettings('reliability').map((setting) => {
      const state = replay(reliability, setting.params, events);
      const start = standing(state, dropper);
      const points: [number, number][] = [[0, start.score]];
      const firstIn = new Map<Band, number>();
      let best = start.band;
      let time = community.end + 60 * MINUTE;
      let m = 0;
      for (; m < MAX_FARM_MATCHES && !firstIn.has('green'); m++) {
        const match = `farm-${m + 1}`;
        reliability.evolve(state, { type: 'match.start', time, community: COMMUNITY, match, players: [dropper, 'alt-1'] });
        reliability.evolve(state, { type: 'match.end', time: time + MINUTE, community: COMMUNITY, match });
        time += 3 * MINUTE;
        const now = standing(state, dropper);
        if (!firstIn.has(now.band)) firstIn.set(now.band, m + 1);
        if (BANDS.indexOf(now.band) > BANDS.indexOf(best)) best = now.band;
        if ((m + 1) % 5 === 0) points.push([m + 1, now.score]);
      }
      const cost = { accounts: 1, events: 2 * m, matches: m };
      const effect = {
        measure: "farmed matches until the dropper's band turns green",
        value: firstIn.get('green') ?? null,
        dropper,
        startBand: start.band,
        startReliability: start.score,
        bestBand: best,
        matchesToYellow: firstIn.get('yellow') ?? null,
        triedUpTo: MAX_FARM_MATCHES,
      };
      rows.push(attackRow(NAME, setting, cost, effect, { goal: 'never above orange', met: BANDS.indexOf(best) <= BANDS.indexOf('orange') }));
      return { name: setting.name, points };
    });
    const curve: Curve = {
      attack: NAME,
      name: 'reliability-farming',
      title: 'A habitual dropper farming finishes against an alternate account',
      xLabel: 'farmed matches',
      yLabel: "dropper's reliability",
      series,
    };
    return { rows, curves: [curve] };
  },
};
