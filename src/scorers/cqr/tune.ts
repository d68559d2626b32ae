/**
 * Parameter search for CQR_{T,x,k} against labelled players (paper §III.3, docs/spec.md §2.4): grid or
 * seeded random search over (T, x, k), each candidate scored by replaying the recorded actions
 * through the same `cqr.evolve` the engine uses.
 */
import type { ActionEvent } from '../../events/types.js';
import { evaluateRanking, type Evaluation } from '../../evaluation/metrics.js';
import type { Label } from '../../evaluation/labels.js';
import { randomInt, type Rng } from '../../util/random.js';
import type { CqrParams } from './params.js';
import { cqr } from './scorer.js';

export type TuneObjective = 'score' | 'auc';

export interface TuneOptions {
  /** Window sizes to try (Infinity allowed). */
  readonly T: readonly number[];
  /** Filter thresholds: tried as listed by grid search; random search draws from [min, max]. */
  readonly x: readonly number[];
  readonly search: 'grid' | 'random';
  /** Candidates drawn by random search. */
  readonly trials: number;
  readonly rng: Rng;
  readonly objective: TuneObjective;
  /** The community whose ranking is evaluated. */
  readonly community: string;
  /** Called after each candidate with (done, total). */
  readonly onProgress?: (done: number, total: number) => void;
}

export interface TuneResult extends Evaluation {
  readonly params: CqrParams;
}

/** Default x candidates: 0 and the 10 %, 20 %, … 90 % quantiles of |Δ| over the actions. */
export function defaultThresholds(actions: readonly ActionEvent[]): number[] {
  const sizes = actions.map((a) => Math.abs(a.delta ?? 0)).sort((a, b) => a - b);
  const values = new Set<number>([0]);
  if (sizes.length > 0) {
    for (let q = 1; q <= 9; q++) values.add(sizes[Math.min(sizes.length - 1, Math.floor((q / 10) * sizes.length))]!);
  }
  return [...values].sort((a, b) => a - b);
}

/** k for a window T: every k in 1..T (k = T: no sign filter); for T = ∞, 1..(largest finite T) and ∞. */
function responsivenessValues(T: number, finiteMax: number): number[] {
  const top = T === Infinity ? finiteMax : T;
  const ks = Array.from({ length: top }, (_, i) => i + 1);
  if (T === Infinity) ks.push(Infinity);
  return ks;
}

function candidates(options: TuneOptions): CqrParams[] {
  const finiteMax = Math.max(1, ...options.T.filter(Number.isFinite));
  if (options.search === 'grid') {
    return options.T.flatMap((T) =>
      options.x.flatMap((x) => responsivenessValues(T, finiteMax).map((k) => ({ T, x, k }))),
    );
  }
  const xMin = Math.min(...options.x);
  const xMax = Math.max(...options.x);
  return Array.from({ length: options.trials }, () => {
    const T = options.T[randomInt(options.rng, 0, options.T.length - 1)]!;
    const ks = responsivenessValues(T, finiteMax);
    const k = ks[randomInt(options.rng, 0, ks.length - 1)]!;
    const x = Math.round((xMin + options.rng() * (xMax - xMin)) * 100) / 100;
    return { T, x, k };
  });
}

function better(objective: TuneObjective): (a: TuneResult, b: TuneResult) => number {
  const other: TuneObjective = objective === 'score' ? 'auc' : 'score';
  const value = (r: TuneResult, o: TuneObjective) => r[o] ?? -Infinity;
  return (a, b) =>
    value(b, objective) - value(a, objective) ||
    value(b, other) - value(a, other) ||
    a.params.T - b.params.T ||
    a.params.k - b.params.k ||
    a.params.x - b.params.x;
}

/** Every candidate evaluated, best first. */
export function tuneCqr(
  actions: readonly ActionEvent[],
  labels: ReadonlyMap<string, Label>,
  options: TuneOptions,
): TuneResult[] {
  const list = candidates(options);
  const results: TuneResult[] = [];
  list.forEach((input, i) => {
    const params = cqr.params.resolve(input);
    const state = cqr.initialState(params);
    for (const action of actions) cqr.evolve(state, action);
    const ranking = cqr.rank(state, { community: options.community });
    results.push({ params, ...evaluateRanking(ranking, labels) });
    options.onProgress?.(i + 1, list.length);
  });
  return results.sort(better(options.objective));
}
