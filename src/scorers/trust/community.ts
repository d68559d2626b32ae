/**
 * One community's PlayerRating state (Kaiser & Feng; docs/spec.md §4): the ratings as a log
 * (../../graph/rating-log.ts), each expiring TTL_MAX · T_expire of event time after it was
 * (re)set, and the computation of reputations for an observer set over a CSR snapshot of it.
 */
import type { IncomingCsr, IterationReport } from '../../graph/csr.js';
import { RatingLog, type RatingLogSnapshot } from '../../graph/rating-log.js';
import { availableParallelism } from 'node:os';
import { discardTrustHelper, trustHelper } from './helper.js';
import { iterationModule, runKernel, type KernelRun } from './kernel.js';
import { signalFailure } from './kernel/barrier.js';
import { allocateKernel, discardKernelMemory, loadKernel } from './kernel/memory.js';
import { balancedSplit } from './kernel/split.js';
import { trustFlow } from './flow.js';
import { fromLegacy, type LegacyTrustSnapshot } from './legacy-snapshot.js';
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
  /**
   * Where each ratee's live ratings are in `entries`: offsets copied out of the computation's
   * memory (which the thread's next computation reuses: ./kernel/memory.ts).
   */
  readonly csr: Pick<IncomingCsr, 'nodes' | 'offsets'>;
  /**
   * The log position of each live rating (for its rater, value and time), by ratee, valid until
   * the log changes (the raters are not copied out: the log has them).
   */
  readonly entries: Int32Array;
  /** Threads the iteration ran on (1 or 2). */
  readonly threads: number;
  /**
   * With the trust-flow defence (minFlow > 0): the reputations the iteration reached, before the
   * flow cut (what every rater weighed in the iteration), and each player's normalized flow.
   */
  readonly iterated?: Float64Array;
  readonly flow?: Float64Array;
}

export interface TrustSnapshot {
  readonly log: RatingLogSnapshot;
}

export class TrustCommunity {
  ratings: RatingLog;
  private readonly lifetime: number;
  private cache: { version: number; at: number; observers: string; result: TrustResult } | undefined;

  constructor(readonly params: TrustParams) {
    this.lifetime = params.ttlMax * params.expireHours * HOUR_MS;
    this.ratings = new RatingLog(this.lifetime);
  }

  toSnapshot(): TrustSnapshot {
    return { log: this.ratings.toSnapshot() };
  }

  static fromSnapshot(params: TrustParams, s: TrustSnapshot | LegacyTrustSnapshot): TrustCommunity {
    const c = new TrustCommunity(params);
    c.ratings = 'log' in s ? RatingLog.fromSnapshot(c.lifetime, s.log) : fromLegacy(c.lifetime, s);
    return c;
  }

  get now(): number {
    return this.ratings.newest;
  }

  /** Moves the clock to `time`: ratings whose TTL reaches 0 are out of force from then on. */
  advance(time: number): void {
    this.ratings.advance(time);
  }

  /** r_from,to = value (0 withdraws), TTL reset to TTL_MAX. */
  rate(from: string, to: string, value: number, time: number): void {
    this.ratings.append(from, to, value, time);
  }

  /**
   * Threads for a computation over `edges` live ratings: `threads` when set, else two on graphs
   * of PARALLEL_MIN_EDGES or more with the default Influence (a function cannot cross threads)
   * and at least two cores.
   */
  private threadsFor(edges: number): number {
    const p = this.params;
    if (p.influence !== positiveInfluence) return 1;
    if (p.threads > 0) return Math.min(p.threads, 2);
    return edges >= PARALLEL_MIN_EDGES && availableParallelism() > 1 ? 2 : 1;
  }

  /** TTL now of a rating set at `time`: TTL_MAX − ⌊(now − set) / T_expire⌋. */
  ttlAt(time: number): number {
    const p = this.params;
    return p.ttlMax - Math.floor((this.ratings.newest - time) / (p.expireHours * HOUR_MS));
  }

  /** TTL now of the rating at log position `entry`. */
  ttlOf(entry: number): number {
    return this.ttlAt(this.ratings.timeAt(entry));
  }

  /** Player `rater`'s live rating of player `ratee` in a computation's result, or null. */
  ratingOf(result: TrustResult, rater: number, ratee: number): number | null {
    const { offsets } = result.csr;
    for (let k = offsets[ratee]!, end = offsets[ratee + 1]!; k < end; k++) {
      if (this.ratings.fromAt(result.entries[k]!) === rater) return this.ratings.valueAt(result.entries[k]!);
    }
    return null;
  }

  /**
   * Reputations seen by the observers (docs/spec.md §4): R = 1 on S, 0 elsewhere, then Jacobi steps
   * R'_j = Σ_i Inf(R_i)·w_ij·r_ij·R_i·Decay(TTL_ij) / Σ_i Inf(R_i)·w_ij over raters with
   * Inf(R_i) > 0 (w_ij = negativeWeight for a negative rating, else 1), R'_s = 1, until the RMSD
   * over rated players is below the tolerance or after maxIterations. With the trust-flow
   * defence (minFlow > 0), a player whose flow is below minFlow then shows min(R, 0).
   */
  compute(observerIds: readonly string[] = this.params.observers): TrustResult {
    const log = this.ratings;
    const key = observerIds.join('\u0000');
    const cached = this.cache;
    if (cached !== undefined && cached.version === log.version && cached.at === log.newest && cached.observers === key) return cached.result;
    const started = performance.now();
    const p = this.params;
    const n = log.players.size;
    // The live ratings (which decide the threads) are at most the log's entries. When those may
    // call for two threads, the helper is started (if it is not up yet) before the arrays are
    // built, so its start-up overlaps the build. The CSR is built in the computation's memory,
    // which has room for every entry of the log.
    if (this.threadsFor(log.length) > 1) trustHelper();
    const memory = allocateKernel(n, log.length, p.negativeWeight);
    const { entries, ...csr } = log.byRatee((value, time) => value * p.decay(this.ttlAt(time), p.ttlMax), memory);
    const { offsets } = csr;
    const threads = this.threadsFor(entries.length);
    const shared = threads > 1;
    const observers = observerIds.map((id) => log.players.indexOf(id)).filter((i) => i >= 0);
    const arrays = loadKernel(memory, csr, observers, p.negativeWeight);
    let rated = 0;
    for (let j = 0; j < n; j++) if (offsets[j + 1]! > offsets[j]! && arrays.pinned[j] === 0) rated++;
    const common = { arrays, maxIterations: p.maxIterations, tolerance: p.tolerance, rated };
    let residuals: number[];
    if (shared) {
      const split = balancedSplit(offsets, n);
      const half: Omit<KernelRun, 'influence' | 'leader'> = { ...common, lo: split, hi: n, parties: 2, module: iterationModule() };
      trustHelper().postMessage(half);
      try {
        residuals = runKernel({ ...common, lo: 0, hi: split, parties: 2, influence: p.influence, leader: true });
      } catch (error) {
        signalFailure(arrays.ctrl); // a helper still in this job gives up
        discardTrustHelper(); // and is never handed another
        discardKernelMemory(); // nor is its memory, which it might still write to, used again
        throw error;
      }
    } else {
      residuals = runKernel({ ...common, lo: 0, hi: n, parties: 1, influence: p.influence, leader: true });
    }
    const current = residuals.length % 2 === 1 ? arrays.b : arrays.a;
    const converged = residuals.length > 0 && residuals.at(-1)! < p.tolerance;
    const reputation = current.slice();
    let defence: { iterated: Float64Array; flow: Float64Array } | undefined;
    if (p.minFlow > 0) {
      // The trust-flow defence (./flow.ts): too little flow from the observers, no positive reputation.
      const flow = trustFlow({ nodes: n, offsets, sources: csr.sources, weights: csr.weights }, observers, p.flowDamping);
      defence = { iterated: current.slice(), flow };
      for (let j = 0; j < n; j++) if (flow[j]! < p.minFlow && reputation[j]! > 0) reputation[j] = 0;
    }
    const result: TrustResult = {
      ...defence,
      reputation,
      observers,
      csr: { nodes: n, offsets: offsets.slice() },
      entries,
      threads,
      iterations: residuals.length,
      residuals,
      converged,
      milliseconds: performance.now() - started,
    };
    this.cache = { version: log.version, at: log.newest, observers: key, result };
    return result;
  }
}
