/**
 * The per-community CQR state (SPEC §2.1, "efficient form"): for each player a ring of the last
 * T filtered deltas and, when k < T, a ring of the last T positive and of the last T negative
 * ones, each with a running sum, plus the signed length of the same-sign run at the end of the
 * filtered list. An action costs O(1), a score query O(1).
 *
 * Layout: each player's state is one contiguous block of `stride` doubles, so an action touches
 * few cache lines; blocks live in fixed-size chunks, so growing never copies.
 *
 *   [0] actions seen, [1] run when k < T (+3: the last 3 filtered deltas were > 0; saturates
 *   at ±k), then per window (all; positive and negative when k < T) its header [sum, head,
 *   length] ([sum] alone when T = ∞), then each window's ring of T deltas.
 *
 * A running sum is recomputed from its ring whenever the ring wraps (every T pushes), so
 * floating-point drift stays bounded at amortized O(1) cost. With T = ∞ a window is its sum.
 */
import { Interner } from '../../util/interner.js';
import { decodeFloat64, encodeArray } from '../../util/snapshot.js';
import type { CqrParams } from './params.js';

const CHUNK_BITS = 10;
const CHUNK_PLAYERS = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_PLAYERS - 1;

const ACTIONS = 0;
const RUN = 1;
/** Offsets inside a window header. */
const SUM = 0;
const HEAD = 1;
const LENGTH = 2;

/** Which deltas the score sums: all filtered ones, or only one sign after g_k applied. */
export type CqrFilter = 'none' | 'positive' | 'negative';

export interface CqrStoreSnapshot {
  readonly players: readonly string[];
  readonly chunks: readonly string[];
}

export class CqrCommunityStore {
  players = new Interner();
  private chunks: Float64Array[] = [];
  private readonly x: number;
  private readonly k: number;
  /** Ring length; 0 when T = ∞ (no rings). */
  private readonly ring: number;
  /** g_k is active only when k < T. */
  private readonly signFilter: boolean;
  private readonly stride: number;
  /** Offsets of the three window headers and rings inside a player's block. */
  private readonly all: number;
  private readonly positive: number;
  private readonly negative: number;
  private readonly allRing: number;
  private readonly positiveRing: number;
  private readonly negativeRing: number;

  constructor(params: CqrParams) {
    this.x = params.x;
    this.k = params.k;
    this.ring = Number.isFinite(params.T) ? params.T : 0;
    this.signFilter = params.k < params.T;
    const windows = this.signFilter ? 3 : 1;
    const header = this.ring === 0 ? 1 : 3;
    const headers = this.signFilter ? 2 : 1;
    this.all = headers;
    this.positive = headers + header;
    this.negative = headers + 2 * header;
    this.allRing = headers + windows * header;
    this.positiveRing = this.allRing + this.ring;
    this.negativeRing = this.positiveRing + this.ring;
    this.stride = headers + windows * (header + this.ring);
  }

  get size(): number {
    return this.players.size;
  }

  /** Records one action's delta for `id`. */
  add(id: string, delta: number): void {
    const player = this.players.intern(id);
    const chunkIndex = player >>> CHUNK_BITS;
    if (chunkIndex === this.chunks.length) this.chunks.push(new Float64Array(CHUNK_PLAYERS * this.stride));
    const data = this.chunks[chunkIndex]!;
    const base = (player & CHUNK_MASK) * this.stride;
    data[base + ACTIONS]!++;
    if (!(Math.abs(delta) >= this.x)) return; // f_x
    this.push(data, base + this.all, base + this.allRing, delta);
    if (!this.signFilter) return;
    const run = data[base + RUN]!;
    const k = this.k;
    if (delta > 0) {
      this.push(data, base + this.positive, base + this.positiveRing, delta);
      data[base + RUN] = run > 0 ? (run < k ? run + 1 : k) : 1;
    } else if (delta < 0) {
      this.push(data, base + this.negative, base + this.negativeRing, delta);
      data[base + RUN] = run < 0 ? (run > -k ? run - 1 : -k) : -1;
    } else {
      data[base + RUN] = 0; // zero is neither sign: it ends any run
    }
  }

  /** Appends `value` to the window whose header is at `header` and ring at `ring`. */
  private push(data: Float64Array, header: number, ring: number, value: number): void {
    const size = this.ring;
    if (size === 0) {
      data[header + SUM]! += value;
      return;
    }
    const head = data[header + HEAD]!;
    const slot = ring + head;
    if (data[header + LENGTH] === size) data[header + SUM]! -= data[slot]!;
    else data[header + LENGTH]!++;
    data[slot] = value;
    const next = head + 1;
    if (next === size) {
      data[header + HEAD] = 0;
      let exact = 0;
      for (let i = ring, end = ring + size; i < end; i++) exact += data[i]!;
      data[header + SUM] = exact;
    } else {
      data[header + HEAD] = next;
      data[header + SUM]! += value;
    }
  }

  private block(player: number): [Float64Array, number] {
    return [this.chunks[player >>> CHUNK_BITS]!, (player & CHUNK_MASK) * this.stride];
  }

  filterOf(player: number): CqrFilter {
    if (!this.signFilter) return 'none';
    const [data, base] = this.block(player);
    const run = data[base + RUN]!;
    return run >= this.k ? 'positive' : run <= -this.k ? 'negative' : 'none';
  }

  private windowOf(player: number): { header: number; ring: number } {
    const filter = this.filterOf(player);
    if (filter === 'positive') return { header: this.positive, ring: this.positiveRing };
    if (filter === 'negative') return { header: this.negative, ring: this.negativeRing };
    return { header: this.all, ring: this.allRing };
  }

  /** CQR_{T,x,k} of the player at `index` (SPEC §2.1 step 3). */
  scoreAt(player: number): number {
    const [data, base] = this.block(player);
    return data[base + this.windowOf(player).header + SUM]!;
  }

  actionsAt(player: number): number {
    const [data, base] = this.block(player);
    return data[base + ACTIONS]!;
  }

  /** The deltas the score sums, oldest first (empty with T = ∞: nothing is kept). */
  windowAt(player: number): number[] {
    const size = this.ring;
    if (size === 0) return [];
    const [data, base] = this.block(player);
    const { header, ring } = this.windowOf(player);
    const length = data[base + header + LENGTH]!;
    const head = data[base + header + HEAD]!;
    const out: number[] = [];
    for (let i = 0; i < length; i++) out.push(data[base + ring + ((head - length + i + size) % size)]!);
    return out;
  }

  toSnapshot(): CqrStoreSnapshot {
    return { players: this.players.ids(), chunks: this.chunks.map(encodeArray) };
  }

  static fromSnapshot(params: CqrParams, snapshot: CqrStoreSnapshot): CqrCommunityStore {
    const store = new CqrCommunityStore(params);
    store.players = Interner.from(snapshot.players);
    store.chunks = snapshot.chunks.map(decodeFloat64);
    return store;
  }

  /** Bytes held in typed arrays (allocated chunks, not only used blocks). */
  typedArrayBytes(): number {
    return this.chunks.reduce((bytes, chunk) => bytes + chunk.byteLength, 0);
  }
}
