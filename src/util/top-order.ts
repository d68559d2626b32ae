/**
 * The first `top` items under a strict total order, in order, without sorting them all: a
 * ranking usually shows ten players out of a hundred thousand. A bounded heap keeps the best
 * `top` seen so far (O(n log top)); when `top` is a large share of `n`, a full sort is cheaper.
 */

/**
 * `items` ranked by `compare` (negative: a before b; never 0 for distinct items), cut to `top`.
 * `items` is left in any order (a full sort sorts it in place): pass an array of your own.
 */
export function topOrder(items: number[], top: number, compare: (a: number, b: number) => number): number[] {
  const n = items.length;
  if (top >= n / 8) return items.sort(compare).slice(0, top);
  const count = Math.max(0, Math.floor(top));
  if (count === 0) return [];
  // heap[0] is the worst of the kept items: a max-heap under `compare`.
  const heap = items.slice(0, count);
  for (let i = (count >> 1) - 1; i >= 0; i--) siftDown(heap, i, compare);
  for (let i = count; i < n; i++) {
    const item = items[i]!;
    if (compare(item, heap[0]!) < 0) {
      heap[0] = item;
      siftDown(heap, 0, compare);
    }
  }
  return heap.sort(compare);
}

function siftDown(heap: number[], at: number, compare: (a: number, b: number) => number): void {
  const n = heap.length;
  const item = heap[at]!;
  for (;;) {
    let child = 2 * at + 1;
    if (child >= n) break;
    if (child + 1 < n && compare(heap[child + 1]!, heap[child]!) > 0) child++;
    if (compare(heap[child]!, item) <= 0) break;
    heap[at] = heap[child]!;
    at = child;
  }
  heap[at] = item;
}
