/**
 * One community's PlayerRating state (Kaiser & Feng; SPEC §4): the current ratings as an edge
 * store, each expiring TTL_MAX · T_expire of event time after it was (re)set, and the
 * computation of reputations for an observer set over a CSR snapshot.
 */
import { incomingCsr, type IncomingCsr, type IterationReport } from '../../graph/csr.js';
import { EdgeStore, type EdgeStoreSnapshot } from '../../graph/edge-store.js';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ExpiryQueue, type ExpiryQueueSnapshot } from '../../util/expiry-queue.js';
import type { TimeQueueSnapshot } from '../../util/time-queue.js';
import { balancedSplit, kernelArrays, runKernel } from './kernel.js';
import { positiveInfluence } from './params.js';
import type { TrustParams } from './params.js';

const HOUR_MS = 3_600_000;

/** Graphs with at least this many ratings are computed on two threads by default. */
export const PARALLEL_MIN_EDGES = 250_000;

export interface TrustResult extends IterationReport {
  /** Reputation of each player index as seen by the observers. */
  readonly reputation: Float64Array;
  /** The observers' indices (known players only). */
  readonly observers: readonly number[];
  readonly csr: IncomingCsr;
  /** Threads the iteration ran on (1 or 2). */
  readonly threads: number;
}

/** The expiry queue as checkpoints before the typed queue wrote it: one object per rating. */
type LegacyExpiry = TimeQueueSnapshot<{ time: number; slot: number; set: number }>;

export interface TrustSnapshot {
  readonly ratings: EdgeStoreSnapshot;
  /** When each rating expires; the legacy form is still read, so older checkpoints restore. */
  readonly expiry: ExpiryQueueSnapshot | LegacyExpiry;
  readonly newest: number | null;
}

/** The queue a legacy checkpoint describes: the same entries in the same FIFO and heap order. */
function fromLegacy(s: LegacyExpiry): ExpiryQueue {
  const { fifo, late } = s;
  return ExpiryQueue.fromArrays({
    fifoTime: Float64Array.from(fifo, (e) => e.time),
    fifoSlot: Int32Array.from(fifo, (e) => e.slot),
    fifoStamp: Float64Array.from(fifo, (e) => e.set),
    lateTime: Float64Array.from(late.items, (e) => e.key),
    lateOrder: Float64Array.from(late.items, (e) => e.order),
    lateSlot: Int32Array.from(late.items, (e) => e.value.slot),
    lateStamp: Float64Array.from(late.items, (e) => e.value.set),
    inserted: late.inserted,
  });
}

export class TrustCommunity {
  ratings = new EdgeStore();
  /** (expiry time, slot, time the rating was set) per rating set: typed arrays, no objects. */
  private expiry = new ExpiryQueue();
  private newest = -Infinity;
  private readonly lifetime: number;
  private cache: { version: number; at: number; observers: string; result: TrustResult } | undefined;

  constructor(readonly params: TrustParams) {
    this.lifetime = params.ttlMax * params.expireHours * HOUR_MS;
  }

  toSnapshot(): TrustSnapshot {
    return { ratings: this.ratings.toSnapshot(), expiry: this.expiry.toSnapshot(), newest: Number.isFinite(this.newest) ? this.newest : null };
  }

  static fromSnapshot(params: TrustParams, s: TrustSnapshot): TrustCommunity {
    const c = new TrustCommunity(params);
    c.ratings = EdgeStore.fromSnapshot(s.ratings);
    c.expiry = Array.isArray(s.expiry.fifo) ? fromLegacy(s.expiry as LegacyExpiry) : ExpiryQueue.fromSnapshot(s.expiry as ExpiryQueueSnapshot);
    c.newest = s.newest ?? -Infinity;
    return c;
  }

  get now(): number {
    return this.newest;
  }

  /** Moves the clock to `time` and removes every rating whose TTL has reached 0. */
  advance(time: number): void {
    if (time > this.newest) this.newest = time;
    if (this.expiry.peekTime() > this.newest) return; // nothing due: no work, no allocation
    const store = this.ratings;
    this.expiry.popBefore(this.newest, true, (slot, set) => {
      if (store.alive[slot] === 1 && store.time[slot] === set) store.removeSlot(slot); // not re-set since
    });
  }

  /** r_from,to = value (0 withdraws), TTL reset to TTL_MAX. */
  rate(from: string, to: string, value: number, time: number): void {
    if (value === 0) {
      this.ratings.remove(from, to);
      return;
    }
    if (time + this.lifetime <= this.newest) return; // already expired on arrival
    const slot = this.ratings.set(from, to, value, time);
    this.expiry.push(time + this.lifetime, slot, time);
  }

  /**
   * Threads for a computation over `edges` ratings: `threads` when set, else two on graphs of
   * PARALLEL_MIN_EDGES or more with the default Influence (a function cannot cross threads)
   * and at least two cores.
   */
  private threadsFor(edges: number): number {
    const p = this.params;
    if (p.influence !== positiveInfluence) return 1;
    if (p.threads > 0) return Math.min(p.threads, 2);
    return edges >= PARALLEL_MIN_EDGES && availableParallelism() > 1 ? 2 : 1;
  }

  /** TTL of the rating in `slot` now: TTL_MAX − ⌊(now − set) / T_expire⌋. */
  ttlOf(slot: number): number {
    const p = this.params;
    return p.ttlMax - Math.floor((this.newest - this.ratings.time[slot]!) / (p.expireHours * HOUR_MS));
  }

  /**
   * Reputations seen by the observers (SPEC §4): R = 1 on S, 0 elsewhere, then Jacobi steps
   * R'_j = Σ_i Inf(R_i)·w_ij·r_ij·R_i·Decay(TTL_ij) / Σ_i Inf(R_i)·w_ij over raters with
   * Inf(R_i) > 0 (w_ij = negativeWeight for a negative rating, else 1), R'_s = 1, until the RMSD
   * over rated players is below the tolerance or after maxIterations.
   */
  compute(observerIds: readonly string[] = this.params.observers): TrustResult {
    const store = this.ratings;
    const key = observerIds.join('\u0000');
    const cached = this.cache;
    if (cached !== undefined && cached.version === store.version && cached.at === this.newest && cached.observers === key) return cached.result;
    const started = performance.now();
    const p = this.params;
    const n = store.players.size;
    const csr = incomingCsr(n, store.slots, store.from, store.to, (e) =>
      store.alive[e] === 1 ? store.value[e]! * p.decay(this.ttlOf(e), p.ttlMax) : null,
    );
    const { offsets, sources } = csr;
    const observers = observerIds.map((id) => store.players.indexOf(id)).filter((i) => i >= 0);
    const threads = this.threadsFor(sources.length);
    const arrays = kernelArrays(csr, observers, p.negativeWeight, threads > 1);
    let rated = 0;
    for (let j = 0; j < n; j++) if (offsets[j + 1]! > offsets[j]! && arrays.pinned[j] === 0) rated++;
    const common = { arrays, maxIterations: p.maxIterations, tolerance: p.tolerance, rated };
    let residuals: number[];
    if (threads > 1) {
      const split = balancedSplit(offsets, n);
      const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: { ...common, lo: split, hi: n, parties: 2 } });
      try {
        residuals = runKernel({ ...common, lo: 0, hi: split, parties: 2, influence: p.influence, leader: true });
      } finally {
        void worker.terminate();
      }
    } else {
      residuals = runKernel({ ...common, lo: 0, hi: n, parties: 1, influence: p.influence, leader: true });
    }
    const current = residuals.length % 2 === 1 ? arrays.b : arrays.a;
    const converged = residuals.length > 0 && residuals.at(-1)! < p.tolerance;
    const result: TrustResult = {
      reputation: Float64Array.from(current),
      observers,
      csr,
      threads,
      iterations: residuals.length,
      residuals,
      converged,
      milliseconds: performance.now() - started,
    };
    this.cache = { version: store.version, at: this.newest, observers: key, result };
    return result;
  }
}
