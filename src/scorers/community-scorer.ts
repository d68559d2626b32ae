/**
 * The part every scorer shares: its state (the parameters and one state per community, created
 * on first use, with the last community used remembered) and the Scorer methods that create the
 * state, list its communities, snapshot one and restore one.
 */
import { parseExactParts, stringifyExactParts } from '../util/json-parts.js';
import { communityNames } from './communities.js';
import type { RankRow, Scorer } from './scorer.js';

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

/** What the shared part of a scorer needs to know of its per-community state `C`. */
export interface CommunityKind<P, C, S> {
  /** An empty community's state. */
  create(params: P): C;
  /** A community's state read back from `snapshot`, what its `toSnapshot()` gave. */
  fromSnapshot(params: P, snapshot: S): C;
}

type SharedMethods = 'initialState' | 'communities' | 'snapshot' | 'restore';

/**
 * `initialState`, `communities`, `snapshot` and `restore` for a scorer whose state is a
 * ScorerState of communities of `kind`: a snapshot is the community's `toSnapshot()` as exact
 * JSON (util/exact-json.ts), read back by `kind.fromSnapshot`.
 */
export function communityScorer<P extends object, C extends { toSnapshot(): unknown }, S>(
  kind: CommunityKind<P, C, S>,
): Pick<Scorer<P, ScorerState<P, C>, RankRow, unknown>, SharedMethods> {
  const { create, fromSnapshot } = kind;
  return {
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
