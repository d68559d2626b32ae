/**
 * Which partition of the event stream a community's events go to: FNV-1a (32 bits) of the
 * community name's UTF-8 bytes, modulo the number of partitions. The same on every gateway and
 * every version, so a community's events always share one subject and keep their order.
 */
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

/** The partition (0 … partitions − 1) of `community`. */
export function partitionOf(community: string, partitions: number): number {
  return fnv1a32(community) % partitions;
}
