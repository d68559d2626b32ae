/**
 * The chat paper's balance experiment (Thawonmas, Zhai & Konno, "Balance of Reputation";
 * steps 1–6 as decided in docs/spec.md §6.1): 500 players, 50 of them socializers. Each cycle puts the
 * players into 100 random groups of 10; in rounds, every player (in a fresh random order) sends
 * one message to the rest of its group, until players have sent 20 messages on average; then
 * the socializers do the same as one group. Cycles repeat until the message budget is spent.
 * A message to M receivers counts as M messages. The messages go through `chat.evolve`.
 */
import type { ChatEvent } from '../events/types.js';
import { chat, type ChatState } from '../scorers/chat/scorer.js';
import type { ChatRecipe } from '../scorers/chat/params.js';
import { shuffled, type Rng } from '../util/random.js';

export interface ChatBalanceOptions {
  readonly recipe: ChatRecipe;
  readonly rng: Rng;
  /** Messages to send in all (default 1,000,000). */
  readonly messages?: number;
  /** Checkpoints for averages and histograms (default every 200,000). */
  readonly checkpointEvery?: number;
  /** Points of the average-over-time series (default every 10,000). */
  readonly seriesEvery?: number;
}

export interface ChatBalancePoint {
  readonly messages: number;
  /** Average reputation of the 450 standard players. */
  readonly standard: number;
  /** Average reputation of the 50 socializers. */
  readonly socializers: number;
}

export interface ChatBalanceCheckpoint extends ChatBalancePoint {
  /** Players per reputation bin [0, 0.1), [0.1, 0.2), … [0.9, 1.0] (the last bin includes 1). */
  readonly histogram: { readonly standard: readonly number[]; readonly socializers: readonly number[] };
}

export interface ChatBalanceResult {
  readonly recipe: ChatRecipe;
  readonly checkpoints: readonly ChatBalanceCheckpoint[];
  readonly series: readonly ChatBalancePoint[];
}

const PLAYERS = 500;
const SOCIALIZERS = 50;
const GROUPS = 100;
const GROUP_SIZE = 10;
const AVERAGE_SENT = 20;
const COMMUNITY = 'simulation';

export function simulateChatBalance(options: ChatBalanceOptions): ChatBalanceResult {
  const { rng, recipe } = options;
  const budget = options.messages ?? 1_000_000;
  const checkpointEvery = options.checkpointEvery ?? 200_000;
  const seriesEvery = options.seriesEvery ?? 10_000;
  const state: ChatState = chat.initialState(chat.params.resolve({ recipe }));
  const ids = Array.from({ length: PLAYERS }, (_, i) => (i < SOCIALIZERS ? `socializer-${i + 1}` : `player-${i + 1 - SOCIALIZERS}`));
  const everyone = ids.map((_, i) => i);
  for (const id of ids) chat.evolve(state, { type: 'chat', time: 0, community: COMMUNITY, from: id, to: [] });

  const checkpoints: ChatBalanceCheckpoint[] = [];
  const series: ChatBalancePoint[] = [];
  let total = 0;

  const reputations = () => {
    const c = state.communities.get(COMMUNITY)!;
    return ids.map((id) => c.rep[c.players.indexOf(id)]!);
  };
  const averages = (reps: readonly number[]) => ({
    standard: reps.slice(SOCIALIZERS).reduce((a, b) => a + b, 0) / (PLAYERS - SOCIALIZERS),
    socializers: reps.slice(0, SOCIALIZERS).reduce((a, b) => a + b, 0) / SOCIALIZERS,
  });
  const histogram = (reps: readonly number[]) => {
    const bins = new Array<number>(10).fill(0);
    for (const rep of reps) bins[Math.min(9, Math.floor(rep * 10))]!++;
    return bins;
  };

  /** Sends one message; false once the budget is spent. */
  const send = (from: string, to: string[]): boolean => {
    const event: ChatEvent = { type: 'chat', time: total, community: COMMUNITY, from, to };
    chat.evolve(state, event);
    const before = total;
    total += to.length;
    if (Math.floor(total / seriesEvery) > Math.floor(before / seriesEvery)) {
      series.push({ messages: total, ...averages(reputations()) });
    }
    if (Math.floor(total / checkpointEvery) > Math.floor(before / checkpointEvery)) {
      const reps = reputations();
      checkpoints.push({
        messages: Math.floor(total / checkpointEvery) * checkpointEvery,
        ...averages(reps),
        histogram: { standard: histogram(reps.slice(SOCIALIZERS)), socializers: histogram(reps.slice(0, SOCIALIZERS)) },
      });
    }
    return total < budget;
  };

  /** The rest of each member's group, as ids: what the member sends each message to. */
  const receiversIn = (groups: readonly (readonly number[])[]) => {
    const to: string[][] = [];
    for (const group of groups) for (const player of group) to[player] = group.filter((o) => o !== player).map((o) => ids[o]!);
    return to;
  };

  /** Rounds of "everyone sends to the rest of their group" until the average sent reaches 20. */
  const phase = (members: readonly number[], to: readonly (readonly string[])[]): boolean => {
    let sent = 0;
    while (sent / members.length < AVERAGE_SENT) {
      for (const player of shuffled(members, rng)) {
        const receivers = to[player]!;
        sent += receivers.length;
        if (!send(ids[player]!, receivers as string[])) return false;
      }
    }
    return true;
  };

  const socializerGroup = everyone.slice(0, SOCIALIZERS);
  const socializerReceivers = receiversIn([socializerGroup]);
  for (;;) {
    // Step 1: each player joins a uniformly random group among those not yet full.
    const groups: number[][] = Array.from({ length: GROUPS }, () => []);
    const open = Array.from({ length: GROUPS }, (_, i) => i); // groups with room, in any order
    for (const player of everyone) {
      const at = Math.floor(rng() * open.length);
      const g = open[at]!;
      groups[g]!.push(player);
      if (groups[g]!.length === GROUP_SIZE) open[at] = open[open.length - 1]!, open.pop();
    }
    if (!phase(everyone, receiversIn(groups))) break; // steps 2–3
    if (!phase(socializerGroup, socializerReceivers)) break; // steps 4–5
  }
  return { recipe, checkpoints, series };
}
