import { cqr, type CqrParams } from '../../src/index.js';

/** The O(1) scorer's CQR of one player after `deltas`, through evolve and explain. */
export function storeScore(params: Partial<CqrParams>, deltas: readonly number[]): number {
  const state = cqr.initialState(cqr.params.resolve(params));
  deltas.forEach((delta, time) => cqr.evolve(state, { type: 'action', time, community: 'c', player: 'p', delta }));
  return cqr.explain(state, 'c', 'p')?.score ?? 0;
}
