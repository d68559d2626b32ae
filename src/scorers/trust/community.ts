/**
 * One community's PlayerRating state (Kaiser & Feng; SPEC §4): the current ratings as an edge
 * store, each expiring TTL_MAX · T_expire of event time after it was (re)set, and the
 * computation of reputations for an observer set over a CSR snapshot.
 */
import { incomingCsr, type IncomingCsr, type IterationReport } from '../../graph/csr.js';
import { EdgeStore } from '../../graph/edge-store.js';
import { TimeQueue } from '../../util/time-queue.js';
import type { TrustParams } from './params.js';

const HOUR_MS = 3_600_000;

export interface TrustResult extends IterationReport {
  /** Reputation of each player index as seen by the observers. */
  readonly reputation: Float64Array;
  /** The observers' indices (known players only). */
  readonly observers: readonly number[];
  readonly csr: IncomingCsr;
}

export class TrustCommunity {
  readonly ratings = new EdgeStore();
  private readonly expiry = new TimeQueue<{ time: number; slot: number; set: number }>();
  private newest = -Infinity;
  private readonly lifetime: number;
  private cache: { version: number; at: number; observers: string; result: TrustResult } | undefined;

  constructor(readonly params: TrustParams) {
    this.lifetime = params.ttlMax * params.expireHours * HOUR_MS;
  }

  get now(): number {
    return this.newest;
  }

  /** Moves the clock to `time` and removes every rating whose TTL has reached 0. */
  advance(time: number): void {
    if (time > this.newest) this.newest = time;
    const store = this.ratings;
    this.expiry.popBefore(
      this.newest,
      ({ slot, set }) => {
        if (store.alive[slot] === 1 && store.time[slot] === set) store.removeSlot(slot); // not re-set since
      },
      true,
    );
  }

  /** r_from,to = value (0 withdraws), TTL reset to TTL_MAX. */
  rate(from: string, to: string, value: number, time: number): void {
    if (value === 0) {
      this.ratings.remove(from, to);
      return;
    }
    if (time + this.lifetime <= this.newest) return; // already expired on arrival
    const slot = this.ratings.set(from, to, value, time);
    this.expiry.push({ time: time + this.lifetime, slot, set: time });
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
    const { offsets, sources, weights } = csr;
    const observers = observerIds.map((id) => store.players.indexOf(id)).filter((i) => i >= 0);
    const pinned = new Uint8Array(n);
    for (const s of observers) pinned[s] = 1;
    let current = new Float64Array(n);
    let next = new Float64Array(n);
    for (const s of observers) current[s] = 1;
    let rated = 0;
    for (let j = 0; j < n; j++) if (offsets[j + 1]! > offsets[j]! && pinned[j] === 0) rated++;
    // Per edge: the rating times its decay, and its weight factor (negativeWeight when negative);
    // the numerator takes both, the denominator the factor alone.
    // With negativeWeight 1 (the default) every factor is 1 and the plain loop skips them.
    const plain = p.negativeWeight === 1;
    const m = plain ? 0 : sources.length;
    const factor = new Float64Array(m);
    const weighted = new Float64Array(m);
    for (let e = 0; e < m; e++) {
      const f = weights[e]! < 0 ? p.negativeWeight : 1;
      factor[e] = f;
      weighted[e] = f * weights[e]!;
    }
    // Per node and iteration: Inf(R_i) and Inf(R_i)·R_i side by side, so one gather fetches both.
    // A rater without influence adds 0 to both sums, so the edge loop needs no branch.
    const rater = new Float64Array(2 * n);
    const residuals: number[] = [];
    const influence = p.influence;
    let converged = false;
    for (let it = 0; it < p.maxIterations; it++) {
      for (let i = 0; i < n; i++) {
        const r = current[i]!;
        const inf = influence(r);
        const a = inf > 0 ? inf : 0;
        rater[2 * i] = a;
        rater[2 * i + 1] = a * r;
      }
      let squares = 0;
      for (let j = 0; j < n; j++) {
        const begin = offsets[j]!;
        const end = offsets[j + 1]!;
        if (pinned[j] === 1) {
          next[j] = 1;
          continue;
        }
        let num = 0;
        let den = 0;
        if (plain) {
          for (let e = begin; e < end; e++) {
            const at = 2 * sources[e]!;
            num += weights[e]! * rater[at + 1]!;
            den += rater[at]!;
          }
        } else {
          for (let e = begin; e < end; e++) {
            const at = 2 * sources[e]!;
            num += weighted[e]! * rater[at + 1]!;
            den += factor[e]! * rater[at]!;
          }
        }
        const value = den > 0 ? num / den : 0;
        next[j] = value;
        if (end > begin) {
          const d = value - current[j]!;
          squares += d * d;
        }
      }
      [current, next] = [next, current];
      const rmsd = rated === 0 ? 0 : Math.sqrt(squares / rated);
      residuals.push(rmsd);
      if (rmsd < p.tolerance) {
        converged = true;
        break;
      }
    }
    const result: TrustResult = {
      reputation: current,
      observers,
      csr,
      iterations: residuals.length,
      residuals,
      converged,
      milliseconds: performance.now() - started,
    };
    this.cache = { version: store.version, at: this.newest, observers: key, result };
    return result;
  }
}
