/**
 * `standing` (one player's score and rank in one pass, used by history) agrees with `rank` for
 * every scorer: the same score and rank, or no row at all, for every player, observers and
 * unknown players included, after any prefix of a log.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SCORERS, type AnyScorer, type StandingEvent } from '../../src/index.js';

const DAY = 86_400_000;
const player = fc.integer({ min: 0, max: 7 }).map((i) => `p${i}`);
const match = fc.integer({ min: 0, max: 4 }).map((i) => `m${i}`);
const community = fc.constantFrom('a', 'b');

const event: fc.Arbitrary<Omit<StandingEvent, 'time'>> = fc.oneof(
  fc.record({ type: fc.constant('action' as const), community, player, delta: fc.constantFrom(-10, 0, 0, 5, 10) }),
  fc.record({ type: fc.constant('match.start' as const), community, match, players: fc.uniqueArray(player, { minLength: 2, maxLength: 3 }), bots: fc.constantFrom([], ['p7']) }),
  fc.record({ type: fc.constantFrom('match.end' as const, 'match.resume' as const), community, match }),
  fc.record({ type: fc.constant('disconnect' as const), community, player }),
  fc.record({ type: fc.constant('rating' as const), community, from: player, to: player, value: fc.constantFrom(-1, 0, 1) }),
  fc.record({ type: fc.constant('report' as const), community, from: player, to: player }),
  fc.record({ type: fc.constant('played' as const), community, player, games: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ type: fc.constant('chat' as const), community, from: player, to: fc.array(player, { minLength: 1, maxLength: 3 }) }),
) as fc.Arbitrary<Omit<StandingEvent, 'time'>>;

const log = fc.array(fc.tuple(event, fc.integer({ min: 0, max: 10 * DAY })), { maxLength: 120, size: 'max' }).map((items) => {
  let time = 0;
  return items.map(([e, gap]) => ((time += gap), { ...e, time }) as StandingEvent).filter((e) => !(e.type === 'rating' && e.from === e.to));
});

const PARAMS: Record<string, Record<string, unknown>> = {
  cqr: { T: 4, x: 5, k: 2 },
  reliability: { keepDays: 60 },
  chat: { recipe: 1 },
  trust: { observers: 'p0,p1', ttlMax: 24 * 50 },
  reports: {},
};

/** Whether `standing` and `rank` agree for every player of every community, at every 10th event and at the end. */
function agrees(scorer: AnyScorer, events: readonly StandingEvent[]): boolean {
  const state = scorer.initialState(scorer.params.resolve(PARAMS[scorer.id]!));
  const check = () => {
    for (const c of ['a', 'b', 'c']) {
      const rows = scorer.rank(state, { community: c });
      for (const p of ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'nobody']) {
        const row = rows.find((r) => r.player === p);
        const mine = scorer.standing!(state, c, p);
        if (JSON.stringify(mine) !== JSON.stringify(row === undefined ? undefined : { score: row.score, rank: row.rank })) return false;
      }
    }
    return true;
  };
  for (let i = 0; i < events.length; i++) {
    scorer.evolve(state, events[i]!);
    if (i % 10 === 9 && !check()) return false;
  }
  return check();
}

describe('standing', () => {
  for (const [id, scorer] of Object.entries(SCORERS)) {
    it(`${id}: one player's score and rank are those of its ranking row`, () => {
      expect(scorer.standing).toBeTypeOf('function');
      fc.assert(
        fc.property(log, (events) => agrees(scorer, events)),
        { seed: 21, numRuns: 100 },
      );
    });
  }
});
