/**
 * The chat paper's reliability experiment ("System Reliability", scenarios 1–2; docs/spec.md §6.1): a
 * player who never sends keeps receiving messages from one friend whose reputation is held
 * fixed; count the messages until the player's reputation has doubled from its initial value.
 * The messages go through `chat.evolve`.
 */
import { chat, setChatReputation } from '../scorers/chat/scorer.js';
import type { ChatRecipe } from '../scorers/chat/params.js';

export interface ChatReliabilityOptions {
  readonly recipe: ChatRecipe;
  /** The friend's fixed reputation (the paper's 0.1 and 0.9). */
  readonly friend: number;
  /** Give up after this many messages (default 100,000). */
  readonly limit?: number;
}

export interface ChatReliabilityResult {
  readonly friend: number;
  /** Messages until the receiver's reputation reached twice its initial value, or null within the limit. */
  readonly doubling: number | null;
  /** The receiver's reputation after each message, until doubling (or the limit). */
  readonly series: readonly number[];
}

const COMMUNITY = 'simulation';

export function simulateChatReliability(options: ChatReliabilityOptions): ChatReliabilityResult {
  const state = chat.initialState(chat.params.resolve({ recipe: options.recipe }));
  const target = 2 * state.params.initial;
  const limit = options.limit ?? 100_000;
  const series: number[] = [];
  for (let n = 1; n <= limit; n++) {
    setChatReputation(state, COMMUNITY, 'friend', options.friend);
    chat.evolve(state, { type: 'chat', time: n, community: COMMUNITY, from: 'friend', to: ['receiver'] });
    const reputation = chat.explain(state, COMMUNITY, 'receiver')!.score;
    series.push(reputation);
    if (reputation >= target) return { friend: options.friend, doubling: n, series };
  }
  return { friend: options.friend, doubling: null, series };
}
