/**
 * Checkpoints written before trust kept its ratings as a log still restore: an edge store with an
 * expiry queue of one object per rating (`expiry.fifo`, `expiry.late.items`), and the same with
 * the queue in typed-array columns (the queue is not read any more: expiry follows from each
 * rating's time). A restore keeps the edge store's slot order; here that is the arrival order of
 * the live ratings, so the state is exactly a replay's. (Where slots were reused out of arrival
 * order, a row's ratings would be summed in another order than a replay's: equal to rounding.)
 */
import { describe, expect, it } from 'vitest';
import { trust, type StandingEvent } from '../../../src/index.js';

const H = 3_600_000;
const rate = (from: string, to: string, value: number, hours: number): StandingEvent => ({ type: 'rating', time: hours * H, community: 'c', from, to, value });

// TTL_MAX 3 hours, times out of order. By 3.5 h o→a (set at 0) and c→a (set at 0.5 h) have expired;
// the old store had freed their slots 0 and 5 and put the new o→a into slot 5.
const prefix = [rate('o', 'a', 1, 0), rate('o', 'b', 0.5, 2), rate('a', 'c', 0.8, 1), rate('b', 'c', -1, 1), rate('a', 'b', 0.3, 2.5), rate('c', 'a', 0.6, 0.5), rate('o', 'a', 1, 3.5)];
// After the cut: a→c and b→c (set at 1 h) expire at 4 h; a→c and b→c are rated again.
const rest = [rate('c', 'o', 0.2, 4), rate('b', 'a', -0.5, 4.5), rate('a', 'c', 1, 7), rate('b', 'c', 0.4, 6.9)];

// What the object-queue code wrote for `prefix` (produced by that code; the FIFO holds o→b,
// a→b and the new o→a, the heap a→c and b→c due at 4 h, 3 late pushes so far).
const LEGACY = '{"ratings":{"players":["o","a","b","c"],"from":"AAAAAAAAAAABAAAAAgAAAAEAAAAAAAAA","to":"AQAAAAIAAAADAAAAAwAAAAIAAAABAAAA","value":"AAAAAAAA8D8AAAAAAADgP5qZmZmZmek/AAAAAAAA8L8zMzMzMzPTPwAAAAAAAPA/","time":"AAAAAAAAAAAAAAAAQHdbQQAAAABAd0tBAAAAAEB3S0EAAAAAiCphQQAAAABYCGhB","alive":"AAEBAQEB","slots":6,"free":[0]},"expiry":{"fifo":[{"time":18000000,"slot":1,"set":7200000},{"time":19800000,"slot":4,"set":9000000},{"time":23400000,"slot":5,"set":12600000}],"late":{"items":[{"key":14400000,"order":0,"value":{"time":14400000,"slot":2,"set":3600000}},{"key":14400000,"order":1,"value":{"time":14400000,"slot":3,"set":3600000}}],"inserted":3}},"newest":12600000}';

// The same state as the typed-array queue wrote it (produced by that code, commit 1158d69). It
// differs from LEGACY only in `expiry`, which a restore does not read: the case shows that a
// checkpoint of either version is accepted.
const TYPED_QUEUE = '{"ratings":{"players":["o","a","b","c"],"from":"AAAAAAAAAAABAAAAAgAAAAEAAAAAAAAA","to":"AQAAAAIAAAADAAAAAwAAAAIAAAABAAAA","value":"AAAAAAAA8D8AAAAAAADgP5qZmZmZmek/AAAAAAAA8L8zMzMzMzPTPwAAAAAAAPA/","time":"AAAAAAAAAAAAAAAAQHdbQQAAAABAd0tBAAAAAEB3S0EAAAAAiCphQQAAAABYCGhB","alive":"AAEBAQEB","slots":6,"free":[0]},"expiry":{"fifo":{"time":"AAAAAIgqcUEAAAAA/OFyQQAAAADkUHZB","slot":"AQAAAAQAAAAFAAAA","stamp":"AAAAAEB3W0EAAAAAiCphQQAAAABYCGhB"},"late":{"time":"AAAAAEB3a0EAAAAAQHdrQQ==","order":"AAAAAAAAAAAAAAAAAADwPw==","slot":"AgAAAAMAAAA=","stamp":"AAAAAEB3S0EAAAAAQHdLQQ==","inserted":3}},"newest":12600000}';

describe.each([
  ['object queue', LEGACY],
  ['typed-array queue', TYPED_QUEUE],
])('trust checkpoints from the edge store with an %s', (_, checkpoint) => {
  const params = trust.params.resolve({ observers: 'o', ttlMax: 3 });
  const replay = (events: readonly StandingEvent[]) => {
    const state = trust.initialState(params);
    for (const e of events) trust.evolve(state, e);
    return state;
  };
  const view = (state: ReturnType<typeof replay>) =>
    JSON.stringify({ rank: trust.rank(state), explain: ['a', 'b', 'c'].map((p) => trust.explain(state, 'c', p)), snapshot: trust.snapshot(state, 'c') });

  it('restores to the state a replay of the same events builds', () => {
    const restored = trust.initialState(params);
    trust.restore(restored, 'c', checkpoint);
    expect(trust.snapshot(restored, 'c')).toBe(trust.snapshot(replay(prefix), 'c'));
  });

  it('carries on exactly like the whole log', () => {
    const restored = trust.initialState(params);
    trust.restore(restored, 'c', checkpoint);
    for (const e of rest) trust.evolve(restored, e);
    expect(view(restored)).toBe(view(replay([...prefix, ...rest])));
  });
});
