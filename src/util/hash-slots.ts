/**
 * The slot table behind the id table (./interner.ts) and the pair set (./pair-set.ts): open
 * addressing with linear probing over one Int32Array, two numbers per slot, a key's 32-bit hash
 * and the number it stands for (EMPTY: a free slot). A hash only chooses where to look; the
 * owner tells equal hashes apart by comparing what the numbers stand for.
 */

/** The number of a free slot. */
export const EMPTY = -1;

/** A table of `slots` free slots (a power of two). */
export function emptySlots(slots: number): Int32Array {
  const table = new Int32Array(slots * 2);
  for (let at = 1; at < table.length; at += 2) table[at] = EMPTY;
  return table;
}

/** `old` with twice the slots: each entry at the first free slot from its stored hash, as a new one would go. */
export function doubledSlots(old: Int32Array): Int32Array {
  const table = emptySlots(old.length); // old.length int32s are old.length / 2 slots: twice as many
  const mask = (table.length >> 1) - 1;
  for (let at = 0; at < old.length; at += 2) {
    if (old[at + 1] === EMPTY) continue;
    let slot = old[at]! & mask;
    while (table[slot * 2 + 1] !== EMPTY) slot = (slot + 1) & mask;
    table[slot * 2] = old[at]!;
    table[slot * 2 + 1] = old[at + 1]!;
  }
  return table;
}
