/**
 * The maths: formula.ts.
 * `chat`: reputation from incoming chat messages (Thawonmas, Zhai & Konno; docs/spec.md §6, §6.1).
 * Incremental like the paper: each message adds to its receivers' reputations at once, no
 * iteration. Duplicate receivers and the sender are dropped from `to` (M is the number left).
 */
import type { StandingEvent } from '../../events/types.js';
import { communityScorer, type CommunityStates, type Ranked, type ScorerState } from '../community-scorer.js';
import type { RankRow, Scorer } from '../scorer.js';
import { ChatCommunity, type ChatSnapshot } from './community.js';
import { chatParams, type ChatParams } from './params.js';

export type ChatState = ScorerState<ChatParams, ChatCommunity>;

export interface ChatRow extends RankRow {
  /** Messages sent, a message to M receivers counting M. */
  readonly sent: number;
  /** Messages received. */
  readonly received: number;
}

export interface ChatExplanation {
  readonly player: string;
  readonly community: string;
  readonly params: ChatParams;
  readonly score: number;
  readonly sent: number;
  readonly received: number;
  /** The sender list, front (oldest, worth γ1) first, with the β a next message from each would bring. */
  readonly senders: readonly { readonly player: string; readonly beta: number }[];
}

function communityOf(state: ChatState, name: string): ChatCommunity {
  const states = state as CommunityStates<ChatParams, ChatCommunity>; // made by initialState
  return name === states.lastCommunity ? states.lastState! : states.enter(name);
}

export const chat: Scorer<ChatParams, ChatState, ChatRow, ChatExplanation> = {
  id: 'chat',
  rankOneIsWorst: false,
  uses: ['chat'],
  params: chatParams,

  ...communityScorer({
    create: (params: ChatParams) => new ChatCommunity(params),
    fromSnapshot: (params: ChatParams, s: ChatSnapshot) => ChatCommunity.fromSnapshot(params, s),
    // Reputation highest first, ties by id.
    ranked: (c: ChatCommunity): Ranked<Pick<ChatRow, 'sent' | 'received'>> => ({
      size: c.players.size,
      ids: c.players,
      scores: c.rep,
      row: (i, rank, community) => ({ rank, player: c.players.idAt(i), score: c.rep[i]!, community, sent: c.sent[i]!, received: c.received[i]! }),
    }),
  }),

  evolve(state, event: StandingEvent) {
    if (event.type !== 'chat') return state;
    const community = communityOf(state, event.community);
    const sender = community.player(event.from);
    community.send(sender, community.distinctReceivers(sender, event.to));
    return state;
  },


  explain(state, name, player) {
    const c = state.communities.get(name);
    const i = c?.players.indexOf(player) ?? -1;
    if (c === undefined || i < 0) return undefined;
    const p = state.params;
    return {
      player,
      community: name,
      params: p,
      score: c.rep[i]!,
      sent: c.sent[i]!,
      received: c.received[i]!,
      senders: c.senders(i).map(({ sender, slot }) => ({ player: c.players.idAt(sender), beta: p.gamma1 / 2 ** slot })),
    };
  },

};

/**
 * Sets `player`'s reputation (first seeing the player if needed): for game masters' corrections
 * and for simulations that hold a player's reputation fixed (docs/spec.md §6.1, reliability simulation).
 */
export function setChatReputation(state: ChatState, community: string, player: string, reputation: number): void {
  const c = communityOf(state, community);
  c.rep[c.player(player)] = reputation;
}
