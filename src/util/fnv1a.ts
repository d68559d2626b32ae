/** FNV-1a (32 bits): a small, stable hash of text, the same on every machine and version. */
const encoder = new TextEncoder();

/** FNV-1a, 32 bits, of `text`'s UTF-8 bytes. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of encoder.encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}
