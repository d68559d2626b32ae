/** A binary min-heap ordered by a numeric key; ties leave in insertion order. */
export class MinHeap<T> {
  private items: { key: number; order: number; value: T }[] = [];
  private inserted = 0;

  get size(): number {
    return this.items.length;
  }

  /** The heap as data (array order, keys and insertion order kept), for checkpoints. */
  toSnapshot<U>(map: (value: T) => U): { items: { key: number; order: number; value: U }[]; inserted: number } {
    return { items: this.items.map(({ key, order, value }) => ({ key, order, value: map(value) })), inserted: this.inserted };
  }

  static fromSnapshot<T, U>(snapshot: { items: readonly { key: number; order: number; value: U }[]; inserted: number }, map: (value: U) => T): MinHeap<T> {
    const heap = new MinHeap<T>();
    for (const { key, order, value } of snapshot.items) heap.items.push({ key, order, value: map(value) });
    heap.inserted = snapshot.inserted;
    return heap;
  }

  push(key: number, value: T): void {
    const items = this.items;
    items.push({ key, order: this.inserted++, value });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  /** The smallest key, or undefined when empty. */
  peekKey(): number | undefined {
    return this.items[0]?.key;
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    if (top === undefined) return undefined;
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < items.length && this.less(left, smallest)) smallest = left;
        if (right < items.length && this.less(right, smallest)) smallest = right;
        if (smallest === i) break;
        [items[i], items[smallest]] = [items[smallest]!, items[i]!];
        i = smallest;
      }
    }
    return top.value;
  }

  private less(a: number, b: number): boolean {
    const x = this.items[a]!;
    const y = this.items[b]!;
    return x.key < y.key || (x.key === y.key && x.order < y.order);
  }
}
