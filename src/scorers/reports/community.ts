/**
 * One community's report state (Kim, Shim & Kim; SPEC §5): games played per player, reports
 * made, and the report edges; the judgment and bad-player points computed over a CSR snapshot.
 */
import { incomingCsr, type IterationReport } from '../../graph/csr.js';
import { Interner } from '../../util/interner.js';
import { decodeFloat64, decodeInt32, encodeArray } from '../../util/snapshot.js';
import { withLength } from '../../util/typed-arrays.js';
import type { ReportsParams } from './params.js';

/** Players (and reports) the arrays have room for at first; they double as they arrive. */
const INITIAL_CAPACITY = 4;

export interface ReportsResult extends IterationReport {
  /** Judgment points JP(u). */
  readonly jp: Float64Array;
  /** Bad-player points BP(u). */
  readonly bp: Float64Array;
  /** Games per report, community-wide: Nr = Σ Pt / Σ n. */
  readonly gamesPerReport: number;
}

export interface ReportsSnapshot {
  readonly players: readonly string[];
  readonly games: string;
  readonly made: string;
  readonly from: string;
  readonly to: string;
  readonly reports: number;
  readonly totalGames: number;
  readonly matches: readonly [string, readonly string[]][];
}

export class ReportsCommunity {
  players = new Interner();
  games = new Float64Array(INITIAL_CAPACITY);
  made = new Float64Array(INITIAL_CAPACITY);
  from = new Int32Array(INITIAL_CAPACITY);
  to = new Int32Array(INITIAL_CAPACITY);
  reports = 0;
  private totalGames = 0;
  private matches = new Map<string, readonly string[]>();
  private version = 0;
  private cache: { version: number; result: ReportsResult } | undefined;

  constructor(private readonly params: ReportsParams) {}

  /** The players' entries only (a snapshot from before held the arrays' whole capacity: both restore). */
  toSnapshot(): ReportsSnapshot {
    const n = this.players.size;
    return {
      players: this.players.ids(),
      games: encodeArray(this.games.subarray(0, n)),
      made: encodeArray(this.made.subarray(0, n)),
      from: encodeArray(this.from.subarray(0, this.reports)),
      to: encodeArray(this.to.subarray(0, this.reports)),
      reports: this.reports,
      totalGames: this.totalGames,
      matches: [...this.matches],
    };
  }

  static fromSnapshot(params: ReportsParams, s: ReportsSnapshot): ReportsCommunity {
    const c = new ReportsCommunity(params);
    c.players = Interner.from(s.players);
    const games = decodeFloat64(s.games);
    let capacity = INITIAL_CAPACITY;
    while (capacity < games.length) capacity *= 2;
    c.games = withLength(games, capacity);
    c.made = withLength(decodeFloat64(s.made), capacity);
    const from = decodeInt32(s.from);
    const to = decodeInt32(s.to);
    c.from = new Int32Array(Math.max(INITIAL_CAPACITY, from.length * 2));
    c.to = new Int32Array(c.from.length);
    c.from.set(from);
    c.to.set(to);
    c.reports = s.reports;
    c.totalGames = s.totalGames;
    c.matches = new Map(s.matches);
    return c;
  }

  private player(id: string): number {
    const i = this.players.intern(id);
    if (i >= this.games.length) {
      this.games = withLength(this.games, 2 * this.games.length);
      this.made = withLength(this.made, 2 * this.made.length);
    }
    return i;
  }

  start(match: string, players: readonly string[]): void {
    this.matches.set(match, players);
  }

  /** A finished match counts one game for each of its players. */
  end(match: string): void {
    const players = this.matches.get(match);
    if (players === undefined) return;
    this.matches.delete(match);
    for (const id of new Set(players)) this.played(id, 1);
  }

  played(id: string, games: number): void {
    const player = this.player(id); // before reading this.games: adding a player may replace the array
    this.games[player]! += games;
    this.totalGames += games;
    this.version++;
  }

  /** k reports u; a report of oneself is ignored (SPEC §5). */
  report(k: string, u: string): void {
    if (k === u) return;
    const from = this.player(k);
    const to = this.player(u);
    if (this.reports === this.from.length) {
      this.from = withLength(this.from, 2 * this.from.length);
      this.to = withLength(this.to, 2 * this.to.length);
    }
    this.from[this.reports] = from;
    this.to[this.reports] = to;
    this.reports++;
    this.made[from]!++;
    this.version++;
  }

  /**
   * JP(u) = max(0, Pt(u)/Nr − BP(u)) and BP(u) = Σ_{k→u} JP(k)/n(k), iterated from BP = 0 with
   * JP ← (1 − d)·JP_old + d·JP_new until the largest change is below the tolerance (SPEC §5).
   * With no reports or no games every JP and BP is 0.
   */
  compute(): ReportsResult {
    if (this.cache?.version === this.version) return this.cache.result;
    const started = performance.now();
    const n = this.players.size;
    const jp = new Float64Array(n);
    const bp = new Float64Array(n);
    const residuals: number[] = [];
    const nr = this.reports > 0 && this.totalGames > 0 ? this.totalGames / this.reports : 0;
    let converged = true;
    if (nr > 0) {
      const { offsets, sources } = incomingCsr(n, this.reports, this.from, this.to, () => 1);
      const base = new Float64Array(n);
      for (let u = 0; u < n; u++) base[u] = this.games[u]! / nr;
      jp.set(base); // BP = 0 at the start
      const share = new Float64Array(n);
      const d = this.params.damping;
      converged = false;
      for (let it = 0; it < this.params.maxIterations; it++) {
        for (let k = 0; k < n; k++) share[k] = this.made[k]! > 0 ? jp[k]! / this.made[k]! : 0;
        let largest = 0;
        for (let u = 0; u < n; u++) {
          let sum = 0;
          for (let e = offsets[u]!, end = offsets[u + 1]!; e < end; e++) sum += share[sources[e]!]!;
          bp[u] = sum;
          const fresh = Math.max(0, base[u]! - sum);
          const next = (1 - d) * jp[u]! + d * fresh;
          const change = Math.abs(next - jp[u]!);
          if (change > largest) largest = change;
          jp[u] = next;
        }
        residuals.push(largest);
        if (largest < this.params.tolerance) {
          converged = true;
          break;
        }
      }
      // BP from the final JP, so each reporter's influence sums to its JP exactly.
      for (let k = 0; k < n; k++) share[k] = this.made[k]! > 0 ? jp[k]! / this.made[k]! : 0;
      for (let u = 0; u < n; u++) {
        let sum = 0;
        for (let e = offsets[u]!, end = offsets[u + 1]!; e < end; e++) sum += share[sources[e]!]!;
        bp[u] = sum;
      }
    }
    const result: ReportsResult = { jp, bp, gamesPerReport: nr, iterations: residuals.length, residuals, converged, milliseconds: performance.now() - started };
    this.cache = { version: this.version, result };
    return result;
  }
}
