/**
 * `minecraft`: block collecting (Quesada & Villacorta §III.4, eq. 8 as restated by docs/spec.md §2.2).
 *
 *   Q = Σ_b rarity_b · ((1 + n_natural(b)) / (1 + n_other(b)) − 1)
 *
 * n_natural(b) counts collected natural blocks of type b, n_other(b) collected blocks of type b
 * that another player had placed. docs/spec.md's sum runs over every block type; a type never collected
 * adds the constant rarity_b · 1/1, which is subtracted here so that Q of an untouched world is
 * 0 and only collected types need state. Constants cancel in Δ = Q(after) − Q(before).
 */
import type { ActionEvent } from '../events/types.js';
import { defineParams, toNumber, type FieldReader } from '../params/define.js';
import type { QualityDomain } from './domain.js';
import { SpillMap } from '../util/spill-map.js';
import { idField, integerField, opField } from './payload.js';

export type RarityTable = Readonly<Record<string, number>>;

export interface MinecraftOptions {
  /** Block type → positive weight; merged over DEFAULT_RARITY. Unknown types weigh 1. */
  readonly rarity: RarityTable;
}

/** Default rarity weights (Minecraft block ids); types not listed weigh 1. */
export const DEFAULT_RARITY: RarityTable = Object.freeze({
  dirt: 1,
  grass_block: 1,
  sand: 1,
  gravel: 1,
  stone: 1,
  cobblestone: 1,
  oak_log: 2,
  coal_ore: 3,
  iron_ore: 5,
  redstone_ore: 8,
  lapis_ore: 10,
  gold_ore: 15,
  obsidian: 20,
  emerald_ore: 40,
  diamond_ore: 50,
});

const UNKNOWN_RARITY = 1;

/** A rarity table as an object or as `type=weight,type=weight`, merged over DEFAULT_RARITY. */
const readRarity: FieldReader<RarityTable> = (raw) => {
  let entries: [string, unknown][];
  if (typeof raw === 'string') {
    entries = [];
    for (const part of raw.split(',')) {
      if (part.trim() === '') continue;
      const eq = part.indexOf('=');
      if (eq < 0) return { invalid: 'must be an object or "type=weight,…" text' };
      entries.push([part.slice(0, eq).trim(), part.slice(eq + 1)]);
    }
  } else if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    entries = Object.entries(raw);
  } else {
    return { invalid: 'must be an object of block type → positive weight' };
  }
  const table: Record<string, number> = { ...DEFAULT_RARITY };
  for (const [block, value] of entries) {
    const weight = toNumber(value);
    if (block === '') return { invalid: 'block types must be non-empty' };
    if (!Number.isFinite(weight) || weight <= 0) {
      return { invalid: `weight of "${block}" must be a finite number > 0` };
    }
    table[block] = weight;
  }
  return Object.freeze(table);
};


interface Placed {
  readonly player: string;
  readonly block: string;
}

interface Collected {
  natural: number;
  other: number;
}

export interface MinecraftState {
  readonly rarity: ReadonlyMap<string, number>;
  /** "x,y,z" → who placed which block type there. */
  readonly placed: SpillMap<string, Placed>;
  /** Counts per block type collected at least once. */
  readonly collected: Map<string, Collected>;
}

function rarityOf(state: MinecraftState, block: string): number {
  return state.rarity.get(block) ?? UNKNOWN_RARITY;
}

/** The type's term of Q (0 for counts 0, 0). */
function term(rarity: number, counts: Collected): number {
  return rarity * ((1 + counts.natural) / (1 + counts.other) - 1);
}

function readPayload(action: ActionEvent): { op: 'place' | 'break'; block: string; key: string } {
  const op = opField(action, ['place', 'break']);
  const block = idField(action, 'block');
  const key = `${integerField(action, 'x')},${integerField(action, 'y')},${integerField(action, 'z')}`;
  return { op, block, key };
}

/** Counts one collected block of `block` and returns the change of its term. */
function collect(state: MinecraftState, block: string, kind: keyof Collected): number {
  let counts = state.collected.get(block);
  if (counts === undefined) {
    counts = { natural: 0, other: 0 };
    state.collected.set(block, counts);
  }
  const rarity = rarityOf(state, block);
  const before = term(rarity, counts);
  counts[kind] += 1;
  return term(rarity, counts) - before;
}

export const minecraft: QualityDomain<MinecraftOptions, MinecraftState> = {
  name: 'minecraft',
  options: defineParams<MinecraftOptions>('minecraft', { rarity: DEFAULT_RARITY }, { rarity: readRarity }),

  initialState(options) {
    return { rarity: new Map(Object.entries(options.rarity)), placed: new SpillMap(), collected: new Map() };
  },

  apply(state, action) {
    const { op, block, key } = readPayload(action);
    if (op === 'place') {
      state.placed.set(key, { player: action.player, block });
      return 0;
    }
    const placed = state.placed.get(key);
    if (placed === undefined) return collect(state, block, 'natural');
    state.placed.delete(key);
    return placed.player === action.player ? 0 : collect(state, placed.block, 'other');
  },

  quality(state) {
    let q = 0;
    for (const [block, counts] of state.collected) q += term(rarityOf(state, block), counts);
    return q;
  },

  snapshot(state) {
    const placed = [...state.placed.entries()].map(([key, p]) => [key, p.player, p.block]);
    const collected = [...state.collected].map(([block, c]) => [block, c.natural, c.other]);
    return { placed, collected };
  },

  restore(options, data) {
    const saved = data as { placed: [string, string, string][]; collected: [string, number, number][] };
    const placed = new SpillMap<string, Placed>();
    for (const [key, player, block] of saved.placed) placed.set(key, { player, block });
    const collected = new Map(saved.collected.map(([block, natural, other]) => [block, { natural, other }]));
    return { rarity: new Map(Object.entries(options.rarity)), placed, collected };
  },
};
