/**
 * Directed, weighted edges between interned players, accumulated incrementally from events:
 * one slot per (from, to) pair in typed arrays (value and the time it was set), slots reused
 * after removal. Computations snapshot it into CSR (./csr.ts) and iterate there.
 */
import { Interner } from '../util/interner.js';
import { PairIndex } from '../util/pair-index.js';

const INITIAL_CAPACITY = 1024;

export class EdgeStore {
  readonly players = new Interner();
  private readonly index = new PairIndex();
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
    let slot = this.index.get(f, t);
    if (slot < 0) {
      slot = this.free.pop() ?? this.grow();
      this.index.set(f, t, slot);
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
    const slot = this.index.get(f, t);
    if (slot < 0) return false;
    this.removeSlot(slot);
    return true;
  }

  removeSlot(slot: number): void {
    if (this.alive[slot] !== 1) return;
    this.index.delete(this.from[slot]!, this.to[slot]!);
    this.alive[slot] = 0;
    this.free.push(slot);
    this.live--;
    this.version++;
  }

  /** The slot of from → to, or -1. */
  slotOf(from: number, to: number): number {
    return this.index.get(from, to);
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
