/** A scorer with a bug, as a scorer of one's own might have: cqr that throws on any action by "boom". */
import { cqr, type AnyScorer } from '../../src/index.js';

export const FRAGILE_MESSAGE = 'fragile cannot take boom';

export const fragile: AnyScorer = {
  ...cqr,
  id: 'fragile',
  evolve(state, event) {
    if (event.type === 'action' && event.player === 'boom') throw new Error(FRAGILE_MESSAGE);
    return cqr.evolve(state, event);
  },
};
