/**
 * reports/spammers: SPAMMER_SHARE of the community's honest members turn report spammers. After
 * the honest log, each picks GRUDGES of the players it met (shared a match with) and reports each
 * of them REPEATS times, a minute apart. Moderators review the spam as they review every report:
 * a tenth of the reports, one review in ten wrong (most reviewed spam is dismissed). The spam
 * needs no new account, every report follows a shared match, and each victim's report count
 * rises by REPEATS per grudge: what a report inbox counts, not what a reporter's judgment says.
 */
import type { ReportEvent, StandingEvent } from '../../events/types.js';
import { shuffled, type Rng } from '../../util/random.js';
import { COMMUNITY, MINUTE, type HonestCommunity } from '../attacks/community.js';
import { scenarioRng } from '../attacks/replay.js';
import { attackStart, type QueueAttack } from './types.js';

export const SPAM_NAME = 'reports/spammers';
/** Share of the community's players who turn spammers (32 of 800). */
export const SPAMMER_SHARE = 0.04;
/** Players each spammer has a grudge against, and the reports it files against each. */
export const GRUDGES = 2;
export const REPEATS = 25;
/** Share of reports moderators review, and how often a review gets it wrong (as in the honest community). */
const REVIEWED = 0.1;
const REVIEW_ERROR = 0.1;

/** How many spammers a community of `players` has: at least one. */
export function spammerCount(players: number): number {
  return Math.max(1, Math.round(players * SPAMMER_SHARE));
}

/** The players each of `spammers` met in the honest log, each once, in the order first met. */
function metBy(community: HonestCommunity, spammers: readonly string[]): Map<string, string[]> {
  const wanted = new Set(spammers);
  const met = new Map<string, Set<string>>(spammers.map((s) => [s, new Set()]));
  for (const e of community.events) {
    if (e.type !== 'match.start') continue;
    for (const p of e.players) if (wanted.has(p)) for (const q of e.players) if (q !== p) met.get(p)!.add(q);
  }
  return new Map([...met].map(([s, players]) => [s, [...players]]));
}

/** The spam and the moderators' verdicts on the reports they review, dated from `start` on; none of `spared` is a victim. */
function spamEvents(community: HonestCommunity, spammers: readonly string[], rng: Rng, start: number, spared: readonly string[]): StandingEvent[] {
  const events: StandingEvent[] = [];
  let time = start;
  let n = 0;
  for (const [spammer, met] of metBy(community, spammers)) {
    const victims = shuffled(
      met.filter((p) => !spared.includes(p)),
      rng,
    ).slice(0, GRUDGES);
    const reviewed: { id: string; upheld: boolean }[] = [];
    for (const to of victims) {
      for (let r = 0; r < REPEATS; r++) {
        const report: ReportEvent = { type: 'report', time: (time += MINUTE), community: COMMUNITY, id: `spam-${++n}`, from: spammer, to, reason: 'spam' };
        events.push(report);
        if (rng() < REVIEWED) reviewed.push({ id: report.id!, upheld: rng() < REVIEW_ERROR });
      }
    }
    // The verdicts come ten minutes after the spammer's last report.
    time += 10 * MINUTE;
    for (const { id, upheld } of reviewed) events.push({ type: 'verdict', time, community: COMMUNITY, on: 'report', outcome: upheld ? 'upheld' : 'dismissed', report: id });
  }
  return events;
}

/**
 * The spam scenario after `community`'s log, from `start` on: its spammers (honest players, none
 * of `spared`, in a seeded order) and their events; no spammer reports one of `spared`.
 */
export function reportSpam(community: HonestCommunity, seed: number, start: number, spared: readonly string[] = []): { spammers: string[]; events: StandingEvent[] } {
  const rng = scenarioRng(seed, SPAM_NAME);
  const honest = community.players.filter((p) => !community.bad.has(p) && !spared.includes(p));
  const spammers = shuffled(honest, rng).slice(0, spammerCount(community.players.length));
  return { spammers, events: spamEvents(community, spammers, rng, start, spared) };
}

export const spammers: QueueAttack = {
  name: SPAM_NAME,
  description: `honest members, ${SPAMMER_SHARE * 100} % of the players, each report ${GRUDGES} players they met ${REPEATS} times`,
  log(community, seed) {
    return { events: reportSpam(community, seed, attackStart(community)).events, innocents: [], hidden: [] };
  },
};
