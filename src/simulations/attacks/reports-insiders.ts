/**
 * reports/insiders: established accounts queue into matches with an innocent player, fill the
 * match's other places, and all report it after each match. Effect: the shared matches needed
 * before the innocent has more bad-player points than the weakest truly bad player. Target: at
 * least 5 with the recommended defences.
 */
import { reports } from '../../scorers/reports/scorer.js';
import { COMMUNITY, MINUTE } from './community.js';
import { aboveWeakestBad, establish, innocentTarget, placeAmongCommunity, reportEvents } from './reports-common.js';
import { replay, scenarioRng } from './replay.js';
import { defenceSettings, isRecommended } from './settings.js';
import type { AttackRow, AttackScenario, Curve } from './types.js';

const NAME = 'reports/insiders';
/** Shared matches tried before the attack is called a failure. */
export const MAX_SHARED_MATCHES = 30;

export const reportsInsiders: AttackScenario = {
  name: NAME,
  description: 'established accounts fill matches with an innocent player and all report it after each match',
  scorer: 'reports',
  run({ community, seed }) {
    const target = innocentTarget(community, scenarioRng(seed, NAME));
    const events = reportEvents(community);
    const perMatch = community.matchSize - 1;
    const rows: AttackRow[] = [];
    const series = defenceSettings('reports').map((setting) => {
      const state = replay(reports, setting.params, events);
      const points: [number, number][] = [[0, placeAmongCommunity(state, community, target)]];
      let time = community.end + 60 * MINUTE;
      let lifted: number | null = null;
      let accounts = 0;
      let sent = 0;
      for (let m = 1; m <= MAX_SHARED_MATCHES && lifted === null; m++) {
        const insiders = Array.from({ length: perMatch }, () => `insider-${++accounts}`);
        for (const insider of insiders) reports.evolve(state, establish(insider, community.medianGames, time));
        const match = `insiders-${m}`;
        reports.evolve(state, { type: 'match.start', time, community: COMMUNITY, match, players: [target, ...insiders] });
        reports.evolve(state, { type: 'match.end', time: time + 30 * MINUTE, community: COMMUNITY, match });
        for (const insider of insiders) reports.evolve(state, { type: 'report', time: time + 31 * MINUTE, community: COMMUNITY, from: insider, to: target });
        sent += 2 * perMatch + 2;
        time += 60 * MINUTE;
        points.push([m, placeAmongCommunity(state, community, target)]);
        if (aboveWeakestBad(state, community, [target]) === 1) lifted = m;
      }
      const recommended = isRecommended(setting);
      rows.push({
        attack: NAME,
        defence: setting.name,
        params: setting.params,
        cost: { accounts, events: sent, reports: accounts, sharedMatches: points.length - 1 },
        effect: { measure: 'shared matches until the innocent outranks the weakest truly bad player', value: lifted, target, insidersPerMatch: perMatch, triedUpTo: MAX_SHARED_MATCHES },
        goal: recommended ? '≥ 5 shared matches' : null,
        met: recommended ? lifted === null || lifted >= 5 : null,
      });
      return { name: setting.name, points };
    });
    const curve: Curve = {
      attack: NAME,
      name: 'reports-insiders',
      title: 'Insiders reporting an innocent player after each shared match',
      xLabel: 'shared matches',
      yLabel: "innocent's place in the bad-player ranking",
      series,
    };
    return { rows, curves: [curve] };
  },
};

