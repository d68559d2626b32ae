/**
 * The counting sort behind RatingLog.byRatee (./rating-log.ts): a log's entries grouped by ratee,
 * in log order within a ratee, then cut to the ratings in force (the latest arrival per pair, when
 * it is neither a withdrawal nor expired).
 *
 * One counting sort straight into the CSR writes every entry to a random place in three arrays
 * of the log's size (and bumps a random one of `players` counters): on graphs of millions of
 * players, every write misses the caches and the TLB. So it sorts in two passes, as a radix sort
 * does. The first reads the log in order and appends each entry to its bucket, the ratees
 * [b·2^shift, (b+1)·2^shift), in the bucket's own range of the output (a few hundred buckets:
 * as many sequential write streams). The second sorts each bucket in place by ratee, with
 * counters for the bucket's ratees alone, which stay in the caches, as does the bucket's range.
 * Both passes keep log order, so the result is that of one stable counting sort.
 *
 * Logs small enough for the caches and the TLB (ONE_PASS_MAX_ENTRIES) are sorted in one pass.
 *
 * The cut (run on each bucket while it is in the caches) walks each ratee's entries newest first: the first met per rater is the pair's latest
 * arrival. A row of at most SMALL_ROW entries compares its raters among themselves; a longer
 * one marks raters in an array of one slot per player (a random access per entry).
 */
import type { RatingColumns } from './rating-columns.js';

/** Buckets the first pass aims at: about as many write streams as the caches keep apart. */
const TARGET_BUCKETS = 512;
/** Rows up to this long find repeated raters by comparing them among themselves. */
const SMALL_ROW = 32;
/**
 * Logs of up to this many entries are grouped in one pass: while the arrays are a few tens of MB
 * the scattered writes cost less than a second pass (measured on part 5's graph: 1M ratings
 * ~15 % less CPU in one pass, 4M alike, 16M ~11 % more).
 */
const ONE_PASS_MAX_ENTRIES = 1 << 22;

/** The CSR under construction, with each entry's log position (`entries`). */
export interface RateeGroups {
  readonly offsets: Int32Array;
  readonly sources: Int32Array;
  readonly weights: Float64Array;
  readonly entries: Int32Array;
}

export interface GroupRequest {
  readonly players: number;
  /** Entries [0, length) of `columns` are grouped. */
  readonly length: number;
  readonly columns: RatingColumns;
  /** Whether the entry of `value` set at `time` is in force (a withdrawal or an expired rating is not). */
  readonly inForce: (value: number, time: number) => boolean;
  readonly weigh: (value: number, time: number) => number;
  /** One counting sort or the two-pass one (same result); default by the log's size (ONE_PASS_MAX_ENTRIES). */
  readonly passes?: 1 | 2;
}

/** log2 of the ratees per bucket: at most TARGET_BUCKETS buckets, and a ratee's place within its bucket fits 16 bits. */
export function bucketShift(players: number): number {
  let shift = 8;
  while (shift < 16 && players > TARGET_BUCKETS << shift) shift++;
  return shift;
}

/**
 * Groups the entries by ratee into `out` (offsets of players + 1 entries; the others of at least
 * `length`), in log order within a ratee; not in force, an entry's source is stored as ~rater
 * (negative) and its weight as 0. Each bucket's rows are cut to their ratings in force as soon
 * as it is sorted (LiveCut); returns how many are kept, and `offsets` then describe them.
 */
export function groupByRatee(request: GroupRequest, out: RateeGroups): number {
  const passes = request.passes ?? (request.length <= ONE_PASS_MAX_ENTRIES ? 1 : 2);
  return passes === 1 ? groupInOnePass(request, out) : groupInTwoPasses(request, out);
}

/** One counting sort straight into the CSR, then the cut: cheaper while the log's arrays are small. */
function groupInOnePass(request: GroupRequest, out: RateeGroups): number {
  const { players: n, length, columns, inForce, weigh } = request;
  const { offsets, sources, weights, entries } = out;
  offsets.fill(0);
  forEachChunk(columns, length, (c, end) => {
    const to = columns.to[c]!;
    for (let i = 0; i < end; i++) offsets[to[i]! + 1]!++;
  });
  for (let j = 0; j < n; j++) offsets[j + 1]! += offsets[j]!;
  const fill = offsets.slice(0, n);
  forEachChunk(columns, length, (c, end, base) => {
    const from = columns.from[c]!;
    const to = columns.to[c]!;
    const value = columns.value[c]!;
    const time = columns.time[c]!;
    for (let i = 0; i < end; i++) {
      const at = fill[to[i]!]!++;
      const live = inForce(value[i]!, time[i]!);
      sources[at] = live ? from[i]! : ~from[i]!; // negative: supersedes, but is not in force
      weights[at] = live ? weigh(value[i]!, time[i]!) : 0;
      entries[at] = base + i;
    }
  });
  const kept = new LiveCut(n, out).rows(0, n, length, 0);
  offsets[n] = kept;
  return kept;
}

/** The two-pass sort of the module comment, for logs too large for one pass's scattered writes. */
function groupInTwoPasses(request: GroupRequest, out: RateeGroups): number {
  const { players: n, length, columns, inForce, weigh } = request;
  const { offsets, sources, weights, entries } = out;
  const shift = bucketShift(n);
  const mask = (1 << shift) - 1;
  const buckets = Math.ceil(n / (1 << shift));
  // Bucket sizes, then each bucket's start (bucketStart[b]) and its next free slot (fill[b]).
  const bucketStart = new Int32Array(buckets + 1);
  forEachChunk(columns, length, (c, end) => {
    const to = columns.to[c]!;
    for (let i = 0; i < end; i++) bucketStart[(to[i]! >>> shift) + 1]!++;
  });
  for (let b = 0; b < buckets; b++) bucketStart[b + 1]! += bucketStart[b]!;
  const fill = bucketStart.slice(0, buckets);
  // First pass: each entry appended to its bucket, with its ratee's place within the bucket.
  const place = new Uint16Array(length);
  forEachChunk(columns, length, (c, end, base) => {
    const from = columns.from[c]!;
    const to = columns.to[c]!;
    const value = columns.value[c]!;
    const time = columns.time[c]!;
    for (let i = 0; i < end; i++) {
      const ratee = to[i]!;
      const at = fill[ratee >>> shift]!++;
      const live = inForce(value[i]!, time[i]!);
      sources[at] = live ? from[i]! : ~from[i]!; // negative: supersedes, but is not in force
      weights[at] = live ? weigh(value[i]!, time[i]!) : 0;
      entries[at] = base + i;
      place[at] = ratee & mask;
    }
  });
  // Second pass: each bucket sorted by ratee, through a copy of it.
  let largest = 0;
  for (let b = 0; b < buckets; b++) largest = Math.max(largest, bucketStart[b + 1]! - bucketStart[b]!);
  const copy = { sources: new Int32Array(largest), weights: new Float64Array(largest), entries: new Int32Array(largest), place: new Uint16Array(largest) };
  const next = new Int32Array(mask + 2);
  const cut = new LiveCut(n, out);
  let kept = 0;
  for (let b = 0; b < buckets; b++) {
    const begin = bucketStart[b]!;
    const end = bucketStart[b + 1]!;
    const first = b << shift;
    const ratees = Math.min(mask + 1, n - first);
    next.fill(0);
    for (let k = begin; k < end; k++) next[place[k]! + 1]!++;
    let at = begin;
    for (let r = 0; r < ratees; r++) {
      const size = next[r + 1]!;
      next[r] = at;
      offsets[first + r] = at;
      at += size;
    }
    const size = end - begin;
    copy.sources.set(sources.subarray(begin, end));
    copy.weights.set(weights.subarray(begin, end));
    copy.entries.set(entries.subarray(begin, end));
    copy.place.set(place.subarray(begin, end));
    for (let k = 0; k < size; k++) {
      const to = next[copy.place[k]!]!++;
      sources[to] = copy.sources[k]!;
      weights[to] = copy.weights[k]!;
      entries[to] = copy.entries[k]!;
    }
    // The bucket's rows, still in the caches, cut to their ratings in force.
    kept = cut.rows(first, first + ratees, end, kept);
  }
  offsets[n] = kept;
  return kept;
}

/** Calls `visit(chunk, entries used in it, first entry's position)` for each chunk holding entries of [0, length). */
function forEachChunk(columns: RatingColumns, length: number, visit: (chunk: number, end: number, base: number) => void): void {
  for (let c = 0, base = 0; base < length; base += columns.to[c++]!.length) visit(c, Math.min(columns.to[c]!.length, length - base), base);
}

/**
 * Cuts rows of grouped entries (in log order within a row) to their ratings in force: walking a
 * row newest first, the first entry met per rater is the pair's latest arrival, kept when in force
 * (source ≥ 0); the others are superseded. Survivors keep their log order and move down to follow
 * the survivors of the rows before.
 */
class LiveCut {
  /** Per player, the last row that met it as a rater (rows longer than SMALL_ROW only). */
  private lastRow: Int32Array | undefined;
  /** The raters of a short row, compared among themselves. */
  private readonly raters = new Int32Array(SMALL_ROW);
  /** Per entry of a row, whether it survives. */
  private keep = new Uint8Array(SMALL_ROW);

  constructor(
    private readonly players: number,
    private readonly groups: RateeGroups,
  ) {}

  /**
   * Cuts rows [first, last), whose entries run from offsets[first] to `end`, moving the survivors
   * down to start at `kept`; sets offsets[first .. last) to where each row's survivors now start.
   * Returns `kept` plus the survivors.
   */
  rows(first: number, last: number, end: number, kept: number): number {
    const { offsets, sources, weights, entries } = this.groups;
    for (let j = first; j < last; j++) {
      const begin = offsets[j]!;
      const rowEnd = j + 1 < last ? offsets[j + 1]! : end;
      const size = rowEnd - begin;
      const keep = this.marks(j, begin, size);
      offsets[j] = kept;
      for (let k = 0; k < size; k++) {
        if (keep[k] === 0) continue;
        const from = begin + k;
        if (from !== kept) {
          sources[kept] = sources[from]!;
          weights[kept] = weights[from]!;
          entries[kept] = entries[from]!;
        }
        kept++;
      }
    }
    return kept;
  }

  /** keep[k] = 1 for the entries of row j ([begin, begin + size)) that survive. */
  private marks(j: number, begin: number, size: number): Uint8Array {
    const { sources } = this.groups;
    if (this.keep.length < size) this.keep = new Uint8Array(Math.max(size, 2 * this.keep.length));
    const keep = this.keep;
    if (size <= SMALL_ROW) {
      const raters = this.raters;
      for (let k = 0; k < size; k++) {
        const source = sources[begin + k]!;
        raters[k] = source < 0 ? ~source : source;
      }
      for (let k = size - 1; k >= 0; k--) {
        let later = false;
        for (let l = k + 1; l < size && !later; l++) later = raters[l] === raters[k];
        keep[k] = !later && sources[begin + k]! >= 0 ? 1 : 0;
      }
      return keep;
    }
    const lastRow = (this.lastRow ??= new Int32Array(this.players).fill(-1));
    for (let k = size - 1; k >= 0; k--) {
      const source = sources[begin + k]!;
      const rater = source < 0 ? ~source : source;
      if (lastRow[rater] === j) {
        keep[k] = 0;
        continue;
      }
      lastRow[rater] = j;
      keep[k] = source >= 0 ? 1 : 0;
    }
    return keep;
  }
}
