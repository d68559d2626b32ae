/**
 * The reliability scorer (through initialState, evolve and rank) against its formula
 * (src/scorers/reliability/formula.ts, docs/spec.md §3) on random histories of matches, drops,
 * resumes and ends, with bots, restarted match ids and a short kept history.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reliability, type StandingEvent } from '../../../src/index.js';
import { reliabilities, scoredValues } from '../../../src/scorers/reliability/formula.js';

const HOUR_MS = 3_600_000;
const PLAYERS = ['a', 'b', 'c', 'd', 'e'];
const MATCHES = ['m0', 'm1', 'm2', 'm3'];

type RandomEvent =
  | { type: 'match.start'; match: string; players: string[]; bots: number }
  | { type: 'match.end' | 'match.resume'; match: string }
  | { type: 'disconnect'; player: string };

const match = fc.constantFrom(...MATCHES);
const event: fc.Arbitrary<RandomEvent> = fc.oneof(
  fc.record({ type: fc.constant('match.start' as const), match, players: fc.subarray(PLAYERS, { minLength: 1, maxLength: 3 }), bots: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ type: fc.constant('match.end' as const), match }),
  { arbitrary: fc.record({ type: fc.constant('disconnect' as const), player: fc.constantFrom(...PLAYERS) }), weight: 2 },
  { arbitrary: fc.record({ type: fc.constant('match.resume' as const), match }), weight: 2 },
);
/** Events, each some hours after the one before (the kept history is half a day to 100 days). */
const history = fc.array(fc.tuple(event, fc.integer({ min: 0, max: 12 })), { minLength: 1, maxLength: 60, size: 'max' });

function eventsOf(list: readonly (readonly [RandomEvent, number])[]): StandingEvent[] {
  let time = 0;
  return list.map(([e, hours]): StandingEvent => {
    time += hours * HOUR_MS;
    if (e.type === 'match.start') {
      // The last `bots` players are bots (never all of them: a match against bots only has a human).
      const bots = e.players.slice(e.players.length - Math.min(e.bots, e.players.length - 1));
      return { type: 'match.start', time, community: 'c', match: e.match, players: e.players, ...(bots.length > 0 ? { bots } : {}) };
    }
    if (e.type === 'disconnect') return { type: 'disconnect', time, community: 'c', player: e.player };
    return { type: e.type, time, community: 'c', match: e.match };
  });
}

describe('issue 26: reliability equals its formula on random histories', () => {
  it('every row (score, confidence, band, bar) and the order: score, then confidence, highest first, then id', () => {
    const params = fc.record({
      keepDays: fc.constantFrom(0.5, 1, 2, 100),
      finish: fc.constantFrom(1, 2),
      drop: fc.constantFrom(-1, -0.5),
      resume: fc.constantFrom(1.5, 0.5),
    });
    fc.assert(
      fc.property(history, params, (list, overrides) => {
        const events = eventsOf(list);
        const state = reliability.initialState(reliability.params.resolve(overrides));
        for (const e of events) reliability.evolve(state, e);
        const p = state.params;
        const expected = [...reliabilities(scoredValues(events, p), p)]
          .map(([player, r]) => ({ player, score: r.reliability, confidence: r.confidence, band: r.band, bar: r.bar }))
          .sort((x, y) => y.score - x.score || y.confidence - x.confidence || (x.player < y.player ? -1 : 1));
        const rows = reliability.rank(state).map(({ player, score, confidence, band, bar }) => ({ player, score, confidence, band, bar }));
        expect(rows).toEqual(expected);
      }),
      { seed: 26, numRuns: 200 },
    );
  });
});
