/**
 * Directed, weighted edges between interned players, accumulated incrementally from events:
 * one slot per (from, to) pair in typed arrays (value and the time it was set), slots reused
 * after removal. Computations snapshot it into CSR (./csr.ts) and iterate there.
 */
import { Interner } from '../util/interner.js';
import { PairIndex } from '../util/pair-index.js';
import { decodeFloat64, decodeInt32, decodeUint8, encodeArray } from '../util/snapshot.js';

const INITIAL_CAPACITY = 1024;

export interface EdgeStoreSnapshot {
  readonly players: readonly string[];
  readonly from: string;
  readonly to: string;
  readonly value: string;
  readonly time: string;
  readonly alive: string;
  readonly slots: number;
  /** Free slots in the order they will be reused. */
  readonly free: readonly number[];
}

export class EdgeStore {
  players = new Interner();
  private index = new PairIndex();
  from = new Int32Array(INITIAL_CAPACITY);
  to = new Int32Array(INITIAL_CAPACITY);
  value = new Float64Array(INITIAL_CAPACITY);
  time = new Float64Array(INITIAL_CAPACITY);
  /** 1 for a slot holding an edge. */
  alive = new Uint8Array(INITIAL_CAPACITY);
  /** Slots in use or freed: edges live in [0, slots). */
  slots = 0;
  private free: number[] = [];
  private live = 0;
  /** Bumped on every change, so snapshots can be cached. */
  version = 0;

  get edgeCount(): number {
    return this.live;
  }

  toSnapshot(): EdgeStoreSnapshot {
    const n = this.slots;
    return {
      players: this.players.ids(),
      from: encodeArray(this.from.subarray(0, n)),
      to: encodeArray(this.to.subarray(0, n)),
      value: encodeArray(this.value.subarray(0, n)),
      time: encodeArray(this.time.subarray(0, n)),
      alive: encodeArray(this.alive.subarray(0, n)),
      slots: n,
      free: [...this.free],
    };
  }

  static fromSnapshot(s: EdgeStoreSnapshot): EdgeStore {
    const store = new EdgeStore();
    store.players = Interner.from(s.players);
    const capacity = Math.max(INITIAL_CAPACITY, 2 * s.slots);
    const ints = (data: Int32Array) => {
      const array = new Int32Array(capacity);
      array.set(data);
      return array;
    };
    const floats = (data: Float64Array) => {
      const array = new Float64Array(capacity);
      array.set(data);
      return array;
    };
    store.from = ints(decodeInt32(s.from));
    store.to = ints(decodeInt32(s.to));
    store.value = floats(decodeFloat64(s.value));
    store.time = floats(decodeFloat64(s.time));
    store.alive = new Uint8Array(capacity);
    store.alive.set(decodeUint8(s.alive));
    store.slots = s.slots;
    store.free = [...s.free];
    for (let slot = 0; slot < s.slots; slot++) {
      if (store.alive[slot] !== 1) continue;
      store.index.set(store.from[slot]!, store.to[slot]!, slot);
      store.live++;
    }
    return store;
  }

  /** Sets the edge from → to (creating the players), returning its slot. */
  set(from: string, to: string, value: number, time: number): number {
    const f = this.players.intern(from);
    const t = this.players.intern(to);
    // One probe of the index: the slot a new edge would take is known before looking it up.
    const free = this.free;
    const fresh = free.length > 0 ? free[free.length - 1]! : this.slots;
    let slot = this.index.getOrInsert(f, t, fresh);
    if (slot < 0) {
      slot = free.length > 0 ? free.pop()! : this.grow();
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
