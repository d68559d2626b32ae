/**
 * The per-community CQR state in typed arrays (SPEC §2.1, "efficient form"): for each player a
 * ring of the last T filtered deltas, and (when k < T) a ring of the last T positive and of the
 * last T negative ones, each with a running sum, plus the signed length of the same-sign run at
 * the end of the filtered list. An action costs O(1), a score query O(1).
 *
 * Running sums are recomputed from their ring each time the ring wraps (every T pushes), so
 * floating-point drift stays bounded while the cost stays amortized O(1). With T = ∞ there are
 * no rings, only sums.
 */
import { Interner } from '../../util/interner.js';
import type { CqrParams } from './params.js';

const INITIAL_CAPACITY = 1024;

/** One window (all, positive or negative deltas): ring storage, write head, fill and sum. */
class Window {
  ring: Float64Array;
  head: Int32Array;
  length: Int32Array;
  sum: Float64Array;

  constructor(
    readonly size: number,
    capacity: number,
  ) {
    this.ring = new Float64Array(Number.isFinite(size) ? capacity * size : 0);
    this.head = new Int32Array(Number.isFinite(size) ? capacity : 0);
    this.length = new Int32Array(Number.isFinite(size) ? capacity : 0);
    this.sum = new Float64Array(capacity);
  }

  grow(capacity: number): void {
    const size = this.size;
    this.sum = copyInto(new Float64Array(capacity), this.sum);
    if (!Number.isFinite(size)) return;
    this.ring = copyInto(new Float64Array(capacity * size), this.ring);
    this.head = copyInto(new Int32Array(capacity), this.head);
    this.length = copyInto(new Int32Array(capacity), this.length);
  }

  push(player: number, value: number): void {
    const size = this.size;
    if (size === Infinity) {
      this.sum[player]! += value;
      return;
    }
    const base = player * size;
    const head = this.head[player]!;
    const slot = base + head;
    const full = this.length[player] === size;
    const next = head + 1 === size ? 0 : head + 1;
    const ring = this.ring;
    if (full) this.sum[player]! -= ring[slot]!;
    else this.length[player]!++;
    ring[slot] = value;
    this.head[player] = next;
    if (next === 0) {
      let exact = 0;
      for (let i = base, end = base + size; i < end; i++) exact += ring[i]!;
      this.sum[player] = exact;
    } else {
      this.sum[player]! += value;
    }
  }

  /** The deltas in the window, oldest first (empty with T = ∞: nothing is kept). */
  contents(player: number): number[] {
    const size = this.size;
    if (size === Infinity) return [];
    const length = this.length[player]!;
    const head = this.head[player]!;
    const out: number[] = [];
    for (let i = 0; i < length; i++) {
      out.push(this.ring[player * size + ((head - length + i + size) % size)]!);
    }
    return out;
  }

  bytes(): number {
    return this.ring.byteLength + this.head.byteLength + this.length.byteLength + this.sum.byteLength;
  }
}

function copyInto<A extends Float64Array | Int32Array>(target: A, source: A): A {
  target.set(source);
  return target;
}

/** Which deltas the score sums: all filtered ones, or only one sign after g_k applied. */
export type CqrFilter = 'none' | 'positive' | 'negative';

export class CqrCommunityStore {
  readonly players = new Interner();
  private capacity = INITIAL_CAPACITY;
  private readonly x: number;
  private readonly k: number;
  /** g_k is active only when k < T. */
  private readonly signFilter: boolean;
  private readonly all: Window;
  private readonly positive: Window | undefined;
  private readonly negative: Window | undefined;
  /** Signed run length at the end of F, saturated at ±k: +3 means the last 3 were > 0. */
  private run: Int32Array;
  /** Every action seen, filtered or not. */
  private actions: Float64Array;

  constructor(params: CqrParams) {
    this.x = params.x;
    this.k = params.k;
    this.signFilter = params.k < params.T;
    this.all = new Window(params.T, this.capacity);
    if (this.signFilter) {
      this.positive = new Window(params.T, this.capacity);
      this.negative = new Window(params.T, this.capacity);
    }
    this.run = new Int32Array(this.signFilter ? this.capacity : 0);
    this.actions = new Float64Array(this.capacity);
  }

  get size(): number {
    return this.players.size;
  }

  /** Records one action's delta for `id`. */
  add(id: string, delta: number): void {
    const player = this.players.intern(id);
    if (player >= this.capacity) this.grow();
    this.actions[player]!++;
    if (!(Math.abs(delta) >= this.x)) return; // f_x
    this.all.push(player, delta);
    if (!this.signFilter) return;
    const run = this.run[player]!;
    const k = this.k;
    if (delta > 0) {
      this.positive!.push(player, delta);
      this.run[player] = run > 0 ? (run < k ? run + 1 : k) : 1;
    } else if (delta < 0) {
      this.negative!.push(player, delta);
      this.run[player] = run < 0 ? (run > -k ? run - 1 : -k) : -1;
    } else {
      this.run[player] = 0; // zero is neither sign: it ends any run
    }
  }

  filterOf(player: number): CqrFilter {
    if (!this.signFilter) return 'none';
    const run = this.run[player]!;
    return run >= this.k ? 'positive' : run <= -this.k ? 'negative' : 'none';
  }

  /** CQR_{T,x,k} of the player at `index` (SPEC §2.1 step 3). */
  scoreAt(player: number): number {
    const filter = this.filterOf(player);
    if (filter === 'positive') return this.positive!.sum[player]!;
    if (filter === 'negative') return this.negative!.sum[player]!;
    return this.all.sum[player]!;
  }

  actionsAt(player: number): number {
    return this.actions[player]!;
  }

  /** The deltas the score sums, oldest first (empty with T = ∞). */
  windowAt(player: number): number[] {
    const filter = this.filterOf(player);
    const window = filter === 'positive' ? this.positive! : filter === 'negative' ? this.negative! : this.all;
    return window.contents(player);
  }

  /** Bytes held in typed arrays (allocated capacity, not only used slots). */
  typedArrayBytes(): number {
    return (
      this.all.bytes() +
      (this.positive?.bytes() ?? 0) +
      (this.negative?.bytes() ?? 0) +
      this.run.byteLength +
      this.actions.byteLength
    );
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    this.all.grow(capacity);
    this.positive?.grow(capacity);
    this.negative?.grow(capacity);
    if (this.signFilter) this.run = copyInto(new Int32Array(capacity), this.run);
    this.actions = copyInto(new Float64Array(capacity), this.actions);
    this.capacity = capacity;
  }
}
