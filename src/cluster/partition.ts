/**
 * Which partition of the event stream a community's events go to: FNV-1a (32 bits) of the
 * community name's UTF-8 bytes, modulo the number of partitions. The same on every gateway and
 * every version, so a community's events always share one subject and keep their order.
 */
import { fnv1a32 } from '../util/fnv1a.js';

/** The partition (0 … partitions − 1) of `community`. */
export function partitionOf(community: string, partitions: number): number {
  return fnv1a32(community) % partitions;
}
