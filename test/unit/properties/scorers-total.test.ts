/**
 * Issue 24, point 1: a scorer never throws on valid input, whatever its order. Random logs of
 * every event type, with times that jump years back and forth, resumes and ends of unknown or
 * expired matches, bots, repeated ids and moderator events, go through every scorer under every
 * parameter set the docs name (published, each defence, the recommended defences, short
 * windows): evolving never throws, and restoring the snapshots taken after any prefix and
 * replaying the rest gives exactly what the whole log gives (rankings, explanations, snapshots).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SCORERS, type StandingEvent } from '../../../src/index.js';
import { restoresExactly } from '../../../src/testing/index.js';
import { rawLog, validEvents } from '../../support/arbitrary-events.js';
import { PARAMETER_SETS } from '../../support/parameter-sets.js';

const SEEN = { communities: ['a', 'b'], players: ['p0', 'p1', 'p2', 'p3', 'p4', 'gnubg'] };

describe('issue 24: every scorer is total on valid input, in any order', () => {
  for (const [id, scorer] of Object.entries(SCORERS)) {
    PARAMETER_SETS[id]!.forEach((params, n) => {
      it(`${id} ${JSON.stringify(params)}: never throws, and a restore after any prefix gives the whole log's state`, () => {
        fc.assert(
          fc.property(rawLog({ moderation: true }), fc.nat(), (raw, at) => {
            const events: StandingEvent[] = validEvents(raw);
            expect(restoresExactly(scorer, params, events, at, SEEN)).toBe(true);
          }),
          { seed: 24_000 + n, numRuns: 60 },
        );
      });
    });
  }
});
