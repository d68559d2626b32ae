/**
 * chat/farming: k alternate accounts take turns messaging one main account, an ordinary honest
 * player (the community's median chat reputation). Effect: the messages sent until the main
 * account reaches the community's top decile. Target: the recommended defences need at least ten
 * times the messages the published recipe needs.
 */
import type { ChatEvent } from '../../events/types.js';
import { chat, type ChatState } from '../../scorers/chat/scorer.js';
import { COMMUNITY, MINUTE, type HonestCommunity } from './community.js';
import { replay } from './replay.js';
import { defenceSettings, attackRow, PUBLISHED } from './settings.js';
import type { AttackRow, AttackScenario, Curve } from './types.js';

const NAME = 'chat/farming';
export const ALT_COUNTS = [1, 10] as const;
/** Messages sent before the attack is called a failure. */
export const MAX_MESSAGES = 200_000;

export function chatEvents(community: HonestCommunity): ChatEvent[] {
  return community.events.filter((e): e is ChatEvent => e.type === 'chat');
}

/** The honest player with the median chat reputation under the published recipe. */
export function medianChatter(community: HonestCommunity): string {
  const rows = chat.rank(replay(chat, {}, chatEvents(community)), { community: COMMUNITY }).filter((r) => !community.bad.has(r.player));
  return rows[rows.length >> 1]!.player;
}

/** The reputation a player needs to rank in the top decile of `state`'s community, the main account aside. */
function topDecile(state: ChatState, main: string): number {
  const others = chat
    .rank(state, { community: COMMUNITY })
    .filter((r) => r.player !== main)
    .map((r) => r.score);
  return others[Math.ceil((others.length + 1) / 10) - 1]!;
}

function reputation(state: ChatState, player: string): number {
  const c = state.communities.get(COMMUNITY)!;
  return c.rep[c.players.indexOf(player)]!;
}

export const chatFarming: AttackScenario = {
  name: NAME,
  description: 'k alternate accounts take turns messaging one main account',
  scorer: 'chat',
  run({ community }) {
    const events = chatEvents(community);
    const main = medianChatter(community);
    const rows: AttackRow[] = [];
    const series: { name: string; points: [number, number][] }[] = [];
    const publishedMessages = new Map<number, number | null>();
    for (const setting of defenceSettings('chat')) {
      for (const k of ALT_COUNTS) {
        const state = replay(chat, setting.params, events);
        const goal = topDecile(state, main);
        const start = reputation(state, main);
        const points: [number, number][] = [[0, start]];
        let messages = 0;
        let time = community.end + MINUTE;
        while (reputation(state, main) < goal && messages < MAX_MESSAGES) {
          chat.evolve(state, { type: 'chat', time: (time += 1000), community: COMMUNITY, from: `alt-${(messages % k) + 1}`, to: [main] });
          messages++;
          if (messages % 50 === 0) points.push([messages, reputation(state, main)]);
        }
        const value = reputation(state, main) >= goal ? messages : null;
        if (setting.name === PUBLISHED.name) publishedMessages.set(k, value);
        const published = publishedMessages.get(k) ?? null;
        const cost = { accounts: k, events: messages, messages };
        const effect = { measure: "messages until the main account reaches the top decile", value, main, alts: k, startReputation: start, topDecile: goal, triedUpTo: MAX_MESSAGES };
        rows.push(attackRow(NAME, setting, cost, effect, published !== null ? { goal: `≥ ${10 * published} messages (10× the published recipe)`, met: value === null || value >= 10 * published } : null));
        if (k === ALT_COUNTS[0]) series.push({ name: setting.name, points });
      }
    }
    const curve: Curve = {
      attack: NAME,
      name: 'chat-farming',
      title: 'One alternate account messaging a main account',
      xLabel: 'messages',
      yLabel: "main account's chat reputation",
      series,
    };
    return { rows, curves: [curve] };
  },
};
