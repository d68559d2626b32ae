/**
 * `recommendation`: a recommendation site (Quesada & Villacorta §III.6, eq. 10 with docs/spec.md §2.2's
 * minus sign).
 *
 *   Q = −(1/|items|) Σ_i σ²_i
 *
 * σ²_i is the population variance of item i's ratings, one rating per player (a new rating by
 * the same player replaces the old one). Q is 0 with no items. Each item keeps n, mean and M2
 * (Welford), so a rating costs O(1).
 */
import type { ActionEvent } from '../events/types.js';
import { defineParams } from '../params/define.js';
import type { QualityDomain } from './domain.js';
import { finiteField, idField, opField } from './payload.js';

/** The domain has no options. */
export type RecommendationOptions = Record<never, never>;

interface Item {
  /** Player → that player's rating of the item. */
  readonly ratings: Map<string, number>;
  mean: number;
  /** Σ (rating − mean)². */
  m2: number;
}

export interface RecommendationState {
  readonly items: Map<string, Item>;
  /** Σ_i σ²_i. */
  varianceSum: number;
}

function variance(item: Item): number {
  return item.m2 / item.ratings.size;
}

function meanVariance(state: RecommendationState): number {
  return state.items.size === 0 ? 0 : state.varianceSum / state.items.size;
}

function readPayload(action: ActionEvent): { item: string; stars: number } {
  opField(action, ['rate'], 'rate');
  return { item: idField(action, 'item'), stars: finiteField(action, 'stars') };
}

/** Welford: adds rating x. */
function add(item: Item, player: string, x: number): void {
  item.ratings.set(player, x);
  const n = item.ratings.size;
  const delta = x - item.mean;
  item.mean += delta / n;
  item.m2 += delta * (x - item.mean);
}

/** Replaces rating `old` by x (same n): mean' = mean + (x − old)/n, M2' = M2 + (x − old)(x − mean' + old − mean). */
function replace(item: Item, player: string, old: number, x: number): void {
  item.ratings.set(player, x);
  const n = item.ratings.size;
  if (n === 1) {
    item.mean = x;
    item.m2 = 0;
    return;
  }
  const mean = item.mean + (x - old) / n;
  item.m2 = Math.max(0, item.m2 + (x - old) * (x - mean + old - item.mean));
  item.mean = mean;
}

export const recommendation: QualityDomain<RecommendationOptions, RecommendationState> = {
  name: 'recommendation',
  options: defineParams<RecommendationOptions>('recommendation', {}, {}),

  initialState() {
    return { items: new Map(), varianceSum: 0 };
  },

  apply(state, action) {
    const { item: id, stars } = readPayload(action);
    const before = meanVariance(state);
    let item = state.items.get(id);
    if (item === undefined) {
      item = { ratings: new Map(), mean: 0, m2: 0 };
      state.items.set(id, item);
    }
    const varianceBefore = item.ratings.size === 0 ? 0 : variance(item);
    const old = item.ratings.get(action.player);
    if (old === undefined) add(item, action.player, stars);
    else replace(item, action.player, old, stars);
    state.varianceSum = Math.max(0, state.varianceSum + variance(item) - varianceBefore);
    return before - meanVariance(state);
  },

  quality(state) {
    return 0 - meanVariance(state); // not −x: an empty site has Q = +0, not −0
  },

  snapshot(state) {
    const items = [...state.items].map(([id, item]) => [id, item.mean, item.m2, [...item.ratings]]);
    return { items, varianceSum: state.varianceSum };
  },

  restore(_options, data) {
    const saved = data as { items: [string, number, number, [string, number][]][]; varianceSum: number };
    const items = new Map(saved.items.map(([id, mean, m2, ratings]) => [id, { ratings: new Map(ratings), mean, m2 }]));
    return { items, varianceSum: saved.varianceSum };
  },
};
