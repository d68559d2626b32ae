/**
 * The part every scorer shares: its state (the parameters and one state per community, created
 * on first use, with the last community used remembered), the Scorer methods that create the
 * state, list its communities, snapshot one and restore one, and `rank` and `standing` derived
 * from one hook that says how a community's players are ordered (`ranked`).
 */
import { parseExactParts, stringifyExactParts } from '../util/json-parts.js';
import { topOrder } from '../util/top-order.js';
import { byScoreThenId, communityNames, rankByCommunity, rankOf } from './communities.js';
import type { RankQuery, RankRow, Scorer } from './scorer.js';

/**
 * A scorer's state, as its users see it: its parameters and each community's state, by name.
 * Only a state the scorer made itself (from its `initialState`, or what its `evolve` and
 * `restore` return) may be handed back to it: `evolve` and `restore` take it for the
 * CommunityStates below, so an object of one's own with the same two fields would break them.
 */
export interface ScorerState<P, C> {
  readonly params: P;
  readonly communities: ReadonlyMap<string, C>;
}

/**
 * A ScorerState as the scorers' code sees it (`communityScorer`'s `initialState` makes every
 * state one): with the last community used remembered, since most streams stay in one for a while.
 *
 * `evolve` reads the remembered community inline, `name === states.lastCommunity ?
 * states.lastState! : states.enter(name)`, and calls `enter` only on a change: a method doing
 * that check would be inlined into `evolve` on every event, and its bytecode counts against
 * what TurboFan inlines into one function in all (seen with --trace-turbo-inlining on the CQR
 * benchmark: with it, one of the store's two `push` calls was no longer inlined, and its
 * floating-point arguments were boxed on every event). `create` is given to the constructor,
 * once: a closure over the state made in `evolve` would make V8 allocate a context on every event.
 */
export class CommunityStates<P, C> implements ScorerState<P, C> {
  readonly params: P;
  readonly communities = new Map<string, C>();
  /** The community `enter` last returned, and its state; undefined after `replace`. */
  lastCommunity: string | undefined = undefined;
  lastState: C | undefined = undefined;
  readonly #create: (params: P) => C;

  constructor(params: P, create: (params: P) => C) {
    this.params = params;
    this.#create = create;
  }

  /** The state of community `name` (created on first use), remembered as the last used. */
  enter(name: string): C {
    let state = this.communities.get(name);
    if (state === undefined) this.communities.set(name, (state = this.#create(this.params)));
    this.lastCommunity = name;
    this.lastState = state;
    return state;
  }

  /** Replaces (or, given undefined, removes) community `name`'s state, and forgets the last used. */
  replace(name: string, state: C | undefined): void {
    if (state === undefined) this.communities.delete(name);
    else this.communities.set(name, state);
    this.lastCommunity = undefined;
    this.lastState = undefined;
  }
}

/**
 * One community's players as its ranking orders them, what `rank` and `standing` are derived
 * from: players `0..size-1` with their ids and scores, the order (a strict total order: by
 * default the higher score first, ties by id), the players no ranking lists, and a player's row.
 */
export interface Ranked<F> {
  readonly size: number;
  readonly ids: { idAt(index: number): string; indexOf(id: string): number };
  readonly scores: ArrayLike<number>;
  /** The ranking order; `byScoreThenId` when absent. */
  readonly compare?: (a: number, b: number) => number;
  /** Players listed by no ranking (trust's observers, pinned). */
  readonly skip?: (index: number) => boolean;
  /**
   * Player `index`'s row: `rank`, the player's id, its score and `community`, then the scorer's
   * own fields, in one object literal (rows of one shape, built as fast as they can be: adding
   * fields to a row after it is made, or spreading them in, costs a million-row ranking a fifth more).
   */
  row(index: number, rank: number, community: string): RankRow & F;
}

/** What the shared part of a scorer needs to know of its per-community state `C`. */
export interface CommunityKind<P, C, S, F = object> {
  /** An empty community's state. */
  create(params: P): C;
  /** A community's state read back from `snapshot`, what its `toSnapshot()` gave. */
  fromSnapshot(params: P, snapshot: S): C;
  /** How community `c`'s players are ranked: with it, `rank` and `standing` come from the shared part. */
  ranked?(c: C, params: P): Ranked<F>;
}

/** The rows of a community's ranking, cut to `top`: in `ranked`'s order, rank 1 first. */
export function rankedRows<F>(community: string, ranked: Ranked<F>, top: number): (RankRow & F)[] {
  const { ids, scores, skip } = ranked;
  const compare = ranked.compare ?? byScoreThenId(scores, ids);
  const candidates: number[] = [];
  for (let i = 0; i < ranked.size; i++) if (skip?.(i) !== true) candidates.push(i);
  const order = topOrder(candidates, top, compare);
  const rows: (RankRow & F)[] = []; // pushed: `new Array(n)` of a million is a slow dictionary
  for (let r = 0; r < order.length; r++) rows.push(ranked.row(order[r]!, r + 1, community));
  return rows;
}

/** `player`'s score and rank in `ranked` as `rankedRows` gives them, in one pass; undefined when no row is theirs. */
export function rankedStanding(ranked: Ranked<unknown>, player: string): { score: number; rank: number } | undefined {
  const i = ranked.ids.indexOf(player);
  if (i < 0 || ranked.skip?.(i) === true) return undefined;
  return { score: ranked.scores[i]!, rank: rankOf(ranked.size, i, ranked.compare ?? byScoreThenId(ranked.scores, ranked.ids), ranked.skip) };
}

/**
 * `advance` for a scorer whose communities keep a clock (docs/spec.md §1): moves `community`'s
 * (every community's, when absent) to `time`.
 */
export function advanceCommunities<P, C extends { advance(time: number): void }>(state: ScorerState<P, C>, time: number, community: string | undefined): void {
  if (community === undefined) for (const c of state.communities.values()) c.advance(time);
  else (state as CommunityStates<P, C>).enter(community).advance(time);
}

type SharedMethods = 'initialState' | 'communities' | 'snapshot' | 'restore';
type RankMethods = 'rank' | 'standing';

/**
 * `initialState`, `communities`, `snapshot` and `restore` for a scorer whose state is a
 * ScorerState of communities of `kind`: a snapshot is the community's `toSnapshot()` as exact
 * JSON (util/exact-json.ts), read back by `kind.fromSnapshot`.
 */
export function communityScorer<P extends object, C extends { toSnapshot(): unknown }, S, F extends object>(
  kind: CommunityKind<P, C, S, F> & { ranked(c: C, params: P): Ranked<F> },
): Pick<Scorer<P, ScorerState<P, C>, RankRow & F, unknown>, SharedMethods | RankMethods> & {
  standing: NonNullable<Scorer<P, ScorerState<P, C>, RankRow & F, unknown>['standing']>;
};
export function communityScorer<P extends object, C extends { toSnapshot(): unknown }, S>(kind: CommunityKind<P, C, S>): Pick<Scorer<P, ScorerState<P, C>, RankRow, unknown>, SharedMethods>;
export function communityScorer<P extends object, C extends { toSnapshot(): unknown }, S, F extends object>(
  kind: CommunityKind<P, C, S, F>,
): Pick<Scorer<P, ScorerState<P, C>, RankRow & F, unknown>, SharedMethods> & Partial<Pick<Scorer<P, ScorerState<P, C>, RankRow & F, unknown>, RankMethods>> {
  const { create, fromSnapshot, ranked } = kind;
  const ranking =
    ranked === undefined
      ? {}
      : {
          rank(state: ScorerState<P, C>, query: RankQuery = {}): (RankRow & F)[] {
            return rankByCommunity(state.communities, query, (name, c, top) => rankedRows(name, ranked(c, state.params), top));
          },
          standing(state: ScorerState<P, C>, community: string, player: string) {
            const c = state.communities.get(community);
            return c === undefined ? undefined : rankedStanding(ranked(c, state.params), player);
          },
        };
  return {
    ...ranking,
    initialState(params) {
      return new CommunityStates<P, C>(params, create);
    },

    communities(state) {
      return communityNames(state.communities);
    },

    snapshot(state, community) {
      const c = state.communities.get(community);
      if (c === undefined) return undefined;
      const parts = stringifyExactParts(c.toSnapshot()); // in parts when too long for one string
      return parts.length === 1 ? parts[0]! : parts;
    },

    restore(state, community, snapshot) {
      const replacement = snapshot === undefined ? undefined : fromSnapshot(state.params, parseExactParts<S>(snapshot));
      (state as CommunityStates<P, C>).replace(community, replacement);
    },
  };
}
