/**
 * The four columns of a rating log (rater, ratee, value, time per entry) in chunks of typed
 * arrays, so the log grows without copying: a grown array would be copied into fresh memory,
 * touching (and, on a VM, page-faulting) about twice the bytes the log holds. The first chunk
 * starts small and doubles up to CHUNK entries (a small log stays small); every further chunk
 * has CHUNK entries and is allocated when the first entry is written to it.
 */
import { withLength } from '../util/typed-arrays.js';

const CHUNK_BITS = 16;
export const CHUNK = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK - 1;

export class RatingColumns {
  /**
   * The chunks, in order: chunk c holds entries [c · CHUNK, c · CHUNK + its length). RatingLog's
   * byRatee reads them in plain nested loops; a helper handing out per-chunk objects made its
   * first run over a fresh log about 20 ms slower on 1M entries (A/B, medians of 10).
   */
  readonly from: Int32Array[];
  readonly to: Int32Array[];
  readonly value: Float64Array[];
  readonly time: Float64Array[];
  /** The chunk entries are written to (its four arrays), and the entries it holds: [tailStart, tailEnd). */
  private tailFrom: Int32Array;
  private tailTo: Int32Array;
  private tailValue: Float64Array;
  private tailTime: Float64Array;
  private tailStart = 0;
  private tailEnd: number;

  constructor(firstChunk: number) {
    const length = Math.min(firstChunk, CHUNK);
    this.from = [new Int32Array(length)];
    this.to = [new Int32Array(length)];
    this.value = [new Float64Array(length)];
    this.time = [new Float64Array(length)];
    this.tailFrom = this.from[0]!;
    this.tailTo = this.to[0]!;
    this.tailValue = this.value[0]!;
    this.tailTime = this.time[0]!;
    this.tailEnd = length;
  }

  /**
   * Columns holding the given entries without copying them: each full chunk is a view of the
   * arrays, which the columns then own (a later write or compaction writes into them); the entries
   * past the last full chunk are copied into a chunk of their own, and fewer entries than a chunk
   * into a first chunk of `capacity` entries (at least as many as there are).
   */
  static adopt(from: Int32Array, to: Int32Array, value: Float64Array, time: Float64Array, capacity: number): RatingColumns {
    const length = from.length;
    const full = length >>> CHUNK_BITS;
    const columns = new RatingColumns(full === 0 ? Math.max(capacity, length) : CHUNK);
    for (let c = 0; c < full; c++) {
      const [begin, end] = [c << CHUNK_BITS, (c + 1) << CHUNK_BITS];
      columns.from[c] = from.subarray(begin, end);
      columns.to[c] = to.subarray(begin, end);
      columns.value[c] = value.subarray(begin, end);
      columns.time[c] = time.subarray(begin, end);
    }
    columns.moveTail(0);
    for (let e = full << CHUNK_BITS; e < length; e++) columns.write(e, from[e]!, to[e]!, value[e]!, time[e]!);
    return columns;
  }

  /** Entries the first chunk holds (CHUNK once there are more chunks). */
  get firstChunk(): number {
    return this.from[0]!.length;
  }

  /** Makes the first chunk hold min(`entries`, CHUNK) entries, keeping its first `used`. */
  growFirstChunk(entries: number, used: number): void {
    const length = Math.min(entries, CHUNK);
    if (length <= this.firstChunk) return;
    this.from[0] = withLength(this.from[0]!, length, used);
    this.to[0] = withLength(this.to[0]!, length, used);
    this.value[0] = withLength(this.value[0]!, length, used);
    this.time[0] = withLength(this.time[0]!, length, used);
    this.moveTail(0);
  }

  /** Sets entry `e` (within the capacity the log has decided on; chunks appear as needed). */
  write(e: number, from: number, to: number, value: number, time: number): void {
    if (e >= this.tailEnd || e < this.tailStart) this.writeTo(e);
    const i = e - this.tailStart;
    this.tailFrom[i] = from;
    this.tailTo[i] = to;
    this.tailValue[i] = value;
    this.tailTime[i] = time;
  }

  /** Moves the tail to entry `e`'s chunk for a write (kept out of write(), which must stay small). */
  private writeTo(e: number): void {
    this.moveTail(e);
    if (e >= this.tailEnd) throw new RangeError(`rating columns: entry ${e} is past the first chunk of ${this.firstChunk}`);
  }

  private moveTail(e: number): void {
    const chunk = e >>> CHUNK_BITS;
    if (chunk > 0 && this.firstChunk < CHUNK) throw new RangeError(`rating columns: entry ${e} is past the first chunk of ${this.firstChunk}`);
    while (this.from.length <= chunk) {
      this.from.push(new Int32Array(CHUNK));
      this.to.push(new Int32Array(CHUNK));
      this.value.push(new Float64Array(CHUNK));
      this.time.push(new Float64Array(CHUNK));
    }
    this.tailFrom = this.from[chunk]!;
    this.tailTo = this.to[chunk]!;
    this.tailValue = this.value[chunk]!;
    this.tailTime = this.time[chunk]!;
    this.tailStart = chunk << CHUNK_BITS;
    this.tailEnd = this.tailStart + this.from[chunk]!.length;
  }

  fromAt(e: number): number {
    return this.from[e >>> CHUNK_BITS]![e & CHUNK_MASK]!;
  }

  toAt(e: number): number {
    return this.to[e >>> CHUNK_BITS]![e & CHUNK_MASK]!;
  }

  valueAt(e: number): number {
    return this.value[e >>> CHUNK_BITS]![e & CHUNK_MASK]!;
  }

  timeAt(e: number): number {
    return this.time[e >>> CHUNK_BITS]![e & CHUNK_MASK]!;
  }

  /** Copies entry `source` over entry `target`. */
  copy(target: number, source: number): void {
    this.write(target, this.fromAt(source), this.toAt(source), this.valueAt(source), this.timeAt(source));
  }
}
