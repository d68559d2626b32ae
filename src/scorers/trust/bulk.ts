/**
 * `loadTrustRatings`: a trust state from ratings given as typed-array columns over integer player
 * indices, for replaying large logs without one event object and two id look-ups per rating. The
 * state is the one `trust.evolve` reaches on the same ratings as events, in the same order: the same
 * players under the same indices, the same log, so the same scores, rankings and snapshots.
 */
import { acceptRatings } from '../../graph/accept-ratings.js';
import { RatingLog } from '../../graph/rating-log.js';
import { DEFAULT_COMMUNITY } from '../../events/types.js';
import { InputError } from '../../errors.js';
import { Interner } from '../../util/interner.js';
import type { CommunityStates } from '../community-scorer.js';
import { TrustCommunity } from './community.js';
import { trust, type TrustState } from './scorer.js';
import type { TrustParams } from './params.js';

/** One community's ratings, in event order: rating e is players[from[e]] → players[to[e]] = value[e] at time[e]. */
export interface TrustRatings {
  /** The players' ids by index; or how many players there are, their ids then being their indices in decimal ("0", "1", …). */
  readonly players: readonly string[] | number;
  readonly from: Int32Array;
  readonly to: Int32Array;
  /** In [-1, 1]; 0 withdraws the pair's rating. */
  readonly value: Float64Array;
  /** Event time, epoch ms. */
  readonly time: Float64Array;
}

export interface TrustLoadOptions {
  /** The community the ratings belong to (default "default"). */
  readonly community?: string;
  /**
   * Moves the community's clock on to this time after the ratings (as later events of other
   * types, or `--now`, would): ratings expire by it.
   */
  readonly now?: number;
}

/** Where load errors name their source. */
const SOURCE = 'loadTrustRatings';

/**
 * A trust state holding `ratings` in one community, as `trust.evolve` would leave a fresh state
 * after the same ratings as rating events, one by one and in order (docs/library.md). The columns
 * are taken over, not copied, when every rating is kept and players are first met in index order
 * (rater before ratee): the caller must not change them afterwards. `params` as trust.params.resolve
 * takes them. Throws a ParameterError for bad parameters, an InputError when the columns differ in
 * length or `players` is not a list of distinct ids (or a count), and an EventValidationError naming
 * the first invalid rating's index (a player index out of range, a self-rating, a value outside
 * [-1, 1], a time that is not finite). No ratings and no `now`: a state with no community, as no events give.
 */
export function loadTrustRatings(params: Readonly<Record<string, unknown>> | TrustParams, ratings: TrustRatings, options: TrustLoadOptions = {}): TrustState {
  const resolved = trust.params.resolve(params as Readonly<Record<string, unknown>>);
  const { from, to, value, time } = ratings;
  const n = from.length;
  if (to.length !== n || value.length !== n || time.length !== n) {
    throw new InputError(SOURCE, `from, to, value and time must have one entry per rating: ${n}, ${to.length}, ${value.length} and ${time.length} given`);
  }
  const ids = ratings.players;
  const count = typeof ids === 'number' ? ids : ids.length;
  if (!(Number.isInteger(count) && count >= 0 && count <= 2 ** 31)) throw new InputError(SOURCE, `players must be a list of ids or a count of players, got ${String(ids)}`);
  const state = trust.initialState(resolved);
  if (n === 0 && options.now === undefined) return state;
  const community = new TrustCommunity(resolved);
  const accepted = acceptRatings(ratings, count, community.ratings.lifetime);
  const { order } = accepted;
  const idOf = typeof ids === 'number' ? (i: number) => String(i) : (i: number) => ids[i]!;
  const players = new Interner();
  for (let i = 0; i < accepted.players; i++) {
    const id = idOf(order === undefined ? i : order[i]!);
    if (players.intern(id) !== i) throw new InputError(SOURCE, `players lists the id "${id}" twice`);
  }
  const kept = accepted.ratings;
  community.ratings = RatingLog.adopt(community.ratings.lifetime, players, kept.from, kept.to, kept.value, kept.time, accepted.newest);
  if (options.now !== undefined) community.advance(options.now);
  (state as CommunityStates<TrustParams, TrustCommunity>).replace(options.community ?? DEFAULT_COMMUNITY, community);
  return state;
}
