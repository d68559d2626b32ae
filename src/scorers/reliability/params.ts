import { defineParams, readers } from '../../params/define.js';

/** Gibbon's dropper detection constants (docs/spec.md §3); the defaults are the paper's. */
export interface ReliabilityParams {
  /** Scored events older than this many days before the newest event time are forgotten. */
  readonly keepDays: number;
  /** Value of a regular match end, for every player of the match. */
  readonly finish: number;
  /** Value of a disconnect that interrupts a running match, for the dropper. */
  readonly drop: number;
  /** Value of resuming a match one interrupted, for the dropper. */
  readonly resume: number;
  /** Confidence at which the bar is full. */
  readonly fullBar: number;
  /** Band thresholds on the reliability: green ≥ green, yellow ≥ yellow, orange ≥ orange, else red. */
  readonly green: number;
  readonly yellow: number;
  readonly orange: number;
  /**
   * Repeat defence (docs/reliability.md#defences): a finish weighs repeatWeight^n, n the finishes
   * the player already has, in the kept history, with the co-player of this match it has finished
   * with least often. 1: off (the paper).
   */
  readonly repeatWeight: number;
  /** Short-match defence: a finish of a match shorter than this many minutes weighs its length / this. 0: off (the paper). */
  readonly minMatchMinutes: number;
}

/** The defence settings docs/abuse.md recommends for a live community. */
export const RECOMMENDED_RELIABILITY_DEFENCES = Object.freeze({ repeatWeight: 0.5, minMatchMinutes: 5 });

const anyNumber = readers.number(-Infinity);

export const reliabilityParams = defineParams<ReliabilityParams>(
  'reliability',
  { keepDays: 100, finish: 1, drop: -1, resume: 1.5, fullBar: 10, green: 0.95, yellow: 0.85, orange: 0.65, repeatWeight: 1, minMatchMinutes: 0 },
  {
    keepDays: readers.positive(),
    finish: anyNumber,
    drop: anyNumber,
    resume: anyNumber,
    fullBar: readers.positive(),
    green: anyNumber,
    yellow: anyNumber,
    orange: anyNumber,
    repeatWeight: readers.positive(),
    minMatchMinutes: readers.number(0),
  },
  (p) => {
    if (!(p.green >= p.yellow && p.yellow >= p.orange)) return ['yellow', `bands must satisfy green ≥ yellow ≥ orange, got ${p.green}, ${p.yellow}, ${p.orange}`];
    if (p.repeatWeight > 1) return ['repeatWeight', `must be in (0, 1], got ${p.repeatWeight}`];
    return undefined;
  },
);
