/**
 * The suite's report brigades (../attacks/reports-*.ts) as events, at the largest budget the
 * suite tries, against the same innocent players for the same seed:
 *
 * - `reports/outsiders`: 100 established outsiders each report the innocent once;
 * - `reports/insiders`: one group of established accounts fills the other places (9 in matches of
 *   two teams of five) of 30 matches with the innocent, and all of them report it after each;
 * - `reports/retaliation`: the friends of the most reported truly bad player fill a match with each
 *   player who reported him and report that player; moderators dismiss the first 10 reports.
 */
import type { ReportEvent, StandingEvent } from '../../events/types.js';
import { COMMUNITY, MINUTE, type HonestCommunity } from '../attacks/community.js';
import { scenarioRng } from '../attacks/replay.js';
import { establish, innocentTarget } from '../attacks/reports-common.js';
import { MAX_SHARED_MATCHES, reportsInsiders } from '../attacks/reports-insiders.js';
import { OUTSIDER_COUNTS, reportsOutsiders } from '../attacks/reports-outsiders.js';
import { DISMISSED, mostReportedBad, reportsRetaliation } from '../attacks/reports-retaliation.js';
import { attackStart, type QueueAttack } from './types.js';

/** Outsider accounts of the outsiders' brigade. */
export const OUTSIDERS = OUTSIDER_COUNTS.at(-1)!;

/** OUTSIDERS established accounts that never met `target` each report it once, from `start` on. */
export function outsiderReports(community: HonestCommunity, target: string, start: number): StandingEvent[] {
  const events: StandingEvent[] = [];
  let time = start;
  for (let i = 1; i <= OUTSIDERS; i++) {
    const account = `outsider-${i}`;
    events.push(establish(account, community.medianGames, time));
    events.push({ type: 'report', time: (time += MINUTE), community: COMMUNITY, from: account, to: target });
  }
  return events;
}

/**
 * Established accounts fill the other places of MAX_SHARED_MATCHES matches with `target` and all
 * report it after each, from `start` on: one group throughout, or (`fresh`) new accounts every match.
 */
export function insiderMatches(community: HonestCommunity, target: string, start: number, fresh: boolean): StandingEvent[] {
  const perMatch = community.matchSize - 1;
  const prefix = fresh ? 'fresh-insider' : 'insider';
  let accounts = 0;
  let group: string[] = [];
  let time = start;
  const events: StandingEvent[] = [];
  for (let m = 1; m <= MAX_SHARED_MATCHES; m++) {
    if (fresh || group.length === 0) {
      group = Array.from({ length: perMatch }, () => `${prefix}-${++accounts}`);
      for (const account of group) events.push(establish(account, community.medianGames, time));
    }
    const match = `${prefix}s-${m}`;
    events.push({ type: 'match.start', time, community: COMMUNITY, match, players: [target, ...group] });
    events.push({ type: 'match.end', time: time + 30 * MINUTE, community: COMMUNITY, match });
    for (const account of group) events.push({ type: 'report', time: time + 31 * MINUTE, community: COMMUNITY, from: account, to: target });
    time += 60 * MINUTE;
  }
  return events;
}

export const outsiders: QueueAttack = {
  name: reportsOutsiders.name,
  description: `${OUTSIDERS} established outsiders report an innocent player`,
  log(community, seed) {
    const target = innocentTarget(community, scenarioRng(seed, reportsOutsiders.name));
    return { events: outsiderReports(community, target, attackStart(community)), innocents: [target], hidden: [] };
  },
};

export const insiders: QueueAttack = {
  name: reportsInsiders.name,
  description: `a group of established accounts fills the other places of ${MAX_SHARED_MATCHES} matches with an innocent player and all report it after each`,
  log(community, seed) {
    const target = innocentTarget(community, scenarioRng(seed, reportsInsiders.name));
    return { events: insiderMatches(community, target, attackStart(community), false), innocents: [target], hidden: [] };
  },
};

export const retaliation: QueueAttack = {
  name: reportsRetaliation.name,
  description: `the friends of the most reported truly bad player report each player who reported him after a shared match; the first ${DISMISSED} reports are dismissed`,
  log(community) {
    const { reporters } = mostReportedBad(community);
    const friends = Array.from({ length: community.matchSize - 1 }, (_, i) => `friend-${i + 1}`);
    let time = attackStart(community);
    const events: StandingEvent[] = friends.map((friend) => establish(friend, community.medianGames, time));
    const brigade: ReportEvent[] = [];
    reporters.forEach((victim, j) => {
      const match = `retaliation-${j + 1}`;
      events.push({ type: 'match.start', time, community: COMMUNITY, match, players: [victim, ...friends] });
      events.push({ type: 'match.end', time: time + 30 * MINUTE, community: COMMUNITY, match });
      const before = brigade.length;
      for (const friend of friends) {
        const report: ReportEvent = { type: 'report', time: time + 31 * MINUTE, community: COMMUNITY, id: `retaliation-${j + 1}-${friend}`, from: friend, to: victim };
        events.push(report);
        brigade.push(report);
      }
      // The moderators dismiss the brigade's first DISMISSED reports once that many are filed, after the match's reports.
      if (before < DISMISSED && brigade.length >= DISMISSED) {
        for (const dismissed of brigade.slice(0, DISMISSED)) events.push({ type: 'verdict', time: time + 40 * MINUTE, community: COMMUNITY, on: 'report', outcome: 'dismissed', report: dismissed.id! });
      }
      time += 60 * MINUTE;
    });
    return { events, innocents: reporters, hidden: [] };
  },
};
