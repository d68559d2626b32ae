/**
 * The graph of `npm run bench:scale`: part 5's shape (bench/trust-and-reports.ts) at scale. Raters
 * uniform, ratees skewed (⌊n·u²⌋: some players are rated far more than others), 80 % positive
 * values in tenths, seeded. Part 5 draws distinct pairs through a Set, which cannot hold 100
 * million; here a pair may repeat (rarely: the later rating supersedes the earlier). Players are
 * then numbered in the order they are first met, rater before ratee, as an id table assigning
 * indices to ids on arrival would: the order loadTrustRatings takes the columns over in. The C
 * floor (./csr-floor.c) generates the same edges; the checksum tells.
 */
import { seededRng } from '../../src/util/random.js';

export const SEED = 20240601;

export interface ScaleGraph {
  readonly from: Int32Array;
  readonly to: Int32Array;
  readonly value: Float64Array;
  readonly time: Float64Array;
  /** Players met (those never met have no index). */
  readonly players: number;
  /** As ./csr-floor.c computes it over the relabelled edges. */
  readonly checksum: number;
}

export function scaleGraph(players: number, ratings: number): ScaleGraph {
  const rng = seededRng(SEED);
  const from = new Int32Array(ratings);
  const to = new Int32Array(ratings);
  const value = new Float64Array(ratings);
  for (let e = 0; e < ratings; ) {
    const f = Math.floor(rng() * players);
    const u = rng();
    const t = Math.floor(players * (u * u));
    if (f === t) continue;
    from[e] = f;
    to[e] = t;
    value[e] = rng() < 0.8 ? Math.ceil(rng() * 10) / 10 : -Math.ceil(rng() * 10) / 10;
    e++;
  }
  const label = new Int32Array(players).fill(-1);
  let met = 0;
  let checksum = 0;
  for (let e = 0; e < ratings; e++) {
    if (label[from[e]!]! < 0) label[from[e]!] = met++;
    if (label[to[e]!]! < 0) label[to[e]!] = met++;
    from[e] = label[from[e]!]!;
    to[e] = label[to[e]!]!;
    checksum = (Math.imul(checksum, 31) + Math.imul(from[e]!, 1000003) + to[e]!) >>> 0;
  }
  return { from, to, value, time: new Float64Array(ratings), players: met, checksum };
}
