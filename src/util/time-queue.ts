/**
 * A queue of items ordered by time, cheap when items arrive in time order (a FIFO array) and
 * still exact when one arrives out of order (those go to a min-heap). `popBefore` removes the
 * items older than a cutoff, oldest first.
 */
import { MinHeap } from './min-heap.js';

export interface TimeQueueSnapshot<U> {
  readonly fifo: readonly U[];
  readonly late: { items: readonly { key: number; order: number; value: U }[]; inserted: number };
}

export class TimeQueue<T extends { readonly time: number }> {
  private fifo: T[] = [];
  private head = 0;
  private late = new MinHeap<T>();

  /** The queue as data, order kept exactly, for checkpoints. */
  toSnapshot<U>(map: (item: T) => U): TimeQueueSnapshot<U> {
    return { fifo: this.fifo.slice(this.head).map(map), late: this.late.toSnapshot(map) };
  }

  static fromSnapshot<T extends { readonly time: number }, U>(snapshot: TimeQueueSnapshot<U>, map: (item: U) => T): TimeQueue<T> {
    const queue = new TimeQueue<T>();
    queue.fifo = snapshot.fifo.map(map);
    queue.late = MinHeap.fromSnapshot(snapshot.late, map);
    return queue;
  }

  get size(): number {
    return this.fifo.length - this.head + this.late.size;
  }

  push(item: T): void {
    const last = this.fifo[this.fifo.length - 1];
    if (this.head < this.fifo.length && last !== undefined && item.time < last.time) this.late.push(item.time, item);
    else this.fifo.push(item);
  }

  /** The earliest time in the queue (Infinity when empty). */
  peekTime(): number {
    const fifoTime = this.head < this.fifo.length ? this.fifo[this.head]!.time : Infinity;
    return Math.min(fifoTime, this.late.peekKey() ?? Infinity);
  }

  /** Removes and passes to `visit` every item with time < cutoff (≤ when `inclusive`), oldest first. */
  popBefore(cutoff: number, visit: (item: T) => void, inclusive = false): void {
    for (;;) {
      const fifoTime = this.head < this.fifo.length ? this.fifo[this.head]!.time : Infinity;
      const lateTime = this.late.peekKey() ?? Infinity;
      const next = Math.min(fifoTime, lateTime);
      if (next === Infinity || (inclusive ? next > cutoff : next >= cutoff)) break;
      if (lateTime < fifoTime) visit(this.late.pop()!);
      else visit(this.fifo[this.head++]!);
    }
    if (this.head > 1024 && this.head * 2 > this.fifo.length) {
      this.fifo = this.fifo.slice(this.head);
      this.head = 0;
    }
  }
}
