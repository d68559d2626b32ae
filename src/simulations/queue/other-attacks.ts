/**
 * The suite's attacks on the other scorers (../attacks/) as events, making the suite's choices
 * for the same seed:
 *
 * - `trust/sybil-ring`: a ring of 100 fakes rate each other +1, attached by 10 honest endorsers;
 * - `chat/farming`: 10 alternate accounts send a main account (an ordinary honest player) 1,000 messages;
 * - `reliability/farming`: the habitual dropper (a truly bad player) finishes 1,000 one-minute
 *   matches against an alternate account, to hide.
 */
import type { StandingEvent } from '../../events/types.js';
import { ALT_COUNTS, chatFarming, medianChatter } from '../attacks/chat-farming.js';
import { COMMUNITY, MINUTE } from '../attacks/community.js';
import { habitualDropper, MAX_FARM_MATCHES, reliabilityFarming } from '../attacks/reliability-farming.js';
import { ATTACK_EDGES, ringEndorsers, trustSybilRing } from '../attacks/trust-sybil-ring.js';
import { attackStart, type QueueAttack } from './types.js';

/** Fakes in the ring, and the messages the farming accounts send. */
export const RING = 100;
export const FARMED_MESSAGES = 1000;

export const sybilRing: QueueAttack = {
  name: trustSybilRing.name,
  description: `a ring of ${RING} fakes rate each other +1, attached by ${ATTACK_EDGES.at(-1)} honest endorsers`,
  log(community, seed) {
    const { endorsers } = ringEndorsers(community, seed);
    const time = attackStart(community);
    const fake = (i: number) => `fake-${i + 1}`;
    const events: StandingEvent[] = [];
    for (let i = 0; i < RING; i++) for (let j = 0; j < RING; j++) if (i !== j) events.push({ type: 'rating', time, community: COMMUNITY, from: fake(i), to: fake(j), value: 1 });
    endorsers.forEach((endorser, i) => events.push({ type: 'rating', time, community: COMMUNITY, from: endorser, to: fake(i), value: 1 }));
    return { events, innocents: [], hidden: [] };
  },
};

export const farmingChat: QueueAttack = {
  name: chatFarming.name,
  description: `${ALT_COUNTS.at(-1)} alternate accounts send a main account ${FARMED_MESSAGES.toLocaleString('en-US')} messages`,
  log(community) {
    const main = medianChatter(community);
    const alts = ALT_COUNTS.at(-1)!;
    let time = attackStart(community);
    const events: StandingEvent[] = [];
    for (let m = 0; m < FARMED_MESSAGES; m++) events.push({ type: 'chat', time: (time += 1000), community: COMMUNITY, from: `alt-${(m % alts) + 1}`, to: [main] });
    return { events, innocents: [], hidden: [] };
  },
};

export const farmingReliability: QueueAttack = {
  name: reliabilityFarming.name,
  description: `the habitual dropper finishes ${MAX_FARM_MATCHES.toLocaleString('en-US')} one-minute matches against an alternate account`,
  log(community) {
    const dropper = habitualDropper(community);
    let time = attackStart(community);
    const events: StandingEvent[] = [];
    for (let m = 1; m <= MAX_FARM_MATCHES; m++) {
      const match = `farm-${m}`;
      events.push({ type: 'match.start', time, community: COMMUNITY, match, players: [dropper, 'alt-1'] });
      events.push({ type: 'match.end', time: time + MINUTE, community: COMMUNITY, match });
      time += 3 * MINUTE;
    }
    return { events, innocents: [], hidden: [dropper] };
  },
};
