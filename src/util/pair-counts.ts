/**
 * How often each pair of int32s occurs in a list of them: for reports, how many one reporter
 * filed about one player, or how many fell in one (player, shared match) group. An open-addressing
 * table (./hash-slots.ts) over the distinct pairs, growing with them, in typed arrays: O(n) for n
 * pairs, no string keys built, and not capped at a Map's 2^24 entries.
 */
import { doubledSlots, EMPTY, emptySlots } from './hash-slots.js';

/** A 32-bit hash of the pair (a, b). */
function pairHash(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 13;
  return h;
}

const grown = (array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
};

/** Per index i < n, how many indices j < n have a[j] === a[i] and b[j] === b[i] (i itself included). */
export function pairCounts(a: ArrayLike<number>, b: ArrayLike<number>, n: number): Int32Array {
  let table = emptySlots(64);
  let firstA = new Int32Array(32);
  let firstB = new Int32Array(32);
  let counts = new Int32Array(32);
  let distinct = 0;
  const numbers = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    const hash = pairHash(x, y);
    const mask = (table.length >> 1) - 1;
    let slot = hash & mask;
    let number = table[slot * 2 + 1]!;
    while (number !== EMPTY && (table[slot * 2] !== hash || firstA[number] !== x || firstB[number] !== y)) {
      slot = (slot + 1) & mask;
      number = table[slot * 2 + 1]!;
    }
    if (number === EMPTY) {
      number = distinct++;
      if (number === firstA.length) {
        firstA = grown(firstA);
        firstB = grown(firstB);
        counts = grown(counts);
      }
      firstA[number] = x;
      firstB[number] = y;
      table[slot * 2] = hash;
      table[slot * 2 + 1] = number;
      if (distinct * 2 > mask + 1) table = doubledSlots(table);
    }
    counts[number]!++;
    numbers[i] = number;
  }
  for (let i = 0; i < n; i++) numbers[i] = counts[numbers[i]!]!;
  return numbers;
}
