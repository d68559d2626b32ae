/**
 * Directed, weighted edges between interned players, accumulated incrementally from events:
 * one slot per (from, to) pair in typed arrays (value and the time it was set), slots reused
 * after removal. Computations snapshot it into CSR (./csr.ts) and iterate there.
 */
import { Interner } from '../util/interner.js';
import { SpillMap } from '../util/spill-map.js';

/** Pair keys are from · 2^26 + to: exact for up to 2^26 (67 million) players. */
const PAIR = 2 ** 26;
const INITIAL_CAPACITY = 1024;

export class EdgeStore {
  readonly players = new Interner();
  private readonly index = new SpillMap<number, number>();
  from = new Int32Array(INITIAL_CAPACITY);
  to = new Int32Array(INITIAL_CAPACITY);
  value = new Float64Array(INITIAL_CAPACITY);
  time = new Float64Array(INITIAL_CAPACITY);
  /** 1 for a slot holding an edge. */
  alive = new Uint8Array(INITIAL_CAPACITY);
  /** Slots in use or freed: edges live in [0, slots). */
  slots = 0;
  private readonly free: number[] = [];
  private live = 0;
  /** Bumped on every change, so snapshots can be cached. */
  version = 0;

  get edgeCount(): number {
    return this.live;
  }

  /** Sets the edge from → to (creating the players), returning its slot. */
  set(from: string, to: string, value: number, time: number): number {
    const f = this.players.intern(from);
    const t = this.players.intern(to);
    if (f >= PAIR || t >= PAIR) throw new RangeError(`more than ${PAIR} players in one community`);
    const key = f * PAIR + t;
    let slot = this.index.get(key);
    if (slot === undefined) {
      slot = this.free.pop() ?? this.grow();
      this.index.set(key, slot);
      this.from[slot] = f;
      this.to[slot] = t;
      this.alive[slot] = 1;
      this.live++;
    }
    this.value[slot] = value;
    this.time[slot] = time;
    this.version++;
    return slot;
  }

  /** Removes the edge from → to if present. */
  remove(from: string, to: string): boolean {
    const f = this.players.indexOf(from);
    const t = this.players.indexOf(to);
    if (f < 0 || t < 0) return false;
    const slot = this.index.get(f * PAIR + t);
    if (slot === undefined) return false;
    this.removeSlot(slot);
    return true;
  }

  removeSlot(slot: number): void {
    if (this.alive[slot] !== 1) return;
    this.index.delete(this.from[slot]! * PAIR + this.to[slot]!);
    this.alive[slot] = 0;
    this.free.push(slot);
    this.live--;
    this.version++;
  }

  /** The slot of from → to, or -1. */
  slotOf(from: number, to: number): number {
    return this.index.get(from * PAIR + to) ?? -1;
  }

  private grow(): number {
    if (this.slots === this.from.length) {
      const capacity = this.from.length * 2;
      const grown = <A extends Int32Array | Float64Array | Uint8Array>(old: A, make: (n: number) => A): A => {
        const next = make(capacity);
        next.set(old);
        return next;
      };
      this.from = grown(this.from, (n) => new Int32Array(n));
      this.to = grown(this.to, (n) => new Int32Array(n));
      this.value = grown(this.value, (n) => new Float64Array(n));
      this.time = grown(this.time, (n) => new Float64Array(n));
      this.alive = grown(this.alive, (n) => new Uint8Array(n));
    }
    return this.slots++;
  }
}
