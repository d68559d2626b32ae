/** What every scorer does with its per-community states: create on first use, rank each, list. */
import { parseExactParts, stringifyExactParts, type TextParts } from '../util/json-parts.js';
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

/** A scorer's per-community states, with the last community used remembered: most streams stay in one. */
export interface CommunityStates<C> {
  readonly communities: Map<string, C>;
  lastCommunity: string | undefined;
  lastState: C | undefined;
}

/**
 * The state of `name` (created by `create(states)` on first use), remembered as the last used.
 * Scorers check `name === states.lastCommunity` inline first and call this only on a change,
 * passing a module-level `create`: a closure over the scorer's state written in `evolve` would
 * make V8 allocate a context on every event.
 */
export function enterCommunity<S extends CommunityStates<C>, C>(states: S, name: string, create: (states: S) => C): C {
  let state = states.communities.get(name);
  if (state === undefined) states.communities.set(name, (state = create(states)));
  states.lastCommunity = name;
  states.lastState = state;
  return state;
}

/** Forgets the remembered community (after a restore replaced its state). */
export function forgetLastCommunity<C>(states: CommunityStates<C>): void {
  states.lastCommunity = undefined;
  states.lastState = undefined;
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

/**
 * One community's state as exact JSON text (in parts when too long for one string), or undefined
 * when the community has none (Scorer.snapshot).
 */
export function snapshotCommunity<C extends { toSnapshot(): unknown }>(map: ReadonlyMap<string, C>, name: string): TextParts | undefined {
  const state = map.get(name);
  if (state === undefined) return undefined;
  const parts = stringifyExactParts(state.toSnapshot());
  return parts.length === 1 ? parts[0]! : parts;
}

/** Replaces (or, given undefined, removes) one community's state (Scorer.restore). */
export function restoreCommunity<C, S>(map: Map<string, C>, name: string, snapshot: TextParts | undefined, read: (parsed: S) => C): void {
  if (snapshot === undefined) map.delete(name);
  else map.set(name, read(parseExactParts<S>(snapshot)));
}
