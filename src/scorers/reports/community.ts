/**
 * One community's report state (Kim, Shim & Kim; docs/spec.md §5): games played per player, reports
 * made, and the report edges; the judgment and bad-player points computed over a CSR snapshot.
 * Each report kept also keeps its event time (what the explanation dates it by; the ranking
 * never reads it). With the defences of ./params.ts on, also the matches each player started
 * within the shared-match window, the match each report is attributed to, and the verdicts on
 * reports.
 *
 * The match defences (sharedMatchDays, and oneVoicePerMatch with it) read `match.start` events,
 * which a community may never send: they engage in a community at its first `match.start`. Until
 * then its reports are kept as the published method keeps them (each its own voice); from then on
 * a report needs a shared match. Reports kept before are not judged again.
 */
import { incomingCsr, type IterationReport } from '../../graph/csr.js';
import type { VerdictEvent } from '../../events/types.js';
import { Interner } from '../../util/interner.js';
import { pairCounts } from '../../util/pair-counts.js';
import { TimeQueue } from '../../util/time-queue.js';
import { decodeFloat64, decodeInt32, decodeUint8, encodeArray } from '../../util/snapshot.js';
import { withLength } from '../../util/typed-arrays.js';
import { reporterAccuracy } from './formula.js';
import type { ReportsParams } from './params.js';
import { SnapshotError } from '../../errors.js';

/** Players (and reports) the arrays have room for at first; they double as they arrive. */
const INITIAL_CAPACITY = 4;
const DAY_MS = 86_400_000;

/** A report's verdict: none yet, upheld, dismissed. */
export const NO_VERDICT = 0;
export const UPHELD = 1;
export const DISMISSED = 2;

export interface ReportsResult extends IterationReport {
  /** Judgment points JP(u). */
  readonly jp: Float64Array;
  /** Bad-player points BP(u). */
  readonly bp: Float64Array;
  /** Games per report, community-wide: Nr = Σ Pt / Σ n. */
  readonly gamesPerReport: number;
  /**
   * With the defences: each reporter's accuracy factor (1 without verdicts) and each report's
   * multiplier (0 when dismissed, 1/m for one of m voices of a match). Absent without defences.
   */
  readonly accuracy?: Float64Array;
  readonly multiplier?: Float64Array;
}

/** A match as the shared-match window keeps it. */
interface SharedMatch {
  readonly key: number;
  readonly time: number;
  readonly players: readonly string[];
}

export interface ReportsSnapshot {
  readonly players: readonly string[];
  readonly games: string;
  readonly made: string;
  readonly from: string;
  readonly to: string;
  /**
   * Each report's event time. A snapshot without it (written before report times were kept)
   * is refused: the community is replayed from its log, which has the times.
   */
  readonly times: string;
  readonly reports: number;
  readonly totalGames: number;
  readonly matches: readonly [string, readonly string[]][];
  /** The defences' state, present when any defence is on. */
  readonly defended?: {
    /** Whether the match defences are engaged (the community sent a `match.start`). */
    readonly engaged: boolean;
    readonly newest: number | null;
    readonly matchKeys: number;
    readonly shared: readonly [number, number, readonly string[]][];
    readonly recent: readonly [string, readonly number[]][];
    readonly group: string;
    readonly verdict: string;
    readonly ids: readonly [string, number][];
  };
}

/** A report array of a defence that is off: empty, shared (nothing is ever written to it). */
const NO_GROUPS = new Int32Array(0);
const NO_VERDICTS = new Uint8Array(0);

export class ReportsCommunity {
  players = new Interner();
  games = new Float64Array(INITIAL_CAPACITY);
  made = new Float64Array(INITIAL_CAPACITY);
  from = new Int32Array(INITIAL_CAPACITY);
  to = new Int32Array(INITIAL_CAPACITY);
  /** Each report's event time (epoch ms). */
  times = new Float64Array(INITIAL_CAPACITY);
  reports = 0;
  private totalGames = 0;
  private matches = new Map<string, readonly string[]>();
  private version = 0;
  private cache: { version: number; result: ReportsResult } | undefined;
  /** The reports about each player, built for explanations when reports were added since. */
  private incoming: { reports: number; offsets: Int32Array; edges: Int32Array } | undefined;

  /** The shared-match window in ms (0: off), one voice per match, the least split, verdicts used. */
  private readonly window: number;
  private readonly split: number;
  private readonly voice: boolean;
  private readonly perReporter: boolean;
  private readonly verdicts: boolean;
  private readonly defended: boolean;
  /** The community's clock (its newest event time): matches that started more than the window before it are forgotten. */
  private newest = -Infinity;
  /** With the window: whether the community has sent a `match.start`, which engages the match defences. */
  private engaged = false;
  private matchKeys = 0;
  /**
   * Per player, the matches it started within the window, in arrival order; and the same matches
   * by start time, to forget them when they leave the window. Made by the first shared match
   * (none without the window: most communities keep no empty ones).
   */
  private recent: Map<string, SharedMatch[]> | undefined;
  private expiry: TimeQueue<SharedMatch> | undefined;
  /** Per report: the key of the match it is attributed to (voice), and its verdict. */
  private group = NO_GROUPS;
  private verdict = NO_VERDICTS;
  /** Report index by event id, and the reports of each reporter–reported pair (verdicts only; made on first use). */
  private ids: Map<string, number> | undefined;
  private byPair: Map<string, number[]> | undefined;

  constructor(private readonly params: ReportsParams) {
    this.window = params.sharedMatchDays * DAY_MS;
    this.voice = params.oneVoicePerMatch;
    this.perReporter = params.oneVoicePerReporter;
    this.split = params.judgmentSplit;
    this.verdicts = params.accuracyPrior !== Infinity;
    this.defended = this.window > 0 || this.voice || this.perReporter || this.split > 1 || this.verdicts;
    if (this.voice) this.group = new Int32Array(INITIAL_CAPACITY);
    if (this.verdicts) this.verdict = new Uint8Array(INITIAL_CAPACITY);
  }

  /** The players' entries only (a snapshot from before held the arrays' whole capacity: both restore). */
  toSnapshot(): ReportsSnapshot {
    const n = this.players.size;
    const snapshot: ReportsSnapshot = {
      players: this.players.ids(),
      games: encodeArray(this.games.subarray(0, n)),
      made: encodeArray(this.made.subarray(0, n)),
      from: encodeArray(this.from.subarray(0, this.reports)),
      to: encodeArray(this.to.subarray(0, this.reports)),
      times: encodeArray(this.times.subarray(0, this.reports)),
      reports: this.reports,
      totalGames: this.totalGames,
      matches: [...this.matches],
    };
    if (!this.defended) return snapshot;
    const shared = new Map<number, SharedMatch>();
    for (const list of this.recent?.values() ?? []) for (const m of list) shared.set(m.key, m);
    return {
      ...snapshot,
      defended: {
        engaged: this.engaged,
        newest: Number.isFinite(this.newest) ? this.newest : null,
        matchKeys: this.matchKeys,
        shared: [...shared.values()].sort((a, b) => a.key - b.key).map((m) => [m.key, m.time, m.players]),
        recent: [...(this.recent ?? [])].map(([player, list]) => [player, list.map((m) => m.key)]),
        group: encodeArray(this.group.subarray(0, this.voice ? this.reports : 0)),
        verdict: encodeArray(this.verdict.subarray(0, this.verdicts ? this.reports : 0)),
        ids: [...(this.ids ?? [])],
      },
    };
  }

  static fromSnapshot(params: ReportsParams, s: ReportsSnapshot): ReportsCommunity {
    if (typeof s.times !== 'string') throw new SnapshotError('reports checkpoint: written without report times (by an earlier version); the log has them');
    const c = new ReportsCommunity(params);
    c.players = Interner.from(s.players);
    const games = decodeFloat64(s.games);
    let capacity = INITIAL_CAPACITY;
    while (capacity < games.length) capacity *= 2;
    c.games = withLength(games, capacity);
    c.made = withLength(decodeFloat64(s.made), capacity);
    const from = decodeInt32(s.from);
    const to = decodeInt32(s.to);
    const room = Math.max(INITIAL_CAPACITY, from.length * 2);
    c.from = new Int32Array(room);
    c.to = new Int32Array(room);
    c.from.set(from);
    c.to.set(to);
    const times = decodeFloat64(s.times);
    if (times.length !== from.length) throw new SnapshotError(`reports checkpoint: ${times.length} report times for ${from.length} reports`);
    c.times = withLength(times, room);
    c.reports = s.reports;
    c.totalGames = s.totalGames;
    c.matches = new Map(s.matches);
    const d = s.defended;
    if (d !== undefined) {
      if (typeof d.engaged !== 'boolean') throw new SnapshotError('reports checkpoint: written without whether the match defences are engaged (by an earlier version); the log has it');
      c.engaged = d.engaged;
      c.newest = d.newest ?? -Infinity;
      c.matchKeys = d.matchKeys;
      const shared = new Map(d.shared.map(([key, time, players]) => [key, { key, time, players }]));
      if (d.recent.length > 0) c.recent = new Map(d.recent.map(([player, keys]) => [player, keys.map((key) => shared.get(key)!)]));
      for (const m of [...shared.values()].sort((a, b) => a.time - b.time || a.key - b.key)) (c.expiry ??= new TimeQueue<SharedMatch>()).push(m);
      if (c.voice) c.group = withLength(decodeInt32(d.group), room);
      if (c.verdicts) {
        c.verdict = withLength(decodeUint8(d.verdict), room);
        c.ids = new Map(d.ids);
        for (let e = 0; e < c.reports; e++) c.pairList(c.from[e]!, c.to[e]!).push(e);
      }
    }
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

  /**
   * Moves the community's clock to `time` (never back): with the shared-match window, matches that
   * started more than the window before it are forgotten.
   */
  advance(time: number): void {
    if (this.window === 0 || time <= this.newest) return;
    this.newest = time;
    this.forgetOld();
  }

  /**
   * Whether the match defences (the shared-match window, and one voice per match with it) apply to
   * the reports that arrive now: they are on and the community has sent a `match.start`.
   */
  get matchDefencesEngaged(): boolean {
    return this.engaged;
  }

  start(match: string, players: readonly string[], time: number): void {
    this.matches.set(match, players);
    if (this.window === 0) return;
    this.engaged = true;
    if (time > this.newest) this.newest = time;
    const shared: SharedMatch = { key: ++this.matchKeys, time, players: [...new Set(players)] };
    const recent = (this.recent ??= new Map());
    for (const id of shared.players) {
      const list = recent.get(id);
      if (list === undefined) recent.set(id, [shared]);
      else list.push(shared);
    }
    (this.expiry ??= new TimeQueue<SharedMatch>()).push(shared);
    this.forgetOld();
  }

  /** Forgets every match that started more than the window before the community's clock. */
  private forgetOld(): void {
    const recent = this.recent;
    if (this.expiry === undefined || recent === undefined) return;
    this.expiry.popBefore(this.newest - this.window, (m) => {
      for (const id of m.players) {
        const list = recent.get(id);
        if (list === undefined) continue;
        const at = list.indexOf(m);
        if (at >= 0) list.splice(at, 1);
        if (list.length === 0) recent.delete(id);
      }
    });
  }

  /**
   * The key of the latest match `k` and `u` started together at most the window before `time`
   * (and not after it), or −1.
   */
  private sharedMatch(k: string, u: string, time: number): number {
    const list = this.recent?.get(k);
    if (list === undefined) return -1;
    for (let i = list.length - 1; i >= 0; i--) {
      const m = list[i]!;
      if (m.time > time) continue; // started after the report
      if (time - m.time > this.window) break;
      if (m.players.includes(u)) return m.key;
    }
    return -1;
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

  /**
   * k reports u; a report of oneself is ignored (docs/spec.md §5), and so, with the shared-match
   * window engaged, is a report of a player k did not start a match with within the window. A
   * report kept before the window engaged is its own voice (a group no other report has).
   */
  report(k: string, u: string, time = 0, id?: string): void {
    if (k === u) return;
    let group = -1 - this.reports;
    if (this.engaged) {
      group = this.sharedMatch(k, u, time);
      if (group < 0) return;
    }
    const from = this.player(k);
    const to = this.player(u);
    if (this.reports === this.from.length) {
      this.from = withLength(this.from, 2 * this.from.length);
      this.to = withLength(this.to, 2 * this.to.length);
      this.times = withLength(this.times, 2 * this.times.length);
      if (this.voice) this.group = withLength(this.group, this.from.length);
      if (this.verdicts) this.verdict = withLength(this.verdict, this.from.length);
    }
    const e = this.reports;
    this.from[e] = from;
    this.to[e] = to;
    this.times[e] = time;
    if (this.voice) this.group[e] = group;
    if (this.verdicts) {
      if (id !== undefined) (this.ids ??= new Map()).set(id, e);
      this.pairList(from, to).push(e);
    }
    this.reports++;
    this.made[from]!++;
    this.version++;
  }

  private pairList(from: number, to: number): number[] {
    const key = `${from}:${to}`;
    const byPair = (this.byPair ??= new Map());
    let list = byPair.get(key);
    if (list === undefined) byPair.set(key, (list = []));
    return list;
  }

  /**
   * A moderator's verdict: on the report with id `report`, or on every report `from` filed about
   * `to` so far, or (on a player) on every report about `player` so far. Ignored unless verdicts
   * are used (accuracyPrior finite), and for reports not kept.
   */
  judge(event: Pick<VerdictEvent, 'on' | 'outcome' | 'report' | 'from' | 'to' | 'player'>): void {
    if (!this.verdicts) return;
    const outcome = event.outcome === 'upheld' ? UPHELD : DISMISSED;
    let judged: ArrayLike<number> = [];
    if (event.on === 'player') {
      const u = event.player === undefined ? -1 : this.players.indexOf(event.player);
      if (u >= 0) judged = this.reportsOf(u);
    } else if (event.report !== undefined) {
      const e = this.ids?.get(event.report);
      if (e !== undefined) judged = [e];
    } else if (event.from !== undefined && event.to !== undefined) {
      const from = this.players.indexOf(event.from);
      const to = this.players.indexOf(event.to);
      if (from >= 0 && to >= 0) judged = this.byPair?.get(`${from}:${to}`) ?? [];
    }
    for (let i = 0; i < judged.length; i++) {
      const e = judged[i]!;
      if (this.verdict[e] === outcome) continue;
      this.verdict[e] = outcome;
      this.version++;
    }
  }

  /**
   * The reports about player `u` (indices into from, to and times), in the order they were
   * filed. Built in O(players + reports) when reports were added since the last call, then
   * O(reports about u).
   */
  reportsOf(u: number): Int32Array {
    let index = this.incoming;
    if (index?.reports !== this.reports) {
      const n = this.players.size;
      const offsets = new Int32Array(n + 1);
      for (let e = 0; e < this.reports; e++) offsets[this.to[e]! + 1]!++;
      for (let v = 0; v < n; v++) offsets[v + 1]! += offsets[v]!;
      const next = offsets.slice(0, n);
      const edges = new Int32Array(this.reports);
      for (let e = 0; e < this.reports; e++) edges[next[this.to[e]!]!++] = e;
      this.incoming = index = { reports: this.reports, offsets, edges };
    }
    return u + 1 < index.offsets.length ? index.edges.subarray(index.offsets[u]!, index.offsets[u + 1]!) : new Int32Array(0);
  }

  /** The verdict on report `e` (NO_VERDICT when verdicts are not used). */
  verdictOf(e: number): number {
    return this.verdicts ? this.verdict[e]! : NO_VERDICT;
  }

  /** The weight report `e` carries in `result`: its reporter's JP / reports made, times the defences' factors. */
  weightOf(result: ReportsResult, e: number): number {
    const k = this.from[e]!;
    if (result.accuracy === undefined || result.multiplier === undefined) return result.jp[k]! / this.made[k]!;
    return ((result.accuracy[k]! * result.jp[k]!) / Math.max(this.made[k]!, this.split)) * result.multiplier[e]!;
  }

  /**
   * JP(u) = max(0, Pt(u)/Nr − BP(u)) and BP(u) = Σ_{k→u} JP(k)/n(k), iterated from BP = 0 with
   * JP ← (1 − d)·JP_old + d·JP_new until the largest change is below the tolerance (docs/spec.md §5).
   * With no reports or no games every JP and BP is 0. With the defences, a report's term is
   * a(k)·JP(k)/max(n(k), judgmentSplit)·w(e): a(k) the reporter's accuracy, w(e) 0 for a dismissed
   * report, else 1/m for one of m reports of u from one match (one voice per match) times 1/c for
   * one of c reports of u by k (one voice per reporter). The same over plain Maps, to read: ./formula.ts.
   */
  compute(): ReportsResult {
    if (this.cache?.version === this.version) return this.cache.result;
    const started = performance.now();
    const n = this.players.size;
    const jp = new Float64Array(n);
    const bp = new Float64Array(n);
    const residuals: number[] = [];
    const nr = this.reports > 0 && this.totalGames > 0 ? this.totalGames / this.reports : 0;
    const factors = this.defended ? this.defenceFactors(n) : undefined;
    let converged = true;
    if (nr > 0) {
      const multiplier = factors?.multiplier;
      const { offsets, sources, weights } = incomingCsr(n, this.reports, this.from, this.to, multiplier === undefined ? () => 1 : (e) => multiplier[e]!);
      const base = new Float64Array(n);
      for (let u = 0; u < n; u++) base[u] = this.games[u]! / nr;
      jp.set(base); // BP = 0 at the start
      const share = new Float64Array(n);
      const accuracy = factors?.accuracy;
      const weighted = factors !== undefined;
      const d = this.params.damping;
      converged = false;
      for (let it = 0; it < this.params.maxIterations; it++) {
        this.shares(share, jp, accuracy);
        let largest = 0;
        for (let u = 0; u < n; u++) {
          let sum = 0;
          if (weighted) for (let e = offsets[u]!, end = offsets[u + 1]!; e < end; e++) sum += share[sources[e]!]! * weights[e]!;
          else for (let e = offsets[u]!, end = offsets[u + 1]!; e < end; e++) sum += share[sources[e]!]!;
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
      this.shares(share, jp, accuracy);
      for (let u = 0; u < n; u++) {
        let sum = 0;
        if (weighted) for (let e = offsets[u]!, end = offsets[u + 1]!; e < end; e++) sum += share[sources[e]!]! * weights[e]!;
        else for (let e = offsets[u]!, end = offsets[u + 1]!; e < end; e++) sum += share[sources[e]!]!;
        bp[u] = sum;
      }
    }
    const result: ReportsResult = { jp, bp, gamesPerReport: nr, iterations: residuals.length, residuals, converged, milliseconds: performance.now() - started, ...factors };
    this.cache = { version: this.version, result };
    return result;
  }

  /** Each reporter's influence per report: JP(k)/n(k), or with the defences a(k)·JP(k)/max(n(k), judgmentSplit). */
  private shares(share: Float64Array, jp: Float64Array, accuracy: Float64Array | undefined): void {
    const made = this.made;
    const split = this.split;
    if (accuracy === undefined) for (let k = 0; k < share.length; k++) share[k] = made[k]! > 0 ? jp[k]! / made[k]! : 0;
    else for (let k = 0; k < share.length; k++) share[k] = made[k]! > 0 ? (accuracy[k]! * jp[k]!) / Math.max(made[k]!, split) : 0;
  }

  /** Each reporter's accuracy (u + s)/(u + d + s) and each report's multiplier (verdict, one voice per match and per reporter). */
  private defenceFactors(n: number): { accuracy: Float64Array; multiplier: Float64Array } {
    const m = this.reports;
    const accuracy = new Float64Array(n).fill(1);
    const multiplier = new Float64Array(m).fill(1);
    if (this.verdicts) {
      const upheld = new Float64Array(n);
      const dismissed = new Float64Array(n);
      for (let e = 0; e < m; e++) {
        const v = this.verdict[e]!;
        if (v === UPHELD) upheld[this.from[e]!]!++;
        else if (v === DISMISSED) {
          dismissed[this.from[e]!]!++;
          multiplier[e] = 0;
        }
      }
      const s = this.params.accuracyPrior;
      for (let k = 0; k < n; k++) if (dismissed[k]! > 0) accuracy[k] = reporterAccuracy(upheld[k]!, dismissed[k]!, s);
    }
    if (this.voice) {
      const voices = pairCounts(this.to, this.group, m);
      for (let e = 0; e < m; e++) multiplier[e]! /= voices[e]!;
    }
    if (this.perReporter) {
      const repeats = pairCounts(this.from, this.to, m);
      for (let e = 0; e < m; e++) multiplier[e]! /= repeats[e]!;
    }
    return { accuracy, multiplier };
  }
}
