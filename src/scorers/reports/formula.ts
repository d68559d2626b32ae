/**
 * The maths of `reports`, written to be read: judgment points and bad-player points over plain
 * lists and Maps keyed by player id, and what the defences make of the reports. The scorer
 * computes the same numbers fast over typed arrays and an incoming CSR (ReportsCommunity.compute
 * in ./community.ts, which keeps its state between events); tests hold the two equal
 * (test/unit/reports/formula.test.ts).
 *
 * Paper: Tae Hyun Kim, Jae Youn Shim and Seong Whan Kim, "Proposition of PageRank based Decision
 * Support System to Detect Bad Players in the MOBA Game" (venue and year not stated in the copy),
 * §4 "Proposition System": the Judgment Points, equation (2), and the Bad Player Points, equation
 * (3), modelled on PageRank, equation (1) of §3. The copy lacks the equations themselves;
 * docs/spec.md §5 reconstructs them from the text and is normative:
 *
 *     Nr    = Σ_u Pt(u) / Σ_k n(k)                     games per report, community-wide
 *     JP(u) = max(0, Pt(u) / Nr − BP(u))               (2)
 *     BP(u) = Σ_{reports k → u} JP(k) / n(k)           (3)
 *
 * with Pt(u) the games u played and n(k) the reports k made. JP and BP depend on each other: from
 * BP = 0 (so JP = Pt/Nr), each step computes BP from the previous step's JP and then
 * JP ← (1 − d)·JP + d·max(0, Pt/Nr − BP), until the largest change of a JP is below the tolerance
 * (or after maxIterations); BP is then computed once more from the final JP. With no reports or
 * no games every JP and BP is 0.
 *
 * The defences (docs/spec.md §6.2, docs/reports.md#defences) change only the terms of (3): a
 * report k → u counts a(k) · JP(k) / max(n(k), judgmentSplit) · w(e), with a(k) the reporter's
 * accuracy from moderators' verdicts and w(e) the report's multiplier (0 when dismissed, divided
 * among the voices of one match and the repeats of one reporter): see defenceFactors. With every
 * defence off, a(k) = w(e) = judgmentSplit = 1 and the terms are the paper's.
 */
import type { ReportsParams } from './params.js';

/** A report kept (not of oneself; with the shared-match window, one made within it): k → u. */
export interface Report {
  readonly from: string;
  readonly to: string;
}

export interface ReportsInput {
  /** Pt(u) of every player: everyone who played, reported or was reported (0 games allowed). */
  readonly games: ReadonlyMap<string, number>;
  /** The reports kept, in the order they were filed. */
  readonly reports: readonly Report[];
  /** w(e), one per report (all 1 when absent). */
  readonly weights?: readonly number[];
  /** a(k) of each reporter (1 when absent). */
  readonly accuracy?: ReadonlyMap<string, number>;
  /** A reporter's judgment is split over at least this many reports (1: the paper). */
  readonly judgmentSplit?: number;
}

export type ReportsFormulaParams = Pick<ReportsParams, 'damping' | 'tolerance' | 'maxIterations'>;

export interface ReportsReading {
  /** Judgment points JP(u) of every player. */
  readonly jp: Map<string, number>;
  /** Bad-player points BP(u) of every player: the score, highest the worst. */
  readonly bp: Map<string, number>;
  /** Nr (0 with no reports or no games). */
  readonly gamesPerReport: number;
  /** The largest change of a JP at each step. */
  readonly residuals: number[];
  readonly converged: boolean;
}

/** A reporter's accuracy (u + s) / (u + d + s): u of its reports upheld, d dismissed, s the prior. */
export function reporterAccuracy(upheld: number, dismissed: number, prior: number): number {
  return (upheld + prior) / (upheld + dismissed + prior);
}

/** BP(u) for every player: each report k → u brings its reporter's share times w(e). */
function badPlayerPoints(input: ReportsInput, share: ReadonlyMap<string, number>): Map<string, number> {
  const bp = new Map([...input.games.keys()].map((u) => [u, 0]));
  input.reports.forEach((report, e) => {
    const w = input.weights?.[e] ?? 1;
    bp.set(report.to, bp.get(report.to)! + share.get(report.from)! * w);
  });
  return bp;
}

/** JP, BP and the steps taken (the header's iteration). */
export function judgmentPoints(input: ReportsInput, p: ReportsFormulaParams): ReportsReading {
  const players = [...input.games.keys()];
  const totalGames = [...input.games.values()].reduce((sum, games) => sum + games, 0);
  const nr = input.reports.length > 0 && totalGames > 0 ? totalGames / input.reports.length : 0;
  const zero = () => new Map(players.map((u) => [u, 0]));
  if (nr === 0) return { jp: zero(), bp: zero(), gamesPerReport: 0, residuals: [], converged: true };
  const made = zero(); // n(k)
  for (const report of input.reports) made.set(report.from, made.get(report.from)! + 1);
  const split = input.judgmentSplit ?? 1;
  // What each of k's reports carries: a(k) · JP(k) / max(n(k), judgmentSplit).
  const shares = (jp: ReadonlyMap<string, number>) =>
    new Map(players.map((k) => [k, made.get(k)! > 0 ? ((input.accuracy?.get(k) ?? 1) * jp.get(k)!) / Math.max(made.get(k)!, split) : 0]));
  const base = new Map(players.map((u) => [u, input.games.get(u)! / nr])); // Pt(u) / Nr
  let jp = new Map(base); // BP = 0 at the start
  const residuals: number[] = [];
  let converged = false;
  for (let step = 0; step < p.maxIterations; step++) {
    const bp = badPlayerPoints(input, shares(jp));
    const next = new Map<string, number>();
    let largest = 0;
    for (const u of players) {
      const fresh = Math.max(0, base.get(u)! - bp.get(u)!);
      next.set(u, (1 - p.damping) * jp.get(u)! + p.damping * fresh);
      largest = Math.max(largest, Math.abs(next.get(u)! - jp.get(u)!));
    }
    jp = next;
    residuals.push(largest);
    if (largest < p.tolerance) {
      converged = true;
      break;
    }
  }
  // BP from the final JP, so each reporter's influence sums to its (weighted) JP exactly.
  return { jp, bp: badPlayerPoints(input, shares(jp)), gamesPerReport: nr, residuals, converged };
}

/** A report as the defences see it: its verdict, and the shared match it is attributed to. */
export interface JudgedReport extends Report {
  readonly verdict?: 'upheld' | 'dismissed';
  /**
   * The latest match reporter and reported started together within the window (oneVoicePerMatch);
   * none for a report kept before the community's first `match.start`, which is its own voice.
   */
  readonly match?: string;
}

export type ReportsDefences = Pick<ReportsParams, 'oneVoicePerMatch' | 'oneVoicePerReporter' | 'accuracyPrior'>;

/**
 * w(e) of each report and a(k) of each reporter who has a dismissed report (any other's is 1):
 *   - verdicts (accuracyPrior finite): a(k) = reporterAccuracy(upheld, dismissed, accuracyPrior),
 *     and a dismissed report's w is 0;
 *   - oneVoicePerMatch: the m reports of u attributed to one match each count 1/m (a report
 *     attributed to none, kept before the community's first match.start, counts alone);
 *   - oneVoicePerReporter: the c reports of u by k each count 1/c.
 * (judgmentSplit is the iteration's; sharedMatchDays decides which reports are kept at all.)
 */
export function defenceFactors(reports: readonly JudgedReport[], d: ReportsDefences): { weights: number[]; accuracy: Map<string, number> } {
  const verdicts = d.accuracyPrior !== Infinity;
  const weights = reports.map((r) => (verdicts && r.verdict === 'dismissed' ? 0 : 1));
  const accuracy = new Map<string, number>();
  if (verdicts) {
    const count = (k: string, outcome: string) => reports.filter((r) => r.from === k && r.verdict === outcome).length;
    for (const k of new Set(reports.map((r) => r.from))) {
      const dismissed = count(k, 'dismissed');
      if (dismissed > 0) accuracy.set(k, reporterAccuracy(count(k, 'upheld'), dismissed, d.accuracyPrior));
    }
  }
  const divideAmong = (key: (r: JudgedReport, e: number) => string) => {
    const voices = new Map<string, number>();
    reports.forEach((r, e) => voices.set(key(r, e), (voices.get(key(r, e)) ?? 0) + 1));
    reports.forEach((r, e) => (weights[e]! /= voices.get(key(r, e))!));
  };
  if (d.oneVoicePerMatch) divideAmong((r, e) => (r.match === undefined ? `${r.to} report ${e}` : `${r.to} match ${r.match}`));
  if (d.oneVoicePerReporter) divideAmong((r) => `${r.from} ${r.to}`);
  return { weights, accuracy };
}
