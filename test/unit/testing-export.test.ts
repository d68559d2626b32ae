/**
 * `standing/testing` (issue 15, point 1): the checkpoint property a scorer of one's own must
 * have, as a plain function: true for standing's scorers, false for one whose snapshot loses state.
 */
import { describe, expect, it } from 'vitest';
import { cqr, type AnyScorer, type StandingEvent } from '../../src/index.js';
import { restoresExactly } from '../../src/testing/index.js';

const events: StandingEvent[] = Array.from({ length: 20 }, (_, i) => ({ type: 'action', time: i, community: 'c', player: `p${i % 4}`, delta: (i * 7) % 23 - 11 }));

/** cqr, but its snapshot forgets every player but the first it lists: restoring loses state. */
const forgetful: AnyScorer = {
  ...cqr,
  id: 'forgetful',
  snapshot(state, community) {
    const whole = cqr.snapshot(state, community);
    if (whole === undefined) return undefined;
    const fresh = cqr.initialState(cqr.params.resolve({ T: 4, x: 0, k: 4 }));
    cqr.evolve(fresh, { type: 'action', time: 0, community, player: 'p0', delta: 1 });
    return cqr.snapshot(fresh, community);
  },
};

describe('standing/testing: restoresExactly', () => {
  it("holds for cqr at every cut, and fails a scorer whose snapshot loses state", () => {
    for (let at = 0; at <= events.length; at++) expect(restoresExactly(cqr, { T: 4, x: 0, k: 4 }, events, at)).toBe(true);
    const failing = Array.from({ length: events.length + 1 }, (_, at) => restoresExactly(forgetful, { T: 4, x: 0, k: 4 }, events, at)).filter((ok) => !ok);
    expect(failing.length).toBeGreaterThan(0);
  });
});
