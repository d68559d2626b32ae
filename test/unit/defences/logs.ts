/** Random logs for the defence properties: every event type, report ids and verdicts on them. */
import fc from 'fast-check';
import type { StandingEvent } from '../../../src/index.js';

export const DAY = 86_400_000;
const player = fc.integer({ min: 0, max: 7 }).map((i) => `p${i}`);
const match = fc.integer({ min: 0, max: 4 }).map((i) => `m${i}`);
const reportId = fc.integer({ min: 0, max: 9 }).map((i) => `r${i}`);
const community = fc.constantFrom('a', 'b');

const event: fc.Arbitrary<Omit<StandingEvent, 'time'>> = fc.oneof(
  fc.record({ type: fc.constant('match.start' as const), community, match, players: fc.uniqueArray(player, { minLength: 2, maxLength: 4 }), bots: fc.constantFrom([], ['p7']) }),
  fc.record({ type: fc.constantFrom('match.end' as const, 'match.resume' as const), community, match }),
  fc.record({ type: fc.constant('disconnect' as const), community, player }),
  fc.record({ type: fc.constant('rating' as const), community, from: player, to: player, value: fc.constantFrom(-1, -0.5, 0, 0.3, 1) }),
  fc.record({ type: fc.constant('report' as const), community, from: player, to: player, id: reportId }, { requiredKeys: ['type', 'community', 'from', 'to'] }),
  fc.record({ type: fc.constant('played' as const), community, player, games: fc.integer({ min: 1, max: 9 }) }),
  fc.record({ type: fc.constant('chat' as const), community, from: player, to: fc.array(player, { minLength: 1, maxLength: 3 }) }),
  fc.oneof(
    fc.record({ type: fc.constant('verdict' as const), community, on: fc.constant('report' as const), outcome: fc.constantFrom('upheld' as const, 'dismissed' as const), report: reportId }),
    fc.record({ type: fc.constant('verdict' as const), community, on: fc.constant('report' as const), outcome: fc.constantFrom('upheld' as const, 'dismissed' as const), from: player, to: player }),
  ),
) as fc.Arbitrary<Omit<StandingEvent, 'time'>>;

/** Valid events at non-decreasing times, gaps up to `maxGapDays` days. */
export function logs(maxGapDays = 5, maxLength = 120): fc.Arbitrary<StandingEvent[]> {
  return fc.array(fc.tuple(event, fc.integer({ min: 0, max: maxGapDays * DAY })), { maxLength, size: 'max' }).map((items) => {
    let time = 0;
    return items.map(([e, gap]) => ((time += gap), { ...e, time }) as StandingEvent).filter((e) => !(e.type === 'rating' && e.from === e.to));
  });
}
