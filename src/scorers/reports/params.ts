import { defineParams, readers } from '../../params/define.js';

/**
 * Bad-player ranking from reports (Kim, Shim & Kim; docs/spec.md §5, a reconstruction), with three
 * defences against abusive reporting (docs/abuse.md). Every defence is off by default: the
 * defaults are the paper's method exactly.
 */
export interface ReportsParams {
  readonly maxIterations: number;
  /** Stop when the largest change of a judgment point is below this. */
  readonly tolerance: number;
  /** Weight of the new JP in the damped update JP ← (1 − d)·JP_old + d·JP_new (docs/spec.md: ½). */
  readonly damping: number;
  /**
   * A report counts only if reporter and reported player were in a match that started at most
   * this many days before it (a report that does not is ignored, as a report of oneself is).
   * 0: every report counts (the paper).
   */
  readonly sharedMatchDays: number;
  /**
   * The reports of one player from the players of one shared match weigh as one reporter: each
   * counts 1/m of its weight when m reporters of that match reported the player. Needs
   * sharedMatchDays > 0 (a report is attributed to the latest match the two shared). false: the paper.
   */
  readonly oneVoicePerMatch: boolean;
  /**
   * A reporter's reports of one player weigh together as one report: each counts 1/c of its
   * weight when the reporter filed c reports of that player. false: each counts (the paper).
   */
  readonly oneVoicePerReporter: boolean;
  /**
   * A reporter's judgment is split over at least this many reports: a report carries at most
   * JP(k)/judgmentSplit, so an account that reports once cannot put its whole judgment on one
   * player. 1: JP(k)/n(k) (the paper).
   */
  readonly judgmentSplit: number;
  /**
   * Moderators' verdicts on reports weigh each reporter's judgment by its smoothed accuracy
   * (u + s) / (u + d + s), with u of its reports upheld, d dismissed and s this prior; a dismissed
   * report counts nothing. Infinity: verdicts are not used (the paper).
   */
  readonly accuracyPrior: number;
}

/** The defence settings docs/abuse.md recommends for a live community. */
export const RECOMMENDED_REPORTS_DEFENCES = Object.freeze({ sharedMatchDays: 30, oneVoicePerMatch: true, oneVoicePerReporter: true, judgmentSplit: 5, accuracyPrior: 0.1 });

export const reportsParams = defineParams<ReportsParams>(
  'reports',
  { maxIterations: 200, tolerance: 1e-9, damping: 0.5, sharedMatchDays: 0, oneVoicePerMatch: false, oneVoicePerReporter: false, judgmentSplit: 1, accuracyPrior: Infinity },
  {
    maxIterations: readers.integer(1, false),
    tolerance: readers.number(0),
    damping: readers.positive(),
    sharedMatchDays: readers.numberOrInfinity(0),
    oneVoicePerMatch: readers.boolean(),
    oneVoicePerReporter: readers.boolean(),
    judgmentSplit: readers.number(1),
    accuracyPrior: readers.positiveOrInfinity(),
  },
  (p) => {
    if (p.damping > 1) return ['damping', `must be in (0, 1], got ${p.damping}`];
    if (p.oneVoicePerMatch && p.sharedMatchDays === 0) return ['oneVoicePerMatch', 'needs sharedMatchDays > 0: a report is attributed to a match the two players shared within it'];
    return undefined;
  },
);
