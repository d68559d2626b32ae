/**
 * Keeps one idle instance of a hot class alive for the life of the process.
 *
 * Observed with `node --trace-deopt` on the CQR benchmark, which builds a state, drops it,
 * collects garbage and builds the next: after each such collection V8 marked `evolve`, the
 * store's `add` and the interner's `intern` "for deoptimization, reason: weak objects", and the
 * next state's first events ran unoptimized until V8 compiled them again. Keeping one idle
 * instance of the store classes and of the state alive here, the same run shows none of these
 * deoptimizations (our reading, not checked in V8's source: optimized code holds the hidden
 * classes it was compiled against weakly, and a collection that finds no instance drops them). The same happens to any
 * process that drops its last state before building the next (a tuning run over one
 * parameterization after another).
 */
const kept: object[] = [];

/** Keeps `instance` (an idle one, holding nothing of note) alive for the life of the process. */
export function keepShapes(instance: object): void {
  kept.push(instance);
}
