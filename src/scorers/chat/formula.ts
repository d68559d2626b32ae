/**
 * The maths of `chat`, written to be read: reputations from incoming chat messages over plain Maps
 * keyed by player id. The scorer does the same in typed arrays with fixed-size sender lists
 * (./community.ts); tests hold the two equal, to the bit (test/unit/chat/formula.test.ts).
 *
 * Paper: Ruck Thawonmas, Yao Zhai and Yuki Konno, "Evaluating Reputation of Online-Game Players
 * Based on Incoming Chat Messages" (venue and year not stated in the copy), section "Player
 * Reputation" and section "Comparisons among Different Recipes". Sender S sends one message to M
 * receivers R_1 … R_M; for each receiver, with β evaluated before S enters R's sender list:
 *
 *     recipe 1, eq. (1):  rep(R) = min(rep(R) + α · rep(S) / M + β(R, S), rep_MAX)
 *     recipe 2, eq. (4):  rep(R) = min(rep(R) + β(R, S) · rep(S) / M, rep_MAX)
 *     recipe 3, eq. (5):  rep(R) = min(rep(R) + β(R, S), rep_MAX)
 *     eq. (2):  β(R, S) = γ0 if S is not in R's sender list, else γ1 / 2^(pos − 1),
 *               pos the 1-based position of S from the front of the list (L senders, FIFO)
 *
 * and after every N messages player i sends, eq. (3) (recipes 1, 2): rep(i) = max((1 − τ)·rep(i),
 * rep_MIN), or eq. (6) (recipe 3): rep(i) = max(rep(i) − δ, rep_MIN). docs/spec.md §6 is the
 * normative reading, and §6.1 decides what the paper leaves open: the sender list's L fixed slots
 * (a newcomer enters at the back, slot L, the others move one slot toward the front and slot 1's
 * leaves; a sender already listed keeps its slot), duplicate receivers and the sender dropped from
 * the receivers, a message to M receivers counting M sent, and rep(S) taken when the message is sent.
 *
 * The partner defence (docs/spec.md §6.2, docs/chat.md#defences; partners > 1) multiplies each
 * gain by d / partners, d the distinct players the sender has messaged (at most partners, these
 * receivers included).
 */
import type { ChatParams } from './params.js';

/** A sender list: L slots, front (slot 1, the oldest) first; null is an empty slot. */
export type SenderList = (string | null)[];

/** β(R, S), eq. (2), for R's sender list. */
export function beta(list: readonly (string | null)[], sender: string, p: Pick<ChatParams, 'gamma0' | 'gamma1'>): number {
  const index = list.indexOf(sender);
  if (index < 0) return p.gamma0;
  const pos = index + 1;
  return p.gamma1 / 2 ** (pos - 1);
}

/** The list after S's message (docs/spec.md §6.1): a newcomer enters at the back, the front one leaves. */
export function enter(list: readonly (string | null)[], sender: string): SenderList {
  if (list.includes(sender)) return [...list];
  return [...list.slice(1), sender];
}

/** The gain of one receiver: the term its recipe adds to rep(R) (eqs. 1, 4, 5). */
export function gain(recipe: ChatParams['recipe'], beta: number, senderRep: number, receivers: number, p: Pick<ChatParams, 'alpha'>): number {
  if (recipe === 1) return (p.alpha * senderRep) / receivers + beta;
  if (recipe === 2) return (beta * senderRep) / receivers;
  return beta;
}

/** One decay of rep(i), eq. (3) or (6). */
export function decay(rep: number, p: Pick<ChatParams, 'recipe' | 'tau' | 'delta' | 'repMin'>): number {
  return Math.max(p.recipe === 3 ? rep - p.delta : (1 - p.tau) * rep, p.repMin);
}

export interface ChatPlayer {
  rep: number;
  /** Messages sent, a message to M receivers counting M. */
  sent: number;
  received: number;
  senders: SenderList;
  /** The partner defence: the first `partners` distinct players it messaged. */
  partners: Set<string>;
}

/** A chat message: `from` to the players in `to` (duplicates and `from` itself are dropped). */
export interface ChatMessage {
  readonly from: string;
  readonly to: readonly string[];
}

/** Every player's state after `messages`, in order (players start at `initial` when first seen). */
export function chatReputations(messages: readonly ChatMessage[], p: ChatParams): Map<string, ChatPlayer> {
  const players = new Map<string, ChatPlayer>();
  const seen = (id: string): ChatPlayer => {
    let player = players.get(id);
    if (player === undefined) players.set(id, (player = { rep: p.initial, sent: 0, received: 0, senders: new Array<null>(p.L).fill(null), partners: new Set() }));
    return player;
  };
  for (const message of messages) {
    const sender = seen(message.from);
    const receivers = [...new Set(message.to)].filter((id) => id !== message.from);
    for (const id of receivers) seen(id);
    const M = receivers.length;
    if (M === 0) continue;
    const senderRep = sender.rep; // rep(S) when the message is sent
    let weight = 1;
    if (p.partners > 1) {
      for (const id of receivers) if (sender.partners.size < p.partners) sender.partners.add(id);
      weight = sender.partners.size / p.partners;
    }
    for (const id of receivers) {
      const R = players.get(id)!;
      const b = beta(R.senders, message.from, p);
      R.senders = enter(R.senders, message.from);
      R.rep = Math.min(R.rep + weight * gain(p.recipe, b, senderRep, M, p), p.repMax);
      R.received++;
    }
    // Decay once for every N messages sent crossed by this one.
    const before = sender.sent;
    sender.sent += M;
    const decays = Math.floor(sender.sent / p.N) - Math.floor(before / p.N);
    for (let i = 0; i < decays; i++) sender.rep = decay(sender.rep, p);
  }
  return players;
}
