/** Every parameter set of each built-in scorer worth trying in a property test (issue 24). */
import { defenceSettings } from '../../src/simulations/attacks/settings.js';

/** Every parameter set of each scorer worth trying: the attack suite's defence settings, and short windows. */
export const PARAMETER_SETS: Readonly<Record<string, readonly Record<string, unknown>[]>> = {
  cqr: [{}, { T: 2, x: 0, k: 2 }, { T: 'Infinity', x: 0, k: 'Infinity' }, { T: 8, x: 10, k: 8 }],
  reliability: [...defenceSettings('reliability').map((s) => s.params), { keepDays: 1 }, { keepDays: 1, repeatWeight: 0.5, minMatchMinutes: 30 }],
  chat: [...defenceSettings('chat').map((s) => s.params), { recipe: 2 }, { recipe: 3, L: 1 }],
  trust: [
    ...defenceSettings('trust').map((s) => ({ observers: 'p0', ...s.params })),
    { observers: 'p0,p1', expireHours: 1, ttlMax: 24, negativeWeight: 2 },
    { observers: 'p3', decay: 'constant', minFlow: 0.5 },
  ],
  reports: [...defenceSettings('reports').map((s) => s.params), { sharedMatchDays: 1, oneVoicePerMatch: true, oneVoicePerReporter: true }],
};
