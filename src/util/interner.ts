/**
 * Maps string ids to dense integer indices (0, 1, 2, …) and back, so per-player state can live
 * in typed arrays. An open-addressing table over one Int32Array: per slot an id's hash
 * (./id-hash.ts) and its index, linear probing, at most three quarters full; the ids themselves
 * in arrays of 2^16, by index. A lookup reads a slot or a few neighbours (one cache line,
 * usually) and compares strings only where a slot holds the id's hash, so equal hashes never
 * confuse two ids. Unlike a Map, it is not capped at 2^24 ids: it grows by doubling, placing
 * every index again by its stored hash without reading the ids.
 */
import { doubledSlots, EMPTY, emptySlots } from './hash-slots.js';
import { idHash } from './id-hash.js';

/** Slots of a new table (a community often has a handful of players). */
const FIRST_SLOTS = 8;
const CHUNK_BITS = 16;
const CHUNK_MASK = (1 << CHUNK_BITS) - 1;

/** The hash an interner keys an id by: idHash, or in tests one that collides on purpose. */
export type IdHasher = (id: string) => number;

export class Interner {
  /** Per slot, two int32s: the hash of an id and its index (EMPTY: a free slot). */
  private slots = emptySlots(FIRST_SLOTS);
  /** Slots − 1 (a power of two less one). */
  private mask = FIRST_SLOTS - 1;
  private readonly chunks: string[][] = [];
  private count = 0;

  /** `hash` is replaced only by tests, to make ids collide. */
  constructor(private readonly hash: IdHasher = idHash) {}

  get size(): number {
    return this.count;
  }

  /** Index of `id`, or -1 when it was never interned. */
  indexOf(id: string): number {
    const hash = this.hash(id);
    const slots = this.slots;
    const mask = this.mask;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const index = slots[2 * slot + 1]!;
      if (index === EMPTY) return -1;
      if (slots[2 * slot] === hash && this.idAt(index) === id) return index;
    }
  }

  /** Index of `id`, adding it when new. */
  intern(id: string): number {
    const hash = this.hash(id);
    const slots = this.slots;
    const mask = this.mask;
    let slot = hash & mask;
    for (let index = slots[2 * slot + 1]!; index !== EMPTY; slot = (slot + 1) & mask, index = slots[2 * slot + 1]!) {
      if (slots[2 * slot] === hash && this.idAt(index) === id) return index;
    }
    const index = this.count++;
    slots[2 * slot] = hash;
    slots[2 * slot + 1] = index;
    const chunk = index >>> CHUNK_BITS;
    if (chunk === this.chunks.length) this.chunks.push([]);
    this.chunks[chunk]!.push(id);
    if (this.count * 4 > (mask + 1) * 3) this.grow();
    return index;
  }

  /** Every id, in index order (for checkpoints). */
  ids(): string[] {
    return Array.from({ length: this.count }, (_, i) => this.idAt(i));
  }

  /** An interner holding `ids` at indices 0, 1, 2, … */
  static from(ids: readonly string[]): Interner {
    const interner = new Interner();
    for (const id of ids) interner.intern(id);
    return interner;
  }

  /** The id at `index` (0 ≤ index < size). */
  idAt(index: number): string {
    return this.chunks[index >>> CHUNK_BITS]![index & CHUNK_MASK]!;
  }

  /** Twice the slots; each index goes to the first free slot from its hash, as a new one would. */
  private grow(): void {
    this.slots = doubledSlots(this.slots);
    this.mask = (this.slots.length >> 1) - 1;
  }
}
