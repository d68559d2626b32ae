/**
 * Chat reputation constants (Thawonmas, Zhai & Konno; docs/spec.md §6). The defaults depend on the
 * recipe: recipe 1 uses γ0 = 0.002, γ1 = 0.0016; recipes 2 and 3 use γ0 = 0.004, γ1 = 0.003.
 */
import { ParameterError } from '../../errors.js';
import { defineParams, readers, toNumber, type ParamsDefinition } from '../../params/define.js';

export type ChatRecipe = 1 | 2 | 3;

export interface ChatParams {
  /** 1: eq. (1) + decay (3); 2: eq. (4) + decay (3); 3: eq. (5) + decay (6). */
  readonly recipe: ChatRecipe;
  /** Weight of the sender's reputation, recipe 1. */
  readonly alpha: number;
  /** β for a sender not in the receiver's sender list. */
  readonly gamma0: number;
  /** β for a sender at position pos of the list is γ1 / 2^(pos − 1). */
  readonly gamma1: number;
  /** Slots of a sender list. */
  readonly L: number;
  /** Multiplicative decay, recipes 1–2: rep ← max((1 − τ)·rep, repMin). */
  readonly tau: number;
  /** Subtractive decay, recipe 3: rep ← max(rep − δ, repMin). */
  readonly delta: number;
  readonly repMax: number;
  readonly repMin: number;
  /** Decay after every N messages a player sends (a message to M receivers counts M). */
  readonly N: number;
  /** Reputation of a player when first seen. */
  readonly initial: number;
  /**
   * Partner defence (docs/chat.md#defences): a message's gain is multiplied by min(1, d/partners),
   * d the distinct players its sender has messaged, this message's receivers included. 1: off (the paper).
   * A whole number from 1 to MAX_PARTNERS: each player keeps room for this many partners.
   */
  readonly partners: number;
}

/** The largest `partners`: each player keeps up to this many partners (docs/chat.md#defences). */
export const MAX_PARTNERS = 1000;

/** The defence settings docs/abuse.md recommends for a live community. */
export const RECOMMENDED_CHAT_DEFENCES = Object.freeze({ partners: 20 });

const COMMON = { alpha: 0.0001, L: 5, tau: 0.035, delta: 0.035, repMax: 1, repMin: 0.1, N: 20, initial: 0.1, partners: 1 };

const DEFAULTS: Readonly<Record<ChatRecipe, ChatParams>> = {
  1: { recipe: 1, ...COMMON, gamma0: 0.002, gamma1: 0.0016 },
  2: { recipe: 2, ...COMMON, gamma0: 0.004, gamma1: 0.003 },
  3: { recipe: 3, ...COMMON, gamma0: 0.004, gamma1: 0.003 },
};

const recipeReader = (raw: unknown): ChatRecipe | { invalid: string } => {
  const n = toNumber(raw);
  return n === 1 || n === 2 || n === 3 ? n : { invalid: 'must be 1, 2 or 3' };
};

function definition(recipe: ChatRecipe): ParamsDefinition<ChatParams> {
  return defineParams<ChatParams>(
    'chat',
    DEFAULTS[recipe],
    {
      recipe: recipeReader,
      alpha: readers.number(0),
      gamma0: readers.number(0),
      gamma1: readers.number(0),
      L: readers.integer(1, false),
      tau: readers.number(0),
      delta: readers.number(0),
      repMax: readers.number(0),
      repMin: readers.number(0),
      N: readers.integer(1, false),
      initial: readers.number(0),
      partners: readers.integer(1, false),
    },
    (p) => {
      if (p.tau > 1) return ['tau', `must be ≤ 1, got ${p.tau}`];
      if (p.partners > MAX_PARTNERS) return ['partners', `must be an integer from 1 to ${MAX_PARTNERS}, got ${p.partners}`];
      if (p.repMin > p.repMax) return ['repMin', `must be ≤ repMax, got ${p.repMin} > ${p.repMax}`];
      if (p.initial < p.repMin || p.initial > p.repMax) return ['initial', `must lie in [repMin, repMax], got ${p.initial}`];
      return undefined;
    },
  );
}

const BY_RECIPE = { 1: definition(1), 2: definition(2), 3: definition(3) } as const;

/** Resolves with the defaults of the recipe named in `input` (recipe 1 when absent). */
export const chatParams: ParamsDefinition<ChatParams> = Object.freeze({
  owner: 'chat',
  defaults: BY_RECIPE[1].defaults,
  resolve(input: Readonly<Record<string, unknown>> | Partial<ChatParams> = {}) {
    const raw = (input as Record<string, unknown>).recipe;
    const recipe = raw === undefined ? 1 : recipeReader(raw);
    if (typeof recipe === 'object') throw new ParameterError('chat', 'recipe', `${recipe.invalid}, got ${JSON.stringify(raw)}`);
    return BY_RECIPE[recipe].resolve(input);
  },
});
