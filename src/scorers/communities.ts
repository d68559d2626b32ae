/** What every scorer does to rank its communities: the ranking order, one player's rank found in one pass, and the rankings of one community or all. */
import type { RankQuery } from './scorer.js';

/** Ranking order: the higher score first, ties by player id in UTF-16 code-unit order (JavaScript's `<`). */
export function byScoreThenId(scores: ArrayLike<number>, ids: { idAt(index: number): string }): (a: number, b: number) => number {
  return (a, b) => {
    const diff = scores[b]! - scores[a]!;
    if (diff !== 0) return diff;
    const ia = ids.idAt(a);
    const ib = ids.idAt(b);
    return ia < ib ? -1 : ia > ib ? 1 : 0;
  };
}

/**
 * The rank (1 = first) item `index` of `0..n-1` has under `compare` (a strict total order, as
 * the ranking sorts by), counting the items before it in one pass; `skip` leaves items out of
 * the ranking. The same rank a sort of all `n` items would give, in O(n).
 */
export function rankOf(n: number, index: number, compare: (a: number, b: number) => number, skip?: (item: number) => boolean): number {
  let rank = 1;
  for (let i = 0; i < n; i++) if (i !== index && compare(i, index) < 0 && skip?.(i) !== true) rank++;
  return rank;
}

/** Community names in code-point order. */
export function communityNames(map: ReadonlyMap<string, unknown>): string[] {
  return [...map.keys()].sort();
}

/** The rankings of the queried community (or of every one, by name), each cut to `top`. */
export function rankByCommunity<C, R>(
  map: ReadonlyMap<string, C>,
  query: RankQuery,
  rankOne: (name: string, state: C, top: number) => R[],
): R[] {
  const top = query.top ?? Infinity;
  const names = query.community === undefined ? communityNames(map) : [query.community];
  return names.flatMap((name) => {
    const state = map.get(name);
    return state === undefined ? [] : rankOne(name, state, top);
  });
}
