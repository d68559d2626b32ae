/**
 * The maths: formula.ts.
 * `trust`: PlayerRating (Kaiser & Feng; docs/spec.md §4). Signed ratings in [−1, 1], expiring, weighted
 * by the rater's own reputation as seen from an observer set (one player: a personal view; the
 * moderators: the community's view).
 */
import { ParameterError } from '../../errors.js';
import type { StandingEvent } from '../../events/types.js';
import { communityNames } from '../communities.js';
import { advanceCommunities, communityScorer, rankedRows, type CommunityStates, type Ranked, type ScorerState } from '../community-scorer.js';
import type { ComputationStats, RankQuery, RankRow, Scorer } from '../scorer.js';
import { TrustCommunity, type TrustResult, type TrustSnapshot } from './community.js';
import { trustParams, type TrustParams } from './params.js';

export type TrustState = ScorerState<TrustParams, TrustCommunity>;

export interface TrustRow extends RankRow {
  /** Live ratings the player has received. */
  readonly ratings: number;
  /** With a single observer: that observer's own rating of the player (null if none). */
  readonly rating?: number | null;
}

export interface TrustExplanation {
  readonly player: string;
  readonly community: string;
  readonly observers: readonly string[];
  readonly score: number;
  readonly iterations: number;
  readonly rmsd: number;
  /**
   * With the trust-flow defence, when it cut this player's positive reputation to 0: the reputation
   * the iteration reached (which the shares explain) and the player's flow, below minFlow.
   */
  readonly cut?: FlowCut;
  /** The ratings that make up the score, heaviest first, with each one's share of the weight. */
  readonly ratings: readonly {
    readonly rater: string;
    readonly value: number;
    /** When the rating was (last) set: its event's own time, epoch ms. */
    readonly time: number;
    readonly ttl: number;
    readonly decay: number;
    /** The rater's reputation as the iteration weighed it (before any flow cut: see `cut`). */
    readonly raterReputation: number;
    /** The rater's weight Inf(R_i)·w_ij as a share of all weights (0 when the rater has no influence). */
    readonly share: number;
    /** With the trust-flow defence, when the rater's own reputation was cut to 0 after the iteration. */
    readonly cut?: FlowCut;
  }[];
}

/** A positive reputation the trust-flow defence set to 0: the iteration's value and the flow below minFlow. */
export interface FlowCut {
  readonly reputation: number;
  readonly flow: number;
}

/** Player i's flow cut in `result`, if the trust-flow defence cut its reputation. */
function flowCut(result: TrustResult, i: number): { cut: FlowCut } | undefined {
  const { iterated, flow } = result;
  if (iterated === undefined || flow === undefined || iterated[i] === result.reputation[i]) return undefined;
  return { cut: { reputation: iterated[i]!, flow: flow[i]! } };
}

function requireObservers(params: TrustParams): void {
  if (params.observers.length === 0) {
    throw new ParameterError('trust', 'observers', 'is required: the players whose view to compute (one player for a personal view, or the moderators)');
  }
}

/** How one community ranks as `observers` (by default the parameter's) see it: the observers are pinned, not ranked (spec §4). */
function ranked(c: TrustCommunity, observerIds?: readonly string[]): Ranked<Pick<TrustRow, 'ratings' | 'rating'>> {
  const result = c.compute(observerIds);
  const { reputation, observers, csr } = result;
  const pinned = new Set(observers);
  const single = observers.length === 1 ? observers[0]! : -1;
  return {
    size: c.ratings.players.size,
    ids: c.ratings.players,
    scores: reputation,
    skip: (i) => pinned.has(i),
    row: (i, rank, community) => {
      const row = { rank, player: c.ratings.players.idAt(i), score: reputation[i]!, community, ratings: csr.offsets[i + 1]! - csr.offsets[i]! };
      return single < 0 ? row : { ...row, rating: c.ratingOf(result, single, i) };
    },
  };
}

const shared = communityScorer({
  create: (params: TrustParams) => new TrustCommunity(params),
  fromSnapshot: (params: TrustParams, s: TrustSnapshot) => TrustCommunity.fromSnapshot(params, s),
  ranked: (c: TrustCommunity) => ranked(c),
});

export const trust: Scorer<TrustParams, TrustState, TrustRow, TrustExplanation> = {
  id: 'trust',
  rankOneIsWorst: false,
  uses: ['rating'],
  revision: 2, // 2: every event moves a community's clock (1: ratings only)
  params: trustParams,

  ...shared,

  evolve(state, event: StandingEvent) {
    const name = event.community;
    const states = state as CommunityStates<TrustParams, TrustCommunity>; // made by initialState
    const c = name === states.lastCommunity ? states.lastState! : states.enter(name);
    // Every event moves the community's clock, whatever its type (docs/spec.md §1).
    c.advance(event.time);
    if (event.type === 'rating') c.rate(event.from, event.to, event.value, event.time);
    return state;
  },

  rank(state, query: RankQuery = {}) {
    requireObservers(state.params);
    return shared.rank(state, query);
  },

  explain(state, name, player) {
    requireObservers(state.params);
    const c = state.communities.get(name);
    const j = c?.ratings.players.indexOf(player) ?? -1;
    if (c === undefined || j < 0) return undefined;
    const result = c.compute();
    const p = state.params;
    const { offsets } = result.csr;
    // The reputations the iteration weighed: before the trust-flow cut, when the defence is on.
    const weighed = result.iterated ?? result.reputation;
    const incoming: { rater: string; value: number; time: number; ttl: number; decay: number; raterReputation: number; weight: number; cut?: FlowCut }[] = [];
    for (let k = offsets[j]!, end = offsets[j + 1]!; k < end; k++) {
      const e = result.entries[k]!;
      const source = c.ratings.fromAt(e);
      const ri = weighed[source]!;
      const ttl = c.ttlOf(e);
      const value = c.ratings.valueAt(e);
      const inf = p.influence(ri);
      incoming.push({
        rater: c.ratings.players.idAt(source),
        value,
        time: c.ratings.timeAt(e),
        ttl,
        decay: p.decay(ttl, p.ttlMax),
        raterReputation: ri,
        weight: inf > 0 ? (value < 0 ? inf * p.negativeWeight : inf) : 0,
        ...flowCut(result, source),
      });
    }
    const total = incoming.reduce((sum, r) => sum + r.weight, 0);
    return {
      player,
      community: name,
      observers: p.observers,
      score: result.reputation[j]!,
      iterations: result.iterations,
      rmsd: result.residuals.at(-1) ?? 0,
      ...flowCut(result, j),
      ratings: incoming
        .map(({ weight, ...rest }) => ({ ...rest, share: total > 0 ? weight / total : 0 }))
        .sort((a, b) => b.share - a.share || (a.rater < b.rater ? -1 : 1)),
    };
  },

  stats(state, community) {
    requireObservers(state.params);
    return trustStats(state, community);
  },

  advance(state, time, community) {
    advanceCommunities(state, time, community);
  },

  standing(state, name, player) {
    requireObservers(state.params);
    return shared.standing(state, name, player);
  },
};

/**
 * Iterations and residuals of the last computation per community, or of `only` (for `--stats`),
 * as the parameter's observers see it, or `observers` when given (as `trustRanking` takes them).
 */
export function trustStats(state: TrustState, only?: string, observers?: readonly string[]): ComputationStats[] {
  const names = only === undefined ? communityNames(state.communities) : state.communities.has(only) ? [only] : [];
  return names.map((community) => {
    const c = state.communities.get(community)!;
    const r = c.compute(observers);
    const stats = { community, iterations: r.iterations, residual: r.residuals.at(-1) ?? 0, converged: r.converged, milliseconds: r.milliseconds };
    const warning = silentWarning(state.params, c, r);
    return warning === undefined ? stats : { ...stats, warning };
  });
}

/**
 * Why every reputation of a community is 0, when it is: no rating in force reaches from the
 * observers (players exist only through ratings, so a community with players had some).
 */
function silentWarning(p: TrustParams, c: TrustCommunity, r: TrustResult): string | undefined {
  const players = c.ratings.players.size;
  const observers = new Set(r.observers);
  for (let i = 0; i < players; i++) if (!observers.has(i) && r.reputation[i] !== 0) return undefined;
  if (players === observers.size) return undefined;
  const live = r.csr.offsets[players]!;
  const clock = Number.isFinite(c.now) ? new Date(c.now).toISOString() : 'the start';
  const lifetime = `ttlMax × expireHours = ${p.ttlMax * p.expireHours} h`;
  return live === 0
    ? `every reputation is 0: no rating is in force at ${clock} (each expires ${lifetime} after it is set, or was withdrawn)`
    : `every reputation is 0: ${live} rating${live === 1 ? ' is' : 's are'} in force at ${clock} (each expires ${lifetime} after it is set), and none reaches from the observers`;
}

/**
 * The ranking of `community` as `observers` see it (overriding the parameter): one player's
 * personal view, or any observer set, without replaying anything. The rows are those `rank` gives
 * with these observers: the observers themselves are pinned, not ranked (spec §4).
 */
export function trustRanking(state: TrustState, community: string, observers: readonly string[], query: Pick<RankQuery, 'top'> = {}): TrustRow[] {
  requireObservers({ ...state.params, observers });
  const c = state.communities.get(community);
  return c === undefined ? [] : rankedRows(community, ranked(c, observers), query.top ?? Infinity);
}

/**
 * Reputations in `community` as seen by `observers` (overriding the parameter), without
 * replaying anything: one player's personal view, or any observer set. Every player of the
 * community is in it, the observers at their pinned 1 (the paper's GetReputation); for a ranking,
 * which leaves them out, see `trustRanking`.
 */
export function trustView(state: TrustState, community: string, observers: readonly string[]): Map<string, number> {
  const c = state.communities.get(community);
  if (c === undefined) return new Map();
  const { reputation } = c.compute(observers);
  const ids = c.ratings.players;
  const view = new Map<string, number>();
  for (let i = 0; i < ids.size; i++) view.set(ids.idAt(i), reputation[i]!);
  return view;
}
