/**
 * reports/outsiders: N established accounts that never shared a match with an innocent player
 * report it. Effect: the places the innocent rises in the bad-player ranking (honest players it
 * overtakes). Target: 100 outsiders move it by 0 places.
 */
import { reports } from '../../scorers/reports/scorer.js';
import { COMMUNITY, MINUTE } from './community.js';
import { establish, innocentTarget, placeAmongCommunity, reportEvents } from './reports-common.js';
import { replay, scenarioRng } from './replay.js';
import { defenceSettings, attackRow } from './settings.js';
import type { AttackRow, AttackScenario, Curve } from './types.js';

const NAME = 'reports/outsiders';
export const OUTSIDER_COUNTS = [1, 2, 5, 10, 20, 50, 100] as const;

export const reportsOutsiders: AttackScenario = {
  name: NAME,
  description: 'N established accounts that never shared a match with an innocent player report it',
  scorer: 'reports',
  run({ community, seed }) {
    const target = innocentTarget(community, scenarioRng(seed, NAME));
    const events = reportEvents(community);
    const rows: AttackRow[] = [];
    const series = defenceSettings('reports').map((setting) => {
      const state = replay(reports, setting.params, events);
      const before = placeAmongCommunity(state, community, target);
      const points: [number, number][] = [[0, 0]];
      let time = community.end + 60 * MINUTE;
      let outsiders = 0;
      for (const count of OUTSIDER_COUNTS) {
        for (; outsiders < count; outsiders++) {
          const account = `outsider-${outsiders + 1}`;
          reports.evolve(state, establish(account, community.medianGames, time));
          reports.evolve(state, { type: 'report', time: (time += MINUTE), community: COMMUNITY, from: account, to: target });
        }
        points.push([count, before - placeAmongCommunity(state, community, target)]);
      }
      const places = points.at(-1)![1];
      const cost = { accounts: outsiders, events: 2 * outsiders, reports: outsiders, sharedMatches: 0 };
      const effect = { measure: 'places the innocent rises in the bad-player ranking', value: places, target, placeBefore: before };
      rows.push(attackRow(NAME, setting, cost, effect, { goal: '0 places', met: places === 0 }));
      return { name: setting.name, points };
    });
    const curve: Curve = {
      attack: NAME,
      name: 'reports-outsiders',
      title: 'Outsiders reporting an innocent player',
      xLabel: 'outsider accounts',
      yLabel: 'places risen in the bad-player ranking',
      series,
    };
    return { rows, curves: [curve] };
  },
};
