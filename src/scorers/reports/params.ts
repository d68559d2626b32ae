import { defineParams, readers } from '../../params/define.js';

/** Bad-player ranking from reports (Kim, Shim & Kim; SPEC §5, a reconstruction). */
export interface ReportsParams {
  readonly maxIterations: number;
  /** Stop when the largest change of a judgment point is below this. */
  readonly tolerance: number;
  /** Weight of the new JP in the damped update JP ← (1 − d)·JP_old + d·JP_new (SPEC: ½). */
  readonly damping: number;
}

export const reportsParams = defineParams<ReportsParams>(
  'reports',
  { maxIterations: 200, tolerance: 1e-9, damping: 0.5 },
  { maxIterations: readers.integer(1, false), tolerance: readers.number(0), damping: readers.positive() },
  (p) => (p.damping > 1 ? ['damping', `must be in (0, 1], got ${p.damping}`] : undefined),
);
