/**
 * The per-community CQR state (SPEC §2.1, "efficient form"): for each player a ring of the last
 * T filtered deltas and, when k < T, a ring of the last T positive and of the last T negative
 * ones, each with a running sum, plus the signed length of the same-sign run at the end of the
 * filtered list. An action costs O(1), a score query O(1).
 *
 * Layout: each player's state is one contiguous block of `stride` doubles, so an action touches
 * few cache lines; blocks live in fixed-size chunks, so growing never copies. A chunk is read as
 * doubles and, for the ring positions, as 32-bit integers over the same bytes:
 *
 *   doubles [0] actions seen, then when k < T [1] the run (+3: the last 3 filtered deltas were
 *   > 0; saturates at ±k), then the windows' sums (all; positive and negative when k < T);
 *   then, when T is finite, one double per window holding two integers, the ring's next slot
 *   and its length; then each window's ring of T deltas.
 *
 * A slot not yet written holds 0, so a push subtracts the slot it overwrites whether or not the
 * ring was full. While every delta has been an integer of magnitude below 2^31 the running sums
 * are exact (|sum| < T·2^31 < 2^53); once another delta arrives, a sum is recomputed from its
 * ring whenever the ring wraps (every T pushes), so floating-point drift stays bounded at
 * amortized O(1) cost. With T = ∞ a window is its sum.
 */
import { Interner } from '../../util/interner.js';
import { keepShapes } from '../../util/keep-shapes.js';
import { decodeFloat64, encodeArray } from '../../util/snapshot.js';
import { legacyPlayers, type LegacyCqrStoreSnapshot, type PlayerState } from './legacy-snapshot.js';
import { cqrParams, type CqrParams } from './params.js';

const CHUNK_BITS = 10;
const CHUNK_PLAYERS = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_PLAYERS - 1;

const ACTIONS = 0;
const RUN = 1;
/** Offsets inside a window's counter pair, in 32-bit words. */
const HEAD = 0;
const LENGTH = 1;
/** Rings at least this long could sum past 2^53 even with small integer deltas. */
const LONGEST_EXACT_RING = 1 << 21;

/** Which deltas the score sums: all filtered ones, or only one sign after g_k applied. */
export type CqrFilter = 'none' | 'positive' | 'negative';

/** `layout: 2` is this file's layout; a snapshot without it has the earlier one (./legacy-snapshot.ts). */
export interface CqrStoreSnapshot {
  readonly layout: 2;
  readonly players: readonly string[];
  /** Each chunk's bytes, base64. */
  readonly chunks: readonly string[];
  /** Whether a delta other than a small integer has arrived (sums are recomputed at each wrap). */
  readonly inexact: boolean;
}

/** Where one window of a player's block lives. */
interface WindowPlace {
  /** Double index of its sum. */
  readonly sum: number;
  /** 32-bit word index of its counter pair (next slot, length). */
  readonly counter: number;
  /** Double index of its ring. */
  readonly ring: number;
}

export class CqrCommunityStore {
  players = new Interner();
  /** Chunk c's blocks as doubles and, over the same bytes, as 32-bit words. */
  private values: Float64Array[] = [];
  private words: Int32Array[] = [];
  /** 1 once a delta other than an integer of magnitude below 2^31 arrived (see the file's comment). */
  private inexact: number;
  private readonly x: number;
  private readonly k: number;
  /** Ring length; 0 when T = ∞ (no rings). */
  private readonly ring: number;
  /** g_k is active only when k < T. */
  private readonly signFilter: boolean;
  private readonly stride: number;
  private readonly all: WindowPlace;
  private readonly positive: WindowPlace;
  private readonly negative: WindowPlace;

  constructor(params: CqrParams) {
    this.x = params.x;
    this.k = params.k;
    this.ring = Number.isFinite(params.T) ? params.T : 0;
    this.signFilter = params.k < params.T;
    this.inexact = this.ring >= LONGEST_EXACT_RING ? 1 : 0;
    const windows = this.signFilter ? 3 : 1;
    const sums = this.signFilter ? 2 : 1;
    const counters = sums + windows;
    const rings = counters + (this.ring === 0 ? 0 : windows);
    const place = (w: number): WindowPlace => ({ sum: sums + w, counter: 2 * (counters + w), ring: rings + w * this.ring });
    this.all = place(0);
    this.positive = place(1);
    this.negative = place(2);
    this.stride = rings + windows * this.ring;
  }

  get size(): number {
    return this.players.size;
  }

  /** Records one action's delta for `id`. */
  add(id: string, delta: number): void {
    const player = this.players.intern(id);
    const chunk = player >>> CHUNK_BITS;
    if (chunk === this.values.length) this.grow();
    const values = this.values[chunk]!;
    const words = this.words[chunk]!;
    const base = (player & CHUNK_MASK) * this.stride;
    values[base + ACTIONS]!++;
    if (!(Math.abs(delta) >= this.x)) return; // f_x
    if ((delta | 0) !== delta) this.inexact = 1;
    const all = this.all;
    this.push(values, words, base + all.sum, 2 * base + all.counter, base + all.ring, delta);
    if (!this.signFilter) return;
    // The sign window and the run, chosen by arithmetic rather than by a branch on the sign:
    // which way a delta goes is what a branch predictor cannot guess. The negative window's
    // sum, counters and ring follow the positive one's.
    const sign = Number(delta > 0) - Number(delta < 0);
    if (sign !== 0) {
      const negative = Number(delta < 0);
      const positive = this.positive;
      this.push(values, words, base + positive.sum + negative, 2 * (base + negative) + positive.counter, base + positive.ring + negative * this.ring, delta);
    }
    const run = values[base + RUN]!;
    const k = this.k;
    const next = sign + Number(run * sign > 0) * run; // zero is neither sign: it ends any run
    values[base + RUN] = next - Number(next > k) + Number(next < -k);
  }

  private grow(): void {
    const bytes = new ArrayBuffer(CHUNK_PLAYERS * this.stride * 8);
    this.values.push(new Float64Array(bytes));
    this.words.push(new Int32Array(bytes));
  }

  /** Appends `value` to the window whose sum, counter pair and ring are at `sum`, `counter` and `ring`. */
  private push(values: Float64Array, words: Int32Array, sum: number, counter: number, ring: number, value: number): void {
    const size = this.ring;
    if (size === 0) {
      values[sum]! += value;
      return;
    }
    const head = words[counter + HEAD]!;
    const slot = ring + head;
    const evicted = values[slot]!; // 0 while the ring is not full
    values[slot] = value;
    const length = words[counter + LENGTH]!;
    words[counter + LENGTH] = length + Number(length < size);
    const next = head + 1;
    const wrapped = next === size;
    words[counter + HEAD] = wrapped ? 0 : next;
    values[sum] = values[sum]! - evicted + value;
    if ((Number(wrapped) & this.inexact) !== 0) {
      let exact = 0;
      for (let i = ring, end = ring + size; i < end; i++) exact += values[i]!;
      values[sum] = exact;
    }
  }

  filterOf(player: number): CqrFilter {
    if (!this.signFilter) return 'none';
    const run = this.valuesOf(player)[this.baseOf(player) + RUN]!;
    return run >= this.k ? 'positive' : run <= -this.k ? 'negative' : 'none';
  }

  private windowOf(player: number): WindowPlace {
    const filter = this.filterOf(player);
    return filter === 'positive' ? this.positive : filter === 'negative' ? this.negative : this.all;
  }

  private valuesOf(player: number): Float64Array {
    return this.values[player >>> CHUNK_BITS]!;
  }

  private baseOf(player: number): number {
    return (player & CHUNK_MASK) * this.stride;
  }

  /** CQR_{T,x,k} of the player at `index` (SPEC §2.1 step 3). */
  scoreAt(player: number): number {
    return this.valuesOf(player)[this.baseOf(player) + this.windowOf(player).sum]!;
  }

  actionsAt(player: number): number {
    return this.valuesOf(player)[this.baseOf(player) + ACTIONS]!;
  }

  /** The deltas the score sums, oldest first (empty with T = ∞: nothing is kept). */
  windowAt(player: number): number[] {
    const size = this.ring;
    if (size === 0) return [];
    const values = this.valuesOf(player);
    const words = this.words[player >>> CHUNK_BITS]!;
    const base = this.baseOf(player);
    const at = this.windowOf(player);
    const head = words[2 * base + at.counter + HEAD]!;
    const length = words[2 * base + at.counter + LENGTH]!;
    const out: number[] = [];
    for (let i = 0; i < length; i++) out.push(values[base + at.ring + ((head - length + i + size) % size)]!);
    return out;
  }

  toSnapshot(): CqrStoreSnapshot {
    return { layout: 2, players: this.players.ids(), chunks: this.values.map(encodeArray), inexact: this.inexact === 1 };
  }

  static fromSnapshot(params: CqrParams, snapshot: CqrStoreSnapshot | LegacyCqrStoreSnapshot): CqrCommunityStore {
    const store = new CqrCommunityStore(params);
    store.players = Interner.from(snapshot.players);
    if (!('layout' in snapshot)) {
      // Sums from before the exact-integer rule: they keep being recomputed at each wrap.
      store.inexact = 1;
      let player = 0;
      for (const state of legacyPlayers(params, snapshot)) store.write(player++, state);
      return store;
    }
    store.values = snapshot.chunks.map(decodeFloat64);
    store.words = store.values.map((chunk) => new Int32Array(chunk.buffer));
    if (snapshot.inexact) store.inexact = 1;
    return store;
  }

  /** Sets the state of the player at `index` (the next one, or one already held). */
  private write(player: number, state: PlayerState): void {
    const chunk = player >>> CHUNK_BITS;
    if (chunk === this.values.length) this.grow();
    const values = this.values[chunk]!;
    const words = this.words[chunk]!;
    const base = this.baseOf(player);
    values[base + ACTIONS] = state.actions;
    if (this.signFilter) values[base + RUN] = state.run;
    [this.all, this.positive, this.negative].slice(0, state.windows.length).forEach((at, w) => {
      const window = state.windows[w]!;
      values[base + at.sum] = window.sum;
      if (this.ring === 0) return;
      words[2 * base + at.counter + HEAD] = window.head;
      words[2 * base + at.counter + LENGTH] = window.length;
      values.set(window.ring, base + at.ring);
    });
  }

  /** Bytes held in typed arrays (allocated chunks, not only used blocks). */
  typedArrayBytes(): number {
    return this.values.reduce((bytes, chunk) => bytes + chunk.byteLength, 0);
  }
}

keepShapes(new CqrCommunityStore(cqrParams.defaults));
