/**
 * reports/insiders: a group of established accounts queues into matches with an innocent player,
 * fills the match's other places, and all report it after each match. Effect: the shared matches
 * needed before the innocent has more bad-player points than the weakest truly bad player
 * (null: not within MAX_SHARED_MATCHES). Target: at least 5 with the recommended defences. The
 * same attack with fresh established accounts for every match is measured beside it.
 */
import type { StandingEvent } from '../../events/types.js';
import { reports, type ReportsState } from '../../scorers/reports/scorer.js';
import { COMMUNITY, MINUTE, type HonestCommunity } from './community.js';
import { aboveWeakestBad, establish, innocentTarget, placeAmongCommunity, reportEvents } from './reports-common.js';
import { replay, scenarioRng } from './replay.js';
import { defenceSettings, attackRow } from './settings.js';
import type { AttackRow, AttackScenario, Curve } from './types.js';

const NAME = 'reports/insiders';
/** Shared matches tried before the attack is called a failure. */
export const MAX_SHARED_MATCHES = 30;

interface Run {
  /** The first number of shared matches that lifts the innocent, or null. */
  readonly lifted: number | null;
  readonly matches: number;
  readonly accounts: number;
  readonly events: number;
  /** The innocent's place after each shared match (0: before the attack). */
  readonly points: [number, number][];
}

/** Insiders fill `perMatch` places of each match with the target; `fresh`: new accounts every match. */
function attack(state: ReportsState, community: HonestCommunity, target: string, fresh: boolean): Run {
  const perMatch = community.matchSize - 1;
  const points: [number, number][] = [[0, placeAmongCommunity(state, community, target)]];
  let time = community.end + 60 * MINUTE;
  let accounts = 0;
  let events = 0;
  let insiders: string[] = [];
  const send = (e: StandingEvent) => {
    reports.evolve(state, e);
    events++;
  };
  let lifted: number | null = null;
  let m = 0;
  while (m < MAX_SHARED_MATCHES && lifted === null) {
    m++;
    if (fresh || insiders.length === 0) {
      insiders = Array.from({ length: perMatch }, () => `insider-${++accounts}`);
      for (const insider of insiders) send(establish(insider, community.medianGames, time));
    }
    const match = `insiders-${m}`;
    send({ type: 'match.start', time, community: COMMUNITY, match, players: [target, ...insiders] });
    send({ type: 'match.end', time: time + 30 * MINUTE, community: COMMUNITY, match });
    for (const insider of insiders) send({ type: 'report', time: time + 31 * MINUTE, community: COMMUNITY, from: insider, to: target });
    time += 60 * MINUTE;
    points.push([m, placeAmongCommunity(state, community, target)]);
    if (aboveWeakestBad(state, community, [target]) === 1) lifted = m;
  }
  return { lifted, matches: m, accounts, events, points };
}

export const reportsInsiders: AttackScenario = {
  name: NAME,
  description: 'a group of established accounts fills matches with an innocent player and all report it after each match',
  scorer: 'reports',
  run({ community, seed }) {
    const target = innocentTarget(community, scenarioRng(seed, NAME));
    const events = reportEvents(community);
    const rows: AttackRow[] = [];
    const series = defenceSettings('reports').map((setting) => {
      const group = attack(replay(reports, setting.params, events), community, target, false);
      const fresh = attack(replay(reports, setting.params, events), community, target, true);
      const cost = { accounts: group.accounts, events: group.events, reports: group.accounts * group.matches, sharedMatches: group.matches };
      const effect = {
        measure: 'shared matches until the innocent outranks the weakest truly bad player',
        value: group.lifted,
        target,
        insidersPerMatch: community.matchSize - 1,
        triedUpTo: MAX_SHARED_MATCHES,
        withFreshAccountsEveryMatch: fresh.lifted,
      };
      rows.push(attackRow(NAME, setting, cost, effect, { goal: '≥ 5 shared matches', met: group.lifted === null || group.lifted >= 5 }));
      return { name: setting.name, points: group.points };
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
