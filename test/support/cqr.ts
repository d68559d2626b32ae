import { cqr, type CqrExplanation, type CqrParams } from '../../src/index.js';

/** The O(1) scorer's explanation of one player after `deltas`, through evolve (undefined: no deltas). */
export function storeExplanation(params: Partial<CqrParams>, deltas: readonly number[]): CqrExplanation | undefined {
  const state = cqr.initialState(cqr.params.resolve(params));
  deltas.forEach((delta, time) => cqr.evolve(state, { type: 'action', time, community: 'c', player: 'p', delta }));
  return cqr.explain(state, 'c', 'p');
}

/** The O(1) scorer's CQR of one player after `deltas`, through evolve and explain. */
export function storeScore(params: Partial<CqrParams>, deltas: readonly number[]): number {
  return storeExplanation(params, deltas)?.score ?? 0;
}
