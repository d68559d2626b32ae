/**
 * CQR checkpoints written before the store's layout 2 (./store.ts) kept every number of a
 * player's block as a double, the ring positions included, in this order: actions, the run
 * (when k < T), then per window its sum and, when T is finite, its next slot and length, then
 * the rings. They still restore: each player's state is read out here and written in the
 * current layout (which needs no length: unwritten slots hold 0).
 */
import { decodeFloat64 } from '../../util/snapshot.js';
import type { CqrParams } from './params.js';
import { SnapshotError } from '../../errors.js';

/** The earlier layout's chunks held the blocks of 1,024 players each (a fact of that format). */
const CHUNK_BITS = 10;
const CHUNK_MASK = (1 << CHUNK_BITS) - 1;

export interface LegacyCqrStoreSnapshot {
  readonly players: readonly string[];
  readonly chunks: readonly string[];
}

/** One window of a player: its running sum, next ring slot and ring (empty when T = ∞). */
export interface WindowState {
  readonly sum: number;
  readonly head: number;
  readonly ring: Float64Array;
}

/** One player's state, layout aside: windows all, then positive and negative when k < T. */
export interface PlayerState {
  readonly actions: number;
  readonly run: number;
  readonly windows: readonly WindowState[];
}

/** Every player's state in a legacy snapshot, in index order. */
export function* legacyPlayers(params: CqrParams, snapshot: LegacyCqrStoreSnapshot): Generator<PlayerState> {
  const ring = Number.isFinite(params.T) ? params.T : 0;
  const signFilter = params.k < params.T;
  const windows = signFilter ? 3 : 1;
  const header = ring === 0 ? 1 : 3;
  const headers = signFilter ? 2 : 1;
  const rings = headers + windows * header;
  const stride = rings + windows * ring;
  const chunks = snapshot.chunks.map(decodeFloat64);
  for (let player = 0; player < snapshot.players.length; player++) {
    const data = chunks[player >>> CHUNK_BITS];
    const base = (player & CHUNK_MASK) * stride;
    if (data === undefined || base + stride > data.length) throw new SnapshotError(`cqr checkpoint: no state for player ${player} (${snapshot.players[player]})`);
    yield {
      actions: data[base]!,
      run: signFilter ? data[base + 1]! : 0,
      windows: Array.from({ length: windows }, (_, w) => {
        const at = base + headers + w * header;
        const start = base + rings + w * ring;
        return ring === 0
          ? { sum: data[at]!, head: 0, ring: new Float64Array(0) }
          : { sum: data[at]!, head: data[at + 1]!, ring: data.slice(start, start + ring) };
      }),
    };
  }
}
