/**
 * reports/combined: every way of misleading a report count at once, against three innocent
 * players: the report spammers (./report-spam.ts), the outsiders against one innocent, the group
 * of insiders against a second, and fresh insiders every match (the suite's stronger insider
 * attacker) against a third. The first two innocents are those of the outsiders' and insiders'
 * scenarios when they differ; no spammer reports an innocent.
 */
import type { StandingEvent } from '../../events/types.js';
import type { HonestCommunity } from '../attacks/community.js';
import { scenarioRng } from '../attacks/replay.js';
import { innocentTarget } from '../attacks/reports-common.js';
import { reportsInsiders } from '../attacks/reports-insiders.js';
import { reportsOutsiders } from '../attacks/reports-outsiders.js';
import { insiderMatches, OUTSIDERS, outsiderReports } from './report-brigades.js';
import { reportSpam } from './report-spam.js';
import { attackStart, type QueueAttack } from './types.js';

const NAME = 'reports/combined';

/** An innocent target drawn from the stream `stream`, none of `taken`. */
function distinctTarget(community: HonestCommunity, seed: number, stream: string, taken: readonly string[]): string {
  const rng = scenarioRng(seed, stream);
  for (;;) {
    const target = innocentTarget(community, rng);
    if (!taken.includes(target)) return target;
  }
}

/** Events of several attacks in time order (each attack's own order kept among equal times). */
function merged(...logs: (readonly StandingEvent[])[]): StandingEvent[] {
  return logs
    .flat()
    .map((event, order) => ({ event, order }))
    .sort((a, b) => a.event.time - b.event.time || a.order - b.order)
    .map((x) => x.event);
}

export const combined: QueueAttack = {
  name: NAME,
  description: `at once: the report spammers, ${OUTSIDERS} outsiders against one innocent, a group of insiders against a second, fresh insiders every match against a third`,
  log(community, seed) {
    const a = distinctTarget(community, seed, reportsOutsiders.name, []);
    const b = distinctTarget(community, seed, reportsInsiders.name, [a]);
    const c = distinctTarget(community, seed, NAME, [a, b]);
    const start = attackStart(community);
    const spam = reportSpam(community, seed, start, [a, b, c]);
    return {
      events: merged(spam.events, outsiderReports(community, a, start), insiderMatches(community, b, start, false), insiderMatches(community, c, start, true)),
      innocents: [a, b, c],
      hidden: [],
    };
  },
};
