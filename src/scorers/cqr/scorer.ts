/**
 * The maths: formula.ts.
 * `cqr`: contribution quality rating CQR_{T,x,k} (Quesada & Villacorta §III.1, docs/spec.md §2.1).
 * Consumes `action` events that carry a `delta`; domain actions get their delta from the
 * quality stage (src/quality) before they reach a scorer.
 */
import { EventValidationError } from '../../errors.js';
import type { StandingEvent } from '../../events/types.js';
import { communityScorer, type CommunityStates, type Ranked, type ScorerState } from '../community-scorer.js';
import type { RankRow, Scorer } from '../scorer.js';
import { keepShapes } from '../../util/keep-shapes.js';
import { cqrParams, type CqrParams } from './params.js';
import { CqrCommunityStore, type CqrFilter, type CqrStoreSnapshot } from './store.js';

export type CqrState = ScorerState<CqrParams, CqrCommunityStore>;

export interface CqrRow extends RankRow {
  /** Actions seen for the player, filtered or not. */
  readonly actions: number;
}

export interface CqrExplanation {
  readonly player: string;
  readonly community: string;
  readonly params: CqrParams;
  readonly score: number;
  readonly actions: number;
  /** Which sign g_k keeps, if it applies now. */
  readonly filter: CqrFilter;
  /** The deltas the score sums, oldest first (not kept when T = ∞). */
  readonly window: readonly number[];
}

/** Kept out of `evolve` so the hot path stays small enough to inline. */
function badDelta(event: { readonly delta?: unknown; readonly domain?: string }): never {
  if (typeof event.delta === 'number') throw new EventValidationError(undefined, 'delta', `must be a finite number, got ${event.delta}`);
  throw new EventValidationError(undefined, 'delta', `is missing: a "${event.domain}" action must pass through the quality stage before cqr`);
}

/** How one community ranks: CQR highest first, ties by player id (docs/spec.md §2.1). */
function ranked(store: CqrCommunityStore): Ranked<{ actions: number }> {
  const n = store.size;
  const scores = new Float64Array(n);
  for (let i = 0; i < n; i++) scores[i] = store.scoreAt(i);
  return { size: n, ids: store.players, scores, row: (i, rank, community) => ({ rank, player: store.players.idAt(i), score: scores[i]!, community, actions: store.actionsAt(i) }) };
}

export const cqr: Scorer<CqrParams, CqrState, CqrRow, CqrExplanation> = {
  id: 'cqr',
  rankOneIsWorst: false,
  uses: ['action'],
  params: cqrParams,

  ...communityScorer({
    create: (params: CqrParams) => CqrCommunityStore.create(params),
    fromSnapshot: (params: CqrParams, s: CqrStoreSnapshot) => CqrCommunityStore.fromSnapshot(params, s),
    ranked,
  }),

  evolve(state, event: StandingEvent) {
    if (event.type === 'action') {
      const delta = event.delta;
      if (typeof delta !== 'number' || !Number.isFinite(delta)) badDelta(event);
      const community = event.community;
      const states = state as CommunityStates<CqrParams, CqrCommunityStore>; // made by initialState
      const store = community === states.lastCommunity ? states.lastState! : states.enter(community);
      store.add(event.player, delta!);
    }
    return state;
  },


  explain(state, community, player) {
    const store = state.communities.get(community);
    const index = store?.players.indexOf(player) ?? -1;
    if (store === undefined || index < 0) return undefined;
    return {
      player,
      community,
      params: state.params,
      score: store.scoreAt(index),
      actions: store.actionsAt(index),
      filter: store.filterOf(index),
      window: store.windowAt(index),
    };
  },

};

/** An idle state, so a garbage collection between one state and the next keeps `evolve` compiled (util/keep-shapes.ts). */
keepShapes(cqr.initialState(cqrParams.defaults));
