/**
 * The per-community CQR state (docs/spec.md §2.1, "efficient form"): for each player a ring of the last
 * T filtered deltas and, when k < T, a ring of the last T positive and of the last T negative
 * ones, each with a running sum, plus the signed length of the same-sign run at the end of the
 * filtered list. An action costs O(1), a score query O(1).
 *
 * Layout: each player's state is one contiguous block of `stride` doubles, so an action touches
 * few cache lines; blocks live in chunks of 1,024 players. The first chunk starts with room for
 * a few players and doubles up to that size (a community of one player holds one small block);
 * every further chunk is allocated whole, so a large community grows without copying. A chunk
 * is read as doubles and, for the rings' next slots, as 32-bit integers over the same bytes:
 *
 *   doubles [0] actions seen, then when k < T [1] the run (+3: the last 3 filtered deltas were
 *   > 0; saturates at ±k), then the windows' sums (all; positive and negative when k < T);
 *   then, when T is finite, each window's next ring slot as a 32-bit integer (two to a double),
 *   then each window's ring of T deltas.
 *
 * A slot not yet written holds 0, so a push subtracts the slot it overwrites whether or not the
 * ring was full, and a ring's length is not kept: it is read off the ring when a query needs it
 * (`lengthOf`). While every filtered delta of the community has been an int32 (`(delta | 0) ===
 * delta`) the running sums are exact (|sum| ≤ T·2^31 ≤ 2^53); once another one arrives, a sum is
 * recomputed from its ring whenever the ring wraps (every T pushes), so floating-point drift
 * stays bounded at amortized O(1) cost. With T = ∞ a window is its sum.
 */
import { Interner } from '../../util/interner.js';
import { keepShapes } from '../../util/keep-shapes.js';
import { decodeFloat64, encodeArray } from '../../util/snapshot.js';
import { legacyPlayers, type LegacyCqrStoreSnapshot, type PlayerState } from './legacy-snapshot.js';
import { cqrParams, type CqrParams } from './params.js';
import { SnapshotError } from '../../errors.js';

const CHUNK_BITS = 10;
const CHUNK_PLAYERS = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_PLAYERS - 1;
/** Players the first chunk has room for at first (it doubles up to CHUNK_PLAYERS). */
const FIRST_PLAYERS = 1;

const ACTIONS = 0;
const RUN = 1;
/**
 * With int32 deltas a window's sum stays within T·2^31, exact in a double while T ≤ 2^22; longer
 * rings start inexact (a chunk of such blocks could not be allocated anyway: this is insurance).
 */
const LONGEST_EXACT_RING = 1 << 22;

/** Which deltas the score sums: all filtered ones, or only one sign after g_k applied. */
export type CqrFilter = 'none' | 'positive' | 'negative';

/**
 * `layout: 3` is this file's layout: the last chunk is cut after its last player's block. Layout
 * 2 had the same blocks with every chunk whole; a snapshot without a layout has the earlier one
 * (./legacy-snapshot.ts). All three are read.
 */
export interface CqrStoreSnapshot {
  readonly layout: 2 | 3;
  readonly players: readonly string[];
  /** Each chunk's bytes, base64: 1,024 players' blocks, the last chunk only its players'. */
  readonly chunks: readonly string[];
  /** Whether a filtered delta other than an int32 has arrived (sums are recomputed at each wrap). */
  readonly inexact: boolean;
}

/** Where one window of a player's block lives. */
interface WindowPlace {
  /** Double index of its sum. */
  readonly sum: number;
  /** 32-bit word index of its ring's next slot. */
  readonly head: number;
  /** Double index of its ring. */
  readonly ring: number;
}

/**
 * The state of one community. A store is one of four classes, by which parts of §2.1 its
 * parameters use (a window T, the sign filter g_k), so that each class's `add` is compiled for
 * its own case alone: with several parameterizations in one process, one shared `add` would
 * carry every case's branches and its compiled code would fit none of them well.
 */
export abstract class CqrCommunityStore {
  players = new Interner();
  /** Chunk c's blocks as doubles and, over the same bytes, as 32-bit words. */
  protected values: Float64Array[] = [];
  protected words: Int32Array[] = [];
  /** Players the chunks have room for. */
  private capacity = 0;
  /** 1 once a filtered delta other than an int32 arrived (see the file's comment). */
  protected inexact: number;
  protected readonly x: number;
  protected readonly k: number;
  /** T, the rings' length; 0 when T = ∞ (no rings). */
  protected readonly ringLength: number;
  /** g_k is active only when k < T. */
  private readonly signFilter: boolean;
  protected readonly stride: number;
  protected readonly all: WindowPlace;
  protected readonly positive: WindowPlace;
  private readonly negative: WindowPlace;

  /** A store for `params`, of the class for its case. */
  static create(params: CqrParams): CqrCommunityStore {
    const finite = Number.isFinite(params.T);
    const signFilter = params.k < params.T;
    if (finite) return signFilter ? new SignedRingStore(params) : new RingStore(params);
    return signFilter ? new SignedSumStore(params) : new SumStore(params);
  }

  protected constructor(params: CqrParams) {
    this.x = params.x;
    this.k = params.k;
    this.ringLength = Number.isFinite(params.T) ? params.T : 0;
    this.signFilter = params.k < params.T;
    this.inexact = this.ringLength > LONGEST_EXACT_RING ? 1 : 0;
    const windows = this.signFilter ? 3 : 1;
    const firstSum = this.signFilter ? 2 : 1;
    const firstHead = firstSum + windows;
    const firstRing = firstHead + (this.ringLength === 0 ? 0 : Math.ceil(windows / 2));
    const place = (w: number): WindowPlace => ({ sum: firstSum + w, head: 2 * firstHead + w, ring: firstRing + w * this.ringLength });
    this.all = place(0);
    // Without the sign filter there are no such windows, and these two places mean nothing.
    this.positive = place(1);
    this.negative = place(2);
    this.stride = firstRing + windows * this.ringLength;
  }

  get size(): number {
    return this.players.size;
  }

  /** Records one action's delta for `id`. */
  abstract add(id: string, delta: number): void;

  /** The index of `id`, added (and room made for it) when new. */
  protected enter(id: string): number {
    const player = this.players.intern(id);
    if (player === this.capacity) this.grow();
    return player;
  }

  /** Room for one more player: the first chunk doubled (up to its full size), or a new chunk. */
  private grow(): void {
    const chunks = this.values.length;
    if (chunks === 0 || (chunks === 1 && this.capacity < CHUNK_PLAYERS)) {
      const players = chunks === 0 ? FIRST_PLAYERS : Math.min(2 * this.capacity, CHUNK_PLAYERS) | 0;
      this.setChunk(0, players, this.values[0]);
      this.capacity = players;
    } else {
      this.setChunk(chunks, CHUNK_PLAYERS, undefined);
      this.capacity += CHUNK_PLAYERS;
    }
  }

  /** Chunk `c` made room for `players` blocks, holding `data`'s doubles first (zeros after). */
  private setChunk(c: number, players: number, data: Float64Array | undefined): void {
    const bytes = new ArrayBuffer(players * this.stride * 8);
    const values = new Float64Array(bytes);
    if (data !== undefined) values.set(data);
    this.values[c] = values;
    this.words[c] = new Int32Array(bytes);
  }

  /** Appends `value` to the ring window whose sum, next slot and ring are at `sum`, `head` and `ring`. */
  protected push(values: Float64Array, words: Int32Array, sum: number, head: number, ring: number, value: number): void {
    const size = this.ringLength;
    const at = words[head]!;
    const slot = ring + at;
    const evicted = values[slot]!; // 0 while the ring is not full
    values[slot] = value;
    const next = at + 1;
    const wrapped = next === size;
    words[head] = wrapped ? 0 : next;
    values[sum] = values[sum]! - evicted + value;
    if ((Number(wrapped) & this.inexact) !== 0) {
      let exact = 0;
      for (let i = ring, end = ring + size; i < end; i++) exact += values[i]!;
      values[sum] = exact;
    }
  }

  /**
   * The run after a filtered delta of sign `sign` (−1, 0, +1): extended and saturated at ±k, or
   * restarted; zero is neither sign and ends any run. Arithmetic rather than branches on the
   * sign, which a branch predictor cannot guess.
   */
  protected nextRun(run: number, sign: number): number {
    const next = sign + Number(run * sign > 0) * run;
    return next - Number(next > this.k) + Number(next < -this.k);
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

  /** The chunk of the player at index `player`, as doubles and as 32-bit words. */
  protected valuesOf(player: number): Float64Array {
    return this.values[player >>> CHUNK_BITS]!;
  }

  protected wordsOf(player: number): Int32Array {
    return this.words[player >>> CHUNK_BITS]!;
  }

  /** Where the player's block starts in its chunk, in doubles. */
  protected baseOf(player: number): number {
    return (player & CHUNK_MASK) * this.stride;
  }

  /** CQR_{T,x,k} of the player at index `player` (docs/spec.md §2.1 step 3). */
  scoreAt(player: number): number {
    return this.valuesOf(player)[this.baseOf(player) + this.windowOf(player).sum]!;
  }

  actionsAt(player: number): number {
    return this.valuesOf(player)[this.baseOf(player) + ACTIONS]!;
  }

  /**
   * How many deltas the ring at `at` holds. Rings do not count their pushes: with x > 0 a
   * filtered delta is never 0, so the ring holds its nonzero slots; with x = 0 every delta
   * enters the window of all filtered deltas, which holds min(T, actions) of them.
   */
  private lengthOf(values: Float64Array, base: number, at: WindowPlace): number {
    if (this.x === 0 && at === this.all) return Math.min(this.ringLength, values[base + ACTIONS]!);
    let length = 0;
    for (let i = base + at.ring, end = i + this.ringLength; i < end; i++) if (values[i] !== 0) length++;
    return length;
  }

  /** The deltas the score sums, oldest first (empty with T = ∞: nothing is kept). */
  windowAt(player: number): number[] {
    const size = this.ringLength;
    if (size === 0) return [];
    const values = this.valuesOf(player);
    const words = this.wordsOf(player);
    const base = this.baseOf(player);
    const at = this.windowOf(player);
    const head = words[2 * base + at.head]!;
    const length = this.lengthOf(values, base, at);
    const out: number[] = [];
    for (let i = 0; i < length; i++) out.push(values[base + at.ring + ((head - length + i + size) % size)]!);
    return out;
  }

  toSnapshot(): CqrStoreSnapshot {
    const n = this.players.size;
    const chunks = this.values.slice(0, Math.ceil(n / CHUNK_PLAYERS)).map((chunk, c) => encodeArray(chunk.subarray(0, Math.min(CHUNK_PLAYERS, n - c * CHUNK_PLAYERS) * this.stride)));
    return { layout: 3, players: this.players.ids(), chunks, inexact: this.inexact === 1 };
  }

  static fromSnapshot(params: CqrParams, snapshot: CqrStoreSnapshot | LegacyCqrStoreSnapshot): CqrCommunityStore {
    const store = CqrCommunityStore.create(params);
    store.players = Interner.from(snapshot.players);
    if (!('layout' in snapshot)) {
      // Sums from before the exact-integer rule: they keep being recomputed at each wrap.
      store.inexact = 1;
      let player = 0;
      for (const state of legacyPlayers(params, snapshot)) store.write(player++, state);
      return store;
    }
    if (snapshot.layout !== 2 && snapshot.layout !== 3) throw new SnapshotError(`cqr checkpoint: layout ${String(snapshot.layout)} is not one this version reads (2, 3)`);
    const n = snapshot.players.length;
    const chunks = Math.ceil(n / CHUNK_PLAYERS);
    if (snapshot.chunks.length !== chunks) throw new SnapshotError(`cqr checkpoint: ${snapshot.chunks.length} chunks for ${n} players, expected ${chunks}`);
    snapshot.chunks.forEach((text, c) => {
      const data = decodeFloat64(text);
      // Layout 2 kept every chunk whole; layout 3 cuts the last one after its last player.
      const players = snapshot.layout === 2 ? CHUNK_PLAYERS : Math.min(CHUNK_PLAYERS, n - c * CHUNK_PLAYERS);
      if (data.length !== players * store.stride) throw new SnapshotError(`cqr checkpoint: chunk ${c} holds ${data.length} doubles, expected ${players * store.stride} for these parameters`);
      // A lone first chunk gets room as growing to its players would have made; others are whole.
      const room = chunks === 1 ? Math.min(CHUNK_PLAYERS, Math.max(FIRST_PLAYERS, 2 ** Math.ceil(Math.log2(Math.max(1, players))))) : CHUNK_PLAYERS;
      if (data.length === room * store.stride) {
        store.values[c] = data;
        store.words[c] = new Int32Array(data.buffer);
      } else {
        store.setChunk(c, room, data.subarray(0, Math.min(data.length, room * store.stride))); // layout 2: zeros past the players
      }
      store.capacity += room;
    });
    if (snapshot.inexact) store.inexact = 1;
    return store;
  }

  /** Sets the state of the player at index `player` (the next one, or one already held). */
  private write(player: number, state: PlayerState): void {
    const chunk = player >>> CHUNK_BITS;
    if (player === this.capacity) this.grow();
    const values = this.values[chunk]!;
    const words = this.words[chunk]!;
    const base = this.baseOf(player);
    values[base + ACTIONS] = state.actions;
    if (this.signFilter) values[base + RUN] = state.run;
    [this.all, this.positive, this.negative].slice(0, state.windows.length).forEach((at, w) => {
      const window = state.windows[w]!;
      values[base + at.sum] = window.sum;
      if (this.ringLength === 0) return;
      words[2 * base + at.head] = window.head;
      values.set(window.ring, base + at.ring);
    });
  }

  /** Bytes held in typed arrays (allocated chunks, not only used blocks). */
  typedArrayBytes(): number {
    return this.values.reduce((bytes, chunk) => bytes + chunk.byteLength, 0);
  }
}

/** T = ∞, k = ∞ (no window, no sign filter): a player's score is the sum of its filtered deltas. */
class SumStore extends CqrCommunityStore {
  add(id: string, delta: number): void {
    const player = this.enter(id);
    const values = this.valuesOf(player);
    const base = this.baseOf(player);
    values[base + ACTIONS]!++;
    if (Math.abs(delta) >= this.x) values[base + this.all.sum]! += delta; // f_x
  }
}

/** T = ∞, k finite: sums of all, of the positive and of the negative filtered deltas, and the run. */
class SignedSumStore extends CqrCommunityStore {
  add(id: string, delta: number): void {
    const player = this.enter(id);
    const values = this.valuesOf(player);
    const base = this.baseOf(player);
    values[base + ACTIONS]!++;
    if (!(Math.abs(delta) >= this.x)) return; // f_x
    values[base + this.all.sum]! += delta;
    // The negative window's sum follows the positive one's.
    const sign = Number(delta > 0) - Number(delta < 0);
    if (sign !== 0) values[base + this.positive.sum + Number(delta < 0)]! += delta;
    values[base + RUN] = this.nextRun(values[base + RUN]!, sign);
  }
}

/** T finite, k = T (no sign filter): the ring of the last T filtered deltas. */
class RingStore extends CqrCommunityStore {
  add(id: string, delta: number): void {
    const player = this.enter(id);
    const values = this.valuesOf(player);
    const base = this.baseOf(player);
    values[base + ACTIONS]!++;
    if (!(Math.abs(delta) >= this.x)) return; // f_x
    if ((delta | 0) !== delta) this.inexact = 1;
    const all = this.all;
    this.push(values, this.wordsOf(player), base + all.sum, 2 * base + all.head, base + all.ring, delta);
  }
}

/** T finite, k < T: the rings of the last T filtered, positive and negative deltas, and the run. */
class SignedRingStore extends CqrCommunityStore {
  add(id: string, delta: number): void {
    const player = this.enter(id);
    const values = this.valuesOf(player);
    const words = this.wordsOf(player);
    const base = this.baseOf(player);
    values[base + ACTIONS]!++;
    if (!(Math.abs(delta) >= this.x)) return; // f_x
    if ((delta | 0) !== delta) this.inexact = 1;
    const all = this.all;
    this.push(values, words, base + all.sum, 2 * base + all.head, base + all.ring, delta);
    // The sign window chosen by arithmetic, not by a branch on the sign: the negative window's
    // sum, next slot and ring follow the positive one's.
    const sign = Number(delta > 0) - Number(delta < 0);
    if (sign !== 0) {
      const negative = Number(delta < 0);
      const positive = this.positive;
      this.push(values, words, base + positive.sum + negative, 2 * base + positive.head + negative, base + positive.ring + negative * this.ringLength, delta);
    }
    values[base + RUN] = this.nextRun(values[base + RUN]!, sign);
  }
}

for (const input of [{}, { k: 8 }, { T: Infinity }, { T: Infinity, k: Infinity }]) keepShapes(CqrCommunityStore.create(cqrParams.resolve(input)));
