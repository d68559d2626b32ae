/**
 * Which of a sequence of ratings, given as columns over integer player indices, a rating log
 * would keep when they are appended one by one (RatingLog.append, ./rating-log.ts), and under
 * which indices the log would know their players: the order each is first met in a kept rating,
 * rater before ratee. A withdrawal naming a player not met yet is not kept (it creates no one),
 * and neither is a rating already expired on arrival (its time plus the lifetime at most the
 * newest time so far, that rating's own included).
 *
 * The common case, every rating kept and players first met in index order, is recognized in one
 * pass that reads the columns in order and touches nothing else: the columns are then the log's
 * as they are. Otherwise a second pass copies the kept ratings out under the log's indices.
 */
import { EventValidationError } from '../errors.js';

export interface RatingArrays {
  readonly from: Int32Array;
  readonly to: Int32Array;
  readonly value: Float64Array;
  readonly time: Float64Array;
}

export interface AcceptedRatings {
  /** The kept ratings, over the log's player indices: the input's own arrays when all were kept in index order. */
  readonly ratings: RatingArrays;
  /** Players met: the log's indices 0 .. players - 1. */
  readonly players: number;
  /** The input's index of each of the log's players; undefined: the same index. */
  readonly order: Int32Array | undefined;
  /** The newest time of all the ratings (kept or not), -Infinity when there are none. */
  readonly newest: number;
}

/** Where an error names a rating: its index in the columns. */
const SOURCE = 'ratings';

/** Throws an EventValidationError unless rating `e` is a valid rating over `players` players. */
function check(input: RatingArrays, players: number, e: number): void {
  const f = input.from[e]!;
  const t = input.to[e]!;
  const place = { source: SOURCE, index: e };
  if (!(f >= 0 && f < players)) throw new EventValidationError(place, 'from', `must be a player index in [0, ${players}), got ${f}`);
  if (!(t >= 0 && t < players)) throw new EventValidationError(place, 'to', `must be a player index in [0, ${players}), got ${t}`);
  if (f === t) throw new EventValidationError(place, 'to', 'must differ from "from": self-ratings are rejected (docs/spec.md §4)');
  const v = input.value[e]!;
  if (!(v >= -1 && v <= 1)) throw new EventValidationError(place, 'value', `must be in [-1, 1], got ${v}`);
  if (!Number.isFinite(input.time[e]!)) throw new EventValidationError(place, 'time', `must be a finite number of epoch milliseconds, got ${input.time[e]}`);
}

/**
 * The ratings of `input` a log with ratings living `lifetime` ms would keep, appended in order
 * (see the file's comment). Every rating is checked first: player indices in [0, players), no
 * self-rating, value in [-1, 1], a finite time (EventValidationError naming the rating's index).
 */
export function acceptRatings(input: RatingArrays, players: number, lifetime: number): AcceptedRatings {
  const { from, to, value, time } = input;
  const n = from.length;
  let newest = -Infinity;
  let met = 0;
  let inOrder = true;
  let allKept = true;
  for (let e = 0; e < n; e++) {
    check(input, players, e);
    if (time[e]! > newest) newest = time[e]!;
    if (!inOrder) continue;
    const f = from[e]!;
    const t = to[e]!;
    // In index order, the players met so far are exactly 0 .. met - 1.
    if (value[e] === 0 ? f >= met || t >= met : time[e]! + lifetime <= newest) {
      allKept = false;
      continue;
    }
    if (f === met) met++;
    else if (f > met) inOrder = false;
    if (t === met) met++;
    else if (t > met) inOrder = false;
  }
  if (inOrder && allKept) return { ratings: input, players: met, order: undefined, newest };
  return { ...relabelled(input, players, lifetime), newest };
}

/** The kept ratings copied out under the log's player indices, with the input's index of each player. */
function relabelled(input: RatingArrays, players: number, lifetime: number): Omit<AcceptedRatings, 'newest'> {
  const { from, to, value, time } = input;
  const n = from.length;
  const label = new Int32Array(players).fill(-1);
  const order = new Int32Array(players);
  const out = { from: new Int32Array(n), to: new Int32Array(n), value: new Float64Array(n), time: new Float64Array(n) };
  let met = 0;
  let kept = 0;
  let newest = -Infinity;
  for (let e = 0; e < n; e++) {
    const f = from[e]!;
    const t = to[e]!;
    if (time[e]! > newest) newest = time[e]!;
    if (value[e] === 0 ? label[f]! < 0 || label[t]! < 0 : time[e]! + lifetime <= newest) continue;
    if (label[f]! < 0) order[(label[f] = met++)] = f;
    if (label[t]! < 0) order[(label[t] = met++)] = t;
    out.from[kept] = label[f]!;
    out.to[kept] = label[t]!;
    out.value[kept] = value[e]!;
    out.time[kept] = time[e]!;
    kept++;
  }
  const ratings = kept === n ? out : { from: out.from.slice(0, kept), to: out.to.slice(0, kept), value: out.value.slice(0, kept), time: out.time.slice(0, kept) };
  return { ratings, players: met, order: order.slice(0, met) };
}
