import { defineParams, readers } from '../../params/define.js';

/** Gibbon's dropper detection constants (SPEC §3); the defaults are the paper's. */
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
}

const anyNumber = readers.number(-Infinity);

export const reliabilityParams = defineParams<ReliabilityParams>(
  'reliability',
  { keepDays: 100, finish: 1, drop: -1, resume: 1.5, fullBar: 10, green: 0.95, yellow: 0.85, orange: 0.65 },
  {
    keepDays: readers.positive(),
    finish: anyNumber,
    drop: anyNumber,
    resume: anyNumber,
    fullBar: readers.positive(),
    green: anyNumber,
    yellow: anyNumber,
    orange: anyNumber,
  },
  (p) =>
    p.green >= p.yellow && p.yellow >= p.orange ? undefined : ['yellow', `bands must satisfy green ≥ yellow ≥ orange, got ${p.green}, ${p.yellow}, ${p.orange}`],
);
