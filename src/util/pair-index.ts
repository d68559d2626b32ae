/**
 * Maps pairs of non-negative int32s (from, to) to int32 values, in typed arrays: open addressing
 * with linear probing, backward-shift deletion, load factor at most ½. No per-entry objects and
 * no heap numbers (a Map keyed by from·2^k + to pays for both), and no 2^24-entry ceiling.
 *
 * Entries are interleaved in one Int32Array, ENTRY ints apart (from, to, value), so a probe
 * reads one cache line (rarely two) instead of one in each of three arrays: on a table far larger
 * than the cache (a million pairs take 24 MB) that is most of a lookup's cost. Padding entries to
 * 16 bytes, so none straddles two lines, measured no faster and costs a third more memory.
 */
const EMPTY = -1;
const ENTRY = 3;
const INITIAL_BITS = 10;

export class PairIndex {
  private bits = INITIAL_BITS;
  private mask = (1 << INITIAL_BITS) - 1;
  private table = emptyTable(1 << INITIAL_BITS);
  private count = 0;

  get size(): number {
    return this.count;
  }

  private home(from: number, to: number): number {
    let h = Math.imul(from, 0x9e3779b1) ^ Math.imul(to + 0x7f4a7c15, 0x85ebca77);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 13;
    return h & this.mask;
  }

  /** The value of (from, to), or -1. */
  get(from: number, to: number): number {
    const table = this.table;
    const mask = this.mask;
    for (let i = this.home(from, to); ; i = (i + 1) & mask) {
      const at = i * ENTRY;
      const f = table[at]!;
      if (f === EMPTY) return -1;
      if (f === from && table[at + 1] === to) return table[at + 2]!;
    }
  }

  set(from: number, to: number, value: number): void {
    this.insert(from, to, value, true);
  }

  /**
   * The value of (from, to) when present (left as it is); otherwise inserts `value` and returns
   * -1: one walk of the probe sequence where get then set take two.
   */
  getOrInsert(from: number, to: number, value: number): number {
    return this.insert(from, to, value, false);
  }

  private insert(from: number, to: number, value: number, overwrite: boolean): number {
    if (2 * (this.count + 1) > this.mask + 1) this.grow();
    const table = this.table;
    const mask = this.mask;
    for (let i = this.home(from, to); ; i = (i + 1) & mask) {
      const at = i * ENTRY;
      const f = table[at]!;
      if (f === EMPTY) {
        table[at] = from;
        table[at + 1] = to;
        table[at + 2] = value;
        this.count++;
        return -1;
      }
      if (f === from && table[at + 1] === to) {
        const old = table[at + 2]!;
        if (overwrite) table[at + 2] = value;
        return old;
      }
    }
  }

  delete(from: number, to: number): boolean {
    const table = this.table;
    const mask = this.mask;
    let i = this.home(from, to);
    for (; ; i = (i + 1) & mask) {
      const f = table[i * ENTRY]!;
      if (f === EMPTY) return false;
      if (f === from && table[(i * ENTRY) + 1] === to) break;
    }
    // Backward shift: pull later entries of the probe run into the hole where they may live.
    for (let j = (i + 1) & mask; table[j * ENTRY] !== EMPTY; j = (j + 1) & mask) {
      const at = j * ENTRY;
      const k = this.home(table[at]!, table[at + 1]!);
      const movable = i <= j ? k <= i || k > j : k <= i && k > j;
      if (movable) {
        const hole = i * ENTRY;
        table[hole] = table[at]!;
        table[hole + 1] = table[at + 1]!;
        table[hole + 2] = table[at + 2]!;
        i = j;
      }
    }
    table[i * ENTRY] = EMPTY;
    this.count--;
    return true;
  }

  private grow(): void {
    const old = this.table;
    this.bits++;
    this.mask = (1 << this.bits) - 1;
    this.table = emptyTable(1 << this.bits);
    this.count = 0;
    for (let at = 0; at < old.length; at += ENTRY) if (old[at] !== EMPTY) this.insert(old[at]!, old[at + 1]!, old[at + 2]!, true);
  }
}

/**
 * A table of `entries` empty entries. Filling it up front is no waste: the sequential pass takes
 * the page faults of the fresh buffer far more cheaply than the scattered first writes of the
 * rehash would (a zero EMPTY that skips the fill measured slower).
 */
function emptyTable(entries: number): Int32Array {
  const table = new Int32Array(entries * ENTRY);
  for (let at = 0; at < table.length; at += ENTRY) table[at] = EMPTY;
  return table;
}
