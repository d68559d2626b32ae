/** Checkpoints with the recommended defences on: restore after any prefix + the rest == the whole log, bit for bit. */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { chat, RECOMMENDED_CHAT_DEFENCES, RECOMMENDED_RELIABILITY_DEFENCES, RECOMMENDED_REPORTS_DEFENCES, RECOMMENDED_TRUST_DEFENCES, reliability, reports, trust, type AnyScorer } from '../../../src/index.js';
import { restoresExactly } from '../../../src/testing/index.js';
import { logs } from './logs.js';

const SEEN = { communities: ['a', 'b'], players: ['p0', 'p3', 'p7'] };
const DEFENDED: [string, AnyScorer, Record<string, unknown>][] = [
  ['reports', reports as AnyScorer, { ...RECOMMENDED_REPORTS_DEFENCES, sharedMatchDays: 3 }],
  ['reliability', reliability as AnyScorer, { ...RECOMMENDED_RELIABILITY_DEFENCES, minMatchMinutes: 3 * 24 * 60, keepDays: 20 }],
  ['chat', chat as AnyScorer, { ...RECOMMENDED_CHAT_DEFENCES, partners: 4 }],
  ['trust', trust as AnyScorer, { ...RECOMMENDED_TRUST_DEFENCES, observers: 'p0,p1', ttlMax: 24 * 10 }],
];

describe('checkpoints with the defences on', () => {
  for (const [id, scorer, params] of DEFENDED) {
    it(`${id}: restore(snapshot after any prefix) + the rest == the whole log`, () => {
      fc.assert(
        fc.property(logs(), fc.nat(), (events, at) => restoresExactly(scorer, params, events, at, SEEN)),
        { seed: 23, numRuns: 200 },
      );
    });
  }
});
