/**
 * A set of pairs of strings (a community and an event id, say) kept in typed arrays: the strings'
 * UTF-16 code units in arenas, and an open-addressing table of their hashes and places. Unlike a
 * Set of strings it keeps no string object alive (nothing for the garbage collector to trace or
 * move) and is not capped at a Set's 2^24 entries. An add costs a hash of both strings and, for a
 * new pair, copying them and one random access to a table of 8 bytes per slot (half of them empty).
 * The hash (./id-hash.ts, pairHash) can come from a parse thread that read the pair.
 */
import { doubledSlots, EMPTY, emptySlots } from './hash-slots.js';
import { pairHash } from './id-hash.js';

/** The largest arena, in code units; a longer pair gets an arena of its own. */
const MAX_ARENA = 1 << 22;
const FIRST_ARENA = 1 << 10;
const FIRST_SLOTS = 1 << 6;

export class PairSet {
  private readonly arenas: Uint16Array[] = [new Uint16Array(FIRST_ARENA)];
  /** Code units used in the last arena. */
  private used = 0;
  /** Per slot, two numbers: a pair's hash and its number (EMPTY: no pair); kept small, as it is read at random. */
  private table = emptySlots(FIRST_SLOTS);
  /** Per pair, by number, in the order added: its arena, its start there, the first string's length, both lengths together. */
  private pairs = new Int32Array(FIRST_SLOTS * 2);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds the pair (`a`, `b`); true when it was not in the set. `hash` may be given when it is known (pairHash(a, b)). */
  add(a: string, b: string, hash: number = pairHash(a, b)): boolean {
    const table = this.table;
    const mask = (table.length >> 1) - 1;
    let slot = hash & mask;
    for (let n = table[slot * 2 + 1]!; n !== EMPTY; slot = (slot + 1) & mask, n = table[slot * 2 + 1]!) {
      if (table[slot * 2] === hash && this.matches(n, a, b)) return false;
    }
    table[slot * 2] = hash;
    table[slot * 2 + 1] = this.count;
    this.place(a, b);
    if (++this.count * 2 > mask + 1) this.grow();
    return true;
  }

  private matches(n: number, a: string, b: string): boolean {
    const pairs = this.pairs;
    const at = n * 4;
    if (pairs[at + 2] !== a.length || pairs[at + 3] !== a.length + b.length) return false;
    const arena = this.arenas[pairs[at]!]!;
    const start = pairs[at + 1]!;
    for (let i = 0; i < a.length; i++) if (arena[start + i] !== a.charCodeAt(i)) return false;
    const middle = start + a.length;
    for (let i = 0; i < b.length; i++) if (arena[middle + i] !== b.charCodeAt(i)) return false;
    return true;
  }

  /** Copies the pair into the last arena (a new one when it is full) and records where, as pair number `count`. */
  private place(a: string, b: string): void {
    const length = a.length + b.length;
    let arena = this.arenas[this.arenas.length - 1]!;
    if (this.used + length > arena.length) {
      if (this.arenas.length === 1 && arena.length < MAX_ARENA) {
        // The first arena grows by doubling until it is full size; then arenas are added.
        const grown = new Uint16Array(Math.min(MAX_ARENA, Math.max(arena.length * 2, this.used + length)));
        grown.set(arena.subarray(0, this.used));
        arena = this.arenas[0] = grown;
      }
      if (this.used + length > arena.length) {
        arena = new Uint16Array(Math.max(MAX_ARENA, length));
        this.arenas.push(arena);
        this.used = 0;
      }
    }
    const start = this.used;
    for (let i = 0; i < a.length; i++) arena[start + i] = a.charCodeAt(i);
    for (let i = 0; i < b.length; i++) arena[start + a.length + i] = b.charCodeAt(i);
    this.used += length;
    let pairs = this.pairs;
    const at = this.count * 4;
    if (at + 4 > pairs.length) {
      pairs = new Int32Array(pairs.length * 2);
      pairs.set(this.pairs);
      this.pairs = pairs;
    }
    pairs[at] = this.arenas.length - 1;
    pairs[at + 1] = start;
    pairs[at + 2] = a.length;
    pairs[at + 3] = length;
  }

  private grow(): void {
    this.table = doubledSlots(this.table);
  }
}
