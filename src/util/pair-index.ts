/**
 * Maps pairs of non-negative int32s (from, to) to int32 values, in typed arrays: open addressing
 * with linear probing, backward-shift deletion, load factor at most ½. No per-entry objects and
 * no heap numbers (a Map keyed by from·2^k + to pays for both), and no 2^24-entry ceiling.
 */
const EMPTY = -1;

export class PairIndex {
  private bits = 10;
  private mask = (1 << this.bits) - 1;
  private from = new Int32Array(1 << this.bits).fill(EMPTY);
  private to = new Int32Array(1 << this.bits);
  private value = new Int32Array(1 << this.bits);
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
    const keys = this.from;
    const targets = this.to;
    const mask = this.mask;
    for (let i = this.home(from, to); ; i = (i + 1) & mask) {
      const f = keys[i]!;
      if (f === EMPTY) return -1;
      if (f === from && targets[i] === to) return this.value[i]!;
    }
  }

  set(from: number, to: number, value: number): void {
    if (2 * (this.count + 1) > this.from.length) this.grow();
    const mask = this.mask;
    for (let i = this.home(from, to); ; i = (i + 1) & mask) {
      const f = this.from[i]!;
      if (f === EMPTY) {
        this.from[i] = from;
        this.to[i] = to;
        this.value[i] = value;
        this.count++;
        return;
      }
      if (f === from && this.to[i] === to) {
        this.value[i] = value;
        return;
      }
    }
  }

  delete(from: number, to: number): boolean {
    const mask = this.mask;
    let i = this.home(from, to);
    for (; ; i = (i + 1) & mask) {
      const f = this.from[i]!;
      if (f === EMPTY) return false;
      if (f === from && this.to[i] === to) break;
    }
    // Backward shift: pull later entries of the probe run into the hole where they may live.
    for (let j = (i + 1) & mask; this.from[j] !== EMPTY; j = (j + 1) & mask) {
      const k = this.home(this.from[j]!, this.to[j]!);
      const movable = i <= j ? k <= i || k > j : k <= i && k > j;
      if (movable) {
        this.from[i] = this.from[j]!;
        this.to[i] = this.to[j]!;
        this.value[i] = this.value[j]!;
        i = j;
      }
    }
    this.from[i] = EMPTY;
    this.count--;
    return true;
  }

  private grow(): void {
    const { from, to, value } = this;
    this.bits++;
    this.mask = (1 << this.bits) - 1;
    this.from = new Int32Array(1 << this.bits).fill(EMPTY);
    this.to = new Int32Array(1 << this.bits);
    this.value = new Int32Array(1 << this.bits);
    this.count = 0;
    for (let i = 0; i < from.length; i++) if (from[i] !== EMPTY) this.set(from[i]!, to[i]!, value[i]!);
  }
}
