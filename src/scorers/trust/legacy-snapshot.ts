/**
 * Trust checkpoints written before the rating log (src/graph/rating-log.ts) kept an edge store of
 * slots and an expiry queue. They still restore: the live slots, in slot order (the order their
 * CSR had), become the log; the queue is not read (expiry follows from each rating's time).
 */
import { RatingLog } from '../../graph/rating-log.js';
import { decodeFloat64, decodeInt32, decodeUint8 } from '../../util/snapshot.js';

/** The edge store's part of such a checkpoint (slots live where `alive` is 1). */
export interface LegacyTrustSnapshot {
  readonly ratings: { readonly players: readonly string[]; readonly from: string; readonly to: string; readonly value: string; readonly time: string; readonly alive: string; readonly slots: number };
  readonly newest: number | null;
}

/** The log a legacy checkpoint describes: its live slots in slot order (the order its CSR had). */
export function fromLegacy(lifetime: number, s: LegacyTrustSnapshot): RatingLog {
  const { ratings } = s;
  const alive = decodeUint8(ratings.alive);
  const from = decodeInt32(ratings.from);
  const to = decodeInt32(ratings.to);
  const value = decodeFloat64(ratings.value);
  const time = decodeFloat64(ratings.time);
  const live: number[] = [];
  for (let slot = 0; slot < ratings.slots; slot++) if (alive[slot] === 1) live.push(slot);
  return RatingLog.fromArrays(
    lifetime,
    ratings.players,
    Int32Array.from(live, (slot) => from[slot]!),
    Int32Array.from(live, (slot) => to[slot]!),
    Float64Array.from(live, (slot) => value[slot]!),
    Float64Array.from(live, (slot) => time[slot]!),
    s.newest,
  );
}
