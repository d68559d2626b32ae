/**
 * Signed ratings between interned players, kept as an append-only log in typed arrays (trust,
 * docs/spec.md §4). Each rating event appends (from, to, value, time); value 0 is a withdrawal. The
 * rating of a pair is its latest arrival, unless that is a withdrawal or has expired
 * (time + lifetime ≤ the newest event time seen).
 *
 * Nothing is looked up on append: a hash of pairs costs a cache miss per event on large graphs,
 * more than everything else an append does. Superseded, withdrawn and expired entries are instead
 * skipped when a computation resolves the log (grouping it by ratee, as the CSR needs anyway), and
 * dropped when the log fills up and is compacted. A full log is compacted when that would free
 * enough (some rating has expired, or withdrawals and an estimate of the distinct pairs say a
 * quarter of the log is dead; these figures are gathered only then, in one pass over the
 * entries appended since); otherwise, or when survivors still fill more than half, its capacity
 * doubles, and it is never smaller than the number of players (a compaction also walks arrays
 * of one entry per player). So an append costs amortized O(1). The entries live in chunks
 * (./rating-columns.ts), so growing past 65,536 entries copies nothing; the chunks stay within a small multiple of
 * the peak of live ratings and players, and are not freed after a peak.
 * Survivors keep their log order, so results never depend on when a compaction ran.
 */
import { SnapshotError } from '../errors.js';
import { DistinctPairs } from '../util/distinct-pairs.js';
import { Interner } from '../util/interner.js';
import { groupByRatee } from './group-by-ratee.js';
import { RatingColumns } from './rating-columns.js';
import type { IncomingCsr } from './csr.js';
import { decodeFloat64, decodeInt32, encodeArray } from '../util/snapshot.js';

/** Entries a new log has room for (a community without ratings keeps four arrays of 4 entries). */
const INITIAL_CAPACITY = 4;

export interface RatingLogSnapshot {
  readonly players: readonly string[];
  /** The live ratings only, in log order. */
  readonly from: string;
  readonly to: string;
  readonly value: string;
  readonly time: string;
  readonly newest: number | null;
}

/** Where byRatee may build its CSR. */
export type CsrArrays = Pick<IncomingCsr, 'offsets' | 'sources' | 'weights'>;

/**
 * The live ratings as an incoming CSR over the players, in log order within a ratee, with the
 * log position of each (`entries`, beside `sources` and `weights`).
 */
export interface RatingsByRatee extends IncomingCsr {
  readonly entries: Int32Array;
}

export class RatingLog {
  players = new Interner();
  /** The entries: rater, ratee, value and time, in chunks (./rating-columns.ts). */
  private readonly columns: RatingColumns;
  /** Entries in use: [0, length). */
  length = 0;
  /** Entries the log may hold before it next weighs compacting and growing. */
  private room: number;
  /** The newest event time seen (the clock ratings expire by). */
  newest = -Infinity;
  /** Bumped on every change, so computations over the log can be cached. */
  version = 0;
  /**
   * Of the entries [0, counted): distinct pairs (estimated), withdrawals, the oldest rating's
   * time. Entries are counted in one pass when a full log weighs compacting, not on append.
   */
  private readonly pairs = new DistinctPairs();
  private withdrawals = 0;
  private oldest = Infinity;
  private counted = 0;

  /**
   * `lifetime`: how long after it was set a rating expires, in event-time milliseconds.
   * `capacity` is lowered only by tests, to reach compaction with few entries.
   */
  constructor(
    readonly lifetime: number,
    capacity: number = INITIAL_CAPACITY,
    columns?: RatingColumns,
  ) {
    this.room = capacity;
    this.columns = columns ?? new RatingColumns(capacity);
  }

  /** Entries the log may hold before it next weighs compacting and growing. */
  get capacity(): number {
    return this.room;
  }

  fromAt(e: number): number {
    return this.columns.fromAt(e);
  }

  valueAt(e: number): number {
    return this.columns.valueAt(e);
  }

  timeAt(e: number): number {
    return this.columns.timeAt(e);
  }

  /** Moves the clock forward to `time` (never back). */
  advance(time: number): void {
    if (time > this.newest) this.newest = time;
  }

  /**
   * Records from → to = value at `time` (0 withdraws), creating the players. A rating already
   * expired on arrival changes nothing.
   */
  append(from: string, to: string, value: number, time: number): void {
    let f: number;
    let t: number;
    if (value === 0) {
      // A withdrawal between players never seen has nothing to withdraw (and creates no one).
      f = this.players.indexOf(from);
      t = this.players.indexOf(to);
      if (f < 0 || t < 0) return;
    } else {
      if (time + this.lifetime <= this.newest) return;
      f = this.players.intern(from);
      t = this.players.intern(to);
    }
    if (this.length === this.room) this.makeRoom();
    this.columns.write(this.length++, f, t, value, time);
    this.version++;
  }

  /** Adds the entries not counted yet to the figures that decide whether compacting pays. */
  private countNew(): void {
    const { columns, pairs } = this;
    let { withdrawals, oldest } = this;
    for (let e = this.counted; e < this.length; e++) {
      pairs.add(columns.fromAt(e), columns.toAt(e));
      if (columns.valueAt(e) === 0) withdrawals++;
      else if (columns.timeAt(e) < oldest) oldest = columns.timeAt(e);
    }
    this.withdrawals = withdrawals;
    this.oldest = oldest;
    this.counted = this.length;
  }

  /** Whether compacting would free enough: a rating has expired, or a quarter is likely dead. */
  private worthCompacting(): boolean {
    this.countNew();
    if (this.oldest + this.lifetime <= this.newest) return true;
    const superseded = this.length - this.pairs.estimate();
    return superseded + 2 * this.withdrawals >= this.length / 4;
  }

  /**
   * The live ratings grouped by ratee, each weighted by `weigh(value, time)` (default: its value):
   * a stable counting sort by ratee (in two passes on large logs), then each ratee's entries cut to the ratings in
   * force (./group-by-ratee.ts). `into`: arrays to build the CSR in (offsets of players + 1
   * entries, the others of at least the log's length), such as a computation's own memory; the
   * result's arrays are then views of them.
   */
  byRatee(weigh: (value: number, time: number) => number = (value) => value, into?: CsrArrays): RatingsByRatee {
    const n = this.players.size;
    const length = this.length;
    const { lifetime, newest } = this;
    if (into !== undefined && (into.offsets.length !== n + 1 || into.sources.length < length || into.weights.length < length)) {
      throw new RangeError(`rating log: arrays for ${n} players and ${length} entries expected`);
    }
    const groups = {
      offsets: into?.offsets ?? new Int32Array(n + 1),
      sources: into?.sources ?? new Int32Array(length),
      weights: into?.weights ?? new Float64Array(length),
      entries: new Int32Array(length),
    };
    // In force: not a withdrawal, not expired (as append() judges expiry).
    const inForce = (value: number, time: number): boolean => value !== 0 && time + lifetime > newest;
    const kept = groupByRatee({ players: n, length, columns: this.columns, inForce, weigh }, groups);
    const { offsets, sources, weights, entries } = groups;
    // entries is the caller's to keep: cut to size when entries were dropped.
    return { nodes: n, offsets, sources: sources.subarray(0, kept), weights: weights.subarray(0, kept), entries: kept === length ? entries : entries.slice(0, kept) };
  }

  /** How many ratings are in force: a full grouping of the log, as costly as byRatee. */
  countLive(): number {
    return this.byRatee().entries.length;
  }

  /** Log positions of the live ratings, in log order. */
  private liveInLogOrder(): Int32Array {
    const { entries } = this.byRatee();
    const keep = new Uint8Array(this.length);
    for (let k = 0; k < entries.length; k++) keep[entries[k]!] = 1;
    const out = new Int32Array(entries.length);
    for (let e = 0, k = 0; e < this.length; e++) if (keep[e] === 1) out[k++] = e;
    return out;
  }

  /**
   * Makes room for one more entry: grows while the log holds fewer entries than there are
   * players (so the O(players) part of a compaction is always paid for by as many appends),
   * else compacts when that pays, and grows when survivors still fill over half.
   */
  private makeRoom(): void {
    const capacity = this.room;
    if (capacity >= this.players.size && this.worthCompacting()) this.compact();
    if (2 * this.length > capacity || capacity < this.players.size) this.grow(2 * capacity);
  }

  /** Raises the capacity (the first chunk grows with it up to its full size; later ones come as written). */
  private grow(capacity: number): void {
    this.room = capacity;
    this.columns.growFirstChunk(capacity, this.length);
  }

  /** Drops every entry not in force, keeping the others in log order. */
  private compact(): void {
    const survivors = this.liveInLogOrder();
    for (let k = 0; k < survivors.length; k++) this.columns.copy(k, survivors[k]!); // k ≤ survivors[k]
    this.length = survivors.length;
    this.version++;
    this.forgetCounts();
  }

  /** Forgets the counts (after a compaction, or when built from arrays): all entries count anew. */
  private forgetCounts(): void {
    this.pairs.clear();
    this.withdrawals = 0;
    this.oldest = Infinity;
    this.counted = 0;
  }

  toSnapshot(): RatingLogSnapshot {
    const survivors = this.liveInLogOrder();
    const pick = <A extends Int32Array | Float64Array>(at: (e: number) => number, out: A): string => {
      for (let k = 0; k < survivors.length; k++) out[k] = at(survivors[k]!);
      return encodeArray(out);
    };
    const c = this.columns;
    return {
      players: this.players.ids(),
      from: pick((e) => c.fromAt(e), new Int32Array(survivors.length)),
      to: pick((e) => c.toAt(e), new Int32Array(survivors.length)),
      value: pick((e) => c.valueAt(e), new Float64Array(survivors.length)),
      time: pick((e) => c.timeAt(e), new Float64Array(survivors.length)),
      newest: Number.isFinite(this.newest) ? this.newest : null,
    };
  }

  static fromSnapshot(lifetime: number, s: RatingLogSnapshot): RatingLog {
    return RatingLog.fromArrays(lifetime, s.players, decodeInt32(s.from), decodeInt32(s.to), decodeFloat64(s.value), decodeFloat64(s.time), s.newest);
  }

  /**
   * A log of the given entries, in order, over `players`, taking the arrays over without copying
   * them (RatingColumns.adopt): the caller must not change them afterwards. Unchecked: every
   * entry must name players below `players.size`, and be one append() would have kept.
   */
  static adopt(lifetime: number, players: Interner, from: Int32Array, to: Int32Array, value: Float64Array, time: Float64Array, newest: number): RatingLog {
    const n = from.length;
    const capacity = Math.max(INITIAL_CAPACITY, 2 * n);
    const log = new RatingLog(lifetime, capacity, RatingColumns.adopt(from, to, value, time, capacity));
    log.players = players;
    log.length = n;
    log.newest = newest;
    return log;
  }

  /** A log holding the given entries in order (checked: equal lengths, players in range). */
  static fromArrays(
    lifetime: number,
    players: readonly string[],
    from: Int32Array,
    to: Int32Array,
    value: Float64Array,
    time: Float64Array,
    newest: number | null,
  ): RatingLog {
    const n = from.length;
    if (to.length !== n || value.length !== n || time.length !== n) throw new SnapshotError('rating log snapshot: arrays of different lengths');
    for (let e = 0; e < n; e++) {
      if (!(from[e]! >= 0 && from[e]! < players.length && to[e]! >= 0 && to[e]! < players.length)) {
        throw new SnapshotError(`rating log snapshot: entry ${e} names a player outside the ${players.length} listed`);
      }
    }
    const log = new RatingLog(lifetime, Math.max(INITIAL_CAPACITY, 2 * n));
    log.players = Interner.from(players);
    for (let e = 0; e < n; e++) log.columns.write(e, from[e]!, to[e]!, value[e]!, time[e]!);
    log.length = n;
    log.newest = newest ?? -Infinity;
    log.forgetCounts();
    return log;
  }
}
