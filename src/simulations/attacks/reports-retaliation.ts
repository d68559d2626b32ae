/**
 * reports/retaliation: the friends of a truly bad player mass-report the players who reported
 * him. They fill a match with each of those reporters in turn and all report that reporter after
 * it; moderators dismiss the brigade's first DISMISSED reports. Effect: the weight a further
 * report of the brigade carries per unit of its reporter's judgment, relative to an honest
 * reporter's (the mean accuracy factor of the brigade over that of the honest reporters; 1 when
 * verdicts are not used), and the reporters who end with more bad-player points than the weakest
 * truly bad player, and their mean place in the bad-player ranking before and after. Target: at
 * most 10 % with the recommended defences.
 */
import type { ReportEvent } from '../../events/types.js';
import { reports, type ReportsState } from '../../scorers/reports/scorer.js';
import { COMMUNITY, MINUTE, type HonestCommunity } from './community.js';
import { aboveWeakestBad, establish, placesAmongCommunity, reportEvents } from './reports-common.js';
import { replay } from './replay.js';
import { defenceSettings, attackRow } from './settings.js';
import type { AttackRow, AttackScenario, Curve } from './types.js';

const NAME = 'reports/retaliation';
/** Brigade reports the moderators dismiss, the first ones filed. */
export const DISMISSED = 10;

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
      const placesBefore = placesAmongCommunity(state, community);
      const before = reporters.reduce((sum, p) => sum + placesBefore.get(p)!, 0) / reporters.length;
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
          if (brigade.length === DISMISSED) {
            for (const dismissed of brigade) reports.evolve(state, { type: 'verdict', time: time + 40 * MINUTE, community: COMMUNITY, on: 'report', outcome: 'dismissed', report: dismissed.id! });
          }
        }
        time += 60 * MINUTE;
        const places = placesAmongCommunity(state, community);
        const retaliated = reporters.slice(0, j + 1);
        points.push([j + 1, retaliated.reduce((sum, p) => sum + places.get(p)!, 0) / retaliated.length]);
      });
      const ratio = brigadeWeight(state, community, friends);
      const cost = { accounts: friends.length, events: friends.length + reporters.length * (2 + friends.length), reports: brigade.length, sharedMatches: reporters.length };
      const effect = {
        measure: `weight of a further brigade report relative to an honest reporter's, after ${DISMISSED} are dismissed`,
        value: ratio,
        reportersAboveWeakestBad: aboveWeakestBad(state, community, reporters),
        meanPlaceBefore: before,
        meanPlaceAfter: points.at(-1)?.[1] ?? before,
        bad,
        reporters: reporters.length,
        dismissed: DISMISSED,
      };
      rows.push(attackRow(NAME, setting, cost, effect, { goal: '≤ 0.1', met: ratio <= 0.1 }));
      return { name: setting.name, points };
    });
    const curve: Curve = {
      attack: NAME,
      name: 'reports-retaliation',
      title: "A bad player's friends reporting those who reported him",
      xLabel: 'reporters retaliated against',
      yLabel: 'their mean place in the bad-player ranking',
      series,
    };
    return { rows, curves: [curve] };
  },
};


/**
 * The brigade's mean accuracy factor over the honest reporters' (both 1 when verdicts are not
 * used): what a further report of the brigade weighs, per unit of judgment, against an honest one.
 */
function brigadeWeight(state: ReportsState, community: HonestCommunity, friends: readonly string[]): number {
  const c = state.communities.get(COMMUNITY)!;
  const { accuracy } = c.compute();
  if (accuracy === undefined) return 1;
  const mean = (players: readonly string[]) => players.reduce((sum, p) => sum + accuracy[c.players.indexOf(p)]!, 0) / players.length;
  const honestReporters = community.players.filter((p) => !community.bad.has(p) && c.players.indexOf(p) >= 0 && c.made[c.players.indexOf(p)]! > 0);
  return mean(friends) / mean(honestReporters);
}
