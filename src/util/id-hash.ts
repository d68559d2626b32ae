/**
 * The 32-bit hashes of ids that the id table (./interner.ts) and the pair set (./pair-set.ts)
 * are keyed by: FNV-1a over the UTF-16 code units, then murmur3's finalizer so every bit of the
 * result depends on every code unit (the tables take the low bits). The same on every thread,
 * so a parse thread can hash the ids of the events it parses and send the hashes along. A hash
 * only chooses where to look: equal hashes are always told apart by comparing the strings.
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** murmur3's 32-bit finalizer. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** The hash of one id, as an int32. */
export function idHash(id: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), FNV_PRIME);
  return mix(h);
}

/** The hash of the pair (`a`, `b`), as an int32: both strings' code units with `a`'s length between them. */
export function pairHash(a: string, b: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < a.length; i++) h = Math.imul(h ^ a.charCodeAt(i), FNV_PRIME);
  h = Math.imul(h ^ a.length, FNV_PRIME);
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b.charCodeAt(i), FNV_PRIME);
  return mix(h);
}
