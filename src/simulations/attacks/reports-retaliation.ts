/**
 * reports/retaliation: the friends of a truly bad player mass-report the players who reported
 * him. They fill a match with each of those reporters in turn and all report that reporter after
 * it. Effect: the reporters who end with more bad-player points than the weakest truly bad player.
 */
import type { ReportEvent } from '../../events/types.js';
import { reports } from '../../scorers/reports/scorer.js';
import { COMMUNITY, MINUTE, type HonestCommunity } from './community.js';
import { aboveWeakestBad, establish, reportEvents } from './reports-common.js';
import { replay } from './replay.js';
import { defenceSettings } from './settings.js';
import type { AttackRow, AttackScenario, Curve } from './types.js';

const NAME = 'reports/retaliation';

/** The truly bad player reported by the most distinct players, and those players in order of their first report. */
export function mostReportedBad(community: HonestCommunity): { bad: string; reporters: string[] } {
  const reporters = new Map<string, string[]>();
  for (const e of community.events) {
    if (e.type !== 'report' || !community.bad.has(e.to) || community.bad.has(e.from)) continue;
    const list = reporters.get(e.to) ?? reporters.set(e.to, []).get(e.to)!;
    if (!list.includes(e.from)) list.push(e.from);
  }
  const [bad, list] = [...reporters].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))[0]!;
  return { bad, reporters: list };
}

export const reportsRetaliation: AttackScenario = {
  name: NAME,
  description: "a truly bad player's friends fill a match with each player who reported him and all report that player",
  scorer: 'reports',
  run({ community }) {
    const { bad, reporters } = mostReportedBad(community);
    const friends = Array.from({ length: community.matchSize - 1 }, (_, i) => `friend-${i + 1}`);
    const events = reportEvents(community);
    const rows: AttackRow[] = [];
    const series = defenceSettings('reports').map((setting) => {
      const state = replay(reports, setting.params, events);
      let time = community.end + 60 * MINUTE;
      for (const friend of friends) reports.evolve(state, establish(friend, community.medianGames, time));
      const brigade: ReportEvent[] = [];
      const points: [number, number][] = [];
      reporters.forEach((victim, j) => {
        const match = `retaliation-${j + 1}`;
        reports.evolve(state, { type: 'match.start', time, community: COMMUNITY, match, players: [victim, ...friends] });
        reports.evolve(state, { type: 'match.end', time: time + 30 * MINUTE, community: COMMUNITY, match });
        for (const friend of friends) {
          const report: ReportEvent = { type: 'report', time: time + 31 * MINUTE, community: COMMUNITY, id: `retaliation-${j + 1}-${friend}`, from: friend, to: victim };
          reports.evolve(state, report);
          brigade.push(report);
        }
        time += 60 * MINUTE;
        points.push([j + 1, aboveWeakestBad(state, community, reporters.slice(0, j + 1))]);
      });
      const value = points.at(-1)?.[1] ?? 0;
      rows.push({
        attack: NAME,
        defence: setting.name,
        params: setting.params,
        cost: { accounts: friends.length, events: friends.length + reporters.length * (2 + friends.length), reports: brigade.length, sharedMatches: reporters.length },
        effect: { measure: 'retaliated reporters with more bad-player points than the weakest truly bad player', value, bad, reporters: reporters.length },
        goal: null,
        met: null,
      });
      return { name: setting.name, points };
    });
    const curve: Curve = {
      attack: NAME,
      name: 'reports-retaliation',
      title: "A bad player's friends reporting those who reported him",
      xLabel: 'reporters retaliated against',
      yLabel: 'of them above the weakest truly bad player',
      series,
    };
    return { rows, curves: [curve] };
  },
};

