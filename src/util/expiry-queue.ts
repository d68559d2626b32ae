/**
 * When each slot of a typed-array store expires (trust's ratings, SPEC §4): entries
 * (time, slot, stamp) popped oldest first. The policy is TimeQueue's (./time-queue.ts) exactly —
 * an entry no earlier than the newest one in the FIFO (or any entry when the FIFO is empty) joins
 * the FIFO, an earlier one a min-heap; the earliest time leaves first, the FIFO first on a tie,
 * the heap in insertion order on a tie — so everything that depends on the order of expiries
 * (which slots are freed, and so reused, when) is unchanged. The difference is the storage: a
 * ring buffer and a binary heap in struct-of-arrays form (Float64Array times and stamps,
 * Int32Array slots) instead of one small object per entry, so a million queued ratings are a
 * few flat buffers the garbage collector neither copies nor traces.
 */
import { decodeFloat64, decodeInt32, encodeArray } from './snapshot.js';

const INITIAL_CAPACITY = 64;

/** The queue as data: the FIFO oldest first, the heap in array order (base64 typed arrays). */
export interface ExpiryQueueSnapshot {
  readonly fifo: { readonly time: string; readonly slot: string; readonly stamp: string };
  readonly late: { readonly time: string; readonly order: string; readonly slot: string; readonly stamp: string; readonly inserted: number };
}

/** The queue as plain typed arrays (see ExpiryQueue.fromArrays). */
export interface ExpiryQueueArrays {
  readonly fifoTime: Float64Array;
  readonly fifoSlot: Int32Array;
  readonly fifoStamp: Float64Array;
  /** The heap in array order (a valid binary min-heap by (time, order)). */
  readonly lateTime: Float64Array;
  readonly lateOrder: Float64Array;
  readonly lateSlot: Int32Array;
  readonly lateStamp: Float64Array;
  /** Entries ever pushed into the heap: the order of the next one. */
  readonly inserted: number;
}

export type ExpiryVisitor = (slot: number, stamp: number) => void;

export class ExpiryQueue {
  // FIFO: a ring buffer of power-of-two capacity; entries at (head + i) & mask for i < count.
  private fifoTime = new Float64Array(INITIAL_CAPACITY);
  private fifoSlot = new Int32Array(INITIAL_CAPACITY);
  private fifoStamp = new Float64Array(INITIAL_CAPACITY);
  private head = 0;
  private count = 0;
  // Heap of the entries that arrived out of order, by (time, order).
  private lateTime = new Float64Array(INITIAL_CAPACITY);
  private lateOrder = new Float64Array(INITIAL_CAPACITY);
  private lateSlot = new Int32Array(INITIAL_CAPACITY);
  private lateStamp = new Float64Array(INITIAL_CAPACITY);
  private lateCount = 0;
  private inserted = 0;

  get size(): number {
    return this.count + this.lateCount;
  }

  push(time: number, slot: number, stamp: number): void {
    const count = this.count;
    if (count > 0 && time < this.fifoTime[(this.head + count - 1) & (this.fifoTime.length - 1)]!) {
      this.pushLate(time, slot, stamp);
      return;
    }
    if (count === this.fifoTime.length) this.growFifo();
    const at = (this.head + count) & (this.fifoTime.length - 1);
    this.fifoTime[at] = time;
    this.fifoSlot[at] = slot;
    this.fifoStamp[at] = stamp;
    this.count = count + 1;
  }

  /** The earliest time in the queue (Infinity when empty). */
  peekTime(): number {
    const fifo = this.count > 0 ? this.fifoTime[this.head]! : Infinity;
    const late = this.lateCount > 0 ? this.lateTime[0]! : Infinity;
    return fifo < late ? fifo : late;
  }

  /** Removes and passes to `visit` every entry with time < cutoff (≤ when `inclusive`), oldest first. */
  popBefore(cutoff: number, inclusive: boolean, visit: ExpiryVisitor): void {
    for (;;) {
      const fifo = this.count > 0 ? this.fifoTime[this.head]! : Infinity;
      const late = this.lateCount > 0 ? this.lateTime[0]! : Infinity;
      const next = fifo < late ? fifo : late;
      if (next === Infinity || (inclusive ? next > cutoff : next >= cutoff)) return;
      if (late < fifo) {
        const slot = this.lateSlot[0]!;
        const stamp = this.lateStamp[0]!;
        this.popLate();
        visit(slot, stamp);
      } else {
        const at = this.head;
        this.head = (at + 1) & (this.fifoTime.length - 1);
        this.count--;
        visit(this.fifoSlot[at]!, this.fifoStamp[at]!);
      }
    }
  }

  /** The entries as typed arrays (copies), FIFO oldest first and the heap in array order. */
  toArrays(): ExpiryQueueArrays {
    const n = this.count;
    const fifoTime = new Float64Array(n);
    const fifoSlot = new Int32Array(n);
    const fifoStamp = new Float64Array(n);
    const mask = this.fifoTime.length - 1;
    for (let i = 0; i < n; i++) {
      const at = (this.head + i) & mask;
      fifoTime[i] = this.fifoTime[at]!;
      fifoSlot[i] = this.fifoSlot[at]!;
      fifoStamp[i] = this.fifoStamp[at]!;
    }
    const m = this.lateCount;
    return {
      fifoTime,
      fifoSlot,
      fifoStamp,
      lateTime: this.lateTime.slice(0, m),
      lateOrder: this.lateOrder.slice(0, m),
      lateSlot: this.lateSlot.slice(0, m),
      lateStamp: this.lateStamp.slice(0, m),
      inserted: this.inserted,
    };
  }

  /** A queue holding exactly `a` (as toArrays gives it; the heap arrays must form a valid heap). */
  static fromArrays(a: ExpiryQueueArrays): ExpiryQueue {
    const queue = new ExpiryQueue();
    const n = a.fifoTime.length;
    const m = a.lateTime.length;
    if (a.fifoSlot.length !== n || a.fifoStamp.length !== n || a.lateOrder.length !== m || a.lateSlot.length !== m || a.lateStamp.length !== m) {
      throw new Error('expiry queue arrays differ in length');
    }
    const fifoCapacity = capacityFor(n);
    queue.fifoTime = copyInto(new Float64Array(fifoCapacity), a.fifoTime);
    queue.fifoSlot = copyInto(new Int32Array(fifoCapacity), a.fifoSlot);
    queue.fifoStamp = copyInto(new Float64Array(fifoCapacity), a.fifoStamp);
    queue.count = n;
    const lateCapacity = capacityFor(m);
    queue.lateTime = copyInto(new Float64Array(lateCapacity), a.lateTime);
    queue.lateOrder = copyInto(new Float64Array(lateCapacity), a.lateOrder);
    queue.lateSlot = copyInto(new Int32Array(lateCapacity), a.lateSlot);
    queue.lateStamp = copyInto(new Float64Array(lateCapacity), a.lateStamp);
    queue.lateCount = m;
    queue.inserted = a.inserted;
    return queue;
  }

  toSnapshot(): ExpiryQueueSnapshot {
    const a = this.toArrays();
    return {
      fifo: { time: encodeArray(a.fifoTime), slot: encodeArray(a.fifoSlot), stamp: encodeArray(a.fifoStamp) },
      late: { time: encodeArray(a.lateTime), order: encodeArray(a.lateOrder), slot: encodeArray(a.lateSlot), stamp: encodeArray(a.lateStamp), inserted: a.inserted },
    };
  }

  static fromSnapshot(s: ExpiryQueueSnapshot): ExpiryQueue {
    return ExpiryQueue.fromArrays({
      fifoTime: decodeFloat64(s.fifo.time),
      fifoSlot: decodeInt32(s.fifo.slot),
      fifoStamp: decodeFloat64(s.fifo.stamp),
      lateTime: decodeFloat64(s.late.time),
      lateOrder: decodeFloat64(s.late.order),
      lateSlot: decodeInt32(s.late.slot),
      lateStamp: decodeFloat64(s.late.stamp),
      inserted: s.late.inserted,
    });
  }

  /** Doubles the ring, unrolling it so the oldest entry is at 0. */
  private growFifo(): void {
    const capacity = this.fifoTime.length;
    const head = this.head;
    const unroll = <A extends Float64Array | Int32Array>(old: A, next: A): A => {
      next.set(old.subarray(head));
      next.set(old.subarray(0, head), capacity - head);
      return next;
    };
    this.fifoTime = unroll(this.fifoTime, new Float64Array(2 * capacity));
    this.fifoSlot = unroll(this.fifoSlot, new Int32Array(2 * capacity));
    this.fifoStamp = unroll(this.fifoStamp, new Float64Array(2 * capacity));
    this.head = 0;
  }

  /** Sift-up with a hole: parents move down until the new entry's place is found. */
  private pushLate(time: number, slot: number, stamp: number): void {
    if (this.lateCount === this.lateTime.length) this.growLate();
    const order = this.inserted++;
    const { lateTime: times, lateOrder: orders, lateSlot: slots, lateStamp: stamps } = this;
    let i = this.lateCount++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pt = times[parent]!;
      if (!(time < pt || (time === pt && order < orders[parent]!))) break;
      times[i] = pt;
      orders[i] = orders[parent]!;
      slots[i] = slots[parent]!;
      stamps[i] = stamps[parent]!;
      i = parent;
    }
    times[i] = time;
    orders[i] = order;
    slots[i] = slot;
    stamps[i] = stamp;
  }

  /** Removes the heap's top: the last entry sifts down from the root through a hole. */
  private popLate(): void {
    const n = --this.lateCount;
    if (n === 0) return;
    const { lateTime: times, lateOrder: orders, lateSlot: slots, lateStamp: stamps } = this;
    const time = times[n]!;
    const order = orders[n]!;
    const slot = slots[n]!;
    const stamp = stamps[n]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      const right = child + 1;
      if (right < n && (times[right]! < times[child]! || (times[right] === times[child] && orders[right]! < orders[child]!))) child = right;
      const ct = times[child]!;
      if (!(ct < time || (ct === time && orders[child]! < order))) break;
      times[i] = ct;
      orders[i] = orders[child]!;
      slots[i] = slots[child]!;
      stamps[i] = stamps[child]!;
      i = child;
    }
    times[i] = time;
    orders[i] = order;
    slots[i] = slot;
    stamps[i] = stamp;
  }

  private growLate(): void {
    const capacity = 2 * this.lateTime.length;
    this.lateTime = copyInto(new Float64Array(capacity), this.lateTime);
    this.lateOrder = copyInto(new Float64Array(capacity), this.lateOrder);
    this.lateSlot = copyInto(new Int32Array(capacity), this.lateSlot);
    this.lateStamp = copyInto(new Float64Array(capacity), this.lateStamp);
  }
}

/** The smallest power of two ≥ max(n, INITIAL_CAPACITY). */
function capacityFor(n: number): number {
  let capacity = INITIAL_CAPACITY;
  while (capacity < n) capacity *= 2;
  return capacity;
}

function copyInto<A extends Float64Array | Int32Array>(target: A, source: ArrayLike<number>): A {
  target.set(source);
  return target;
}
