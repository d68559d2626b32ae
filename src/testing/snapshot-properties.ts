/**
 * Two more checkpoint properties every scorer must have, beside ./restores-exactly.ts: a
 * snapshot is text that reads back into the very same state, and restoring one community
 * touches no other.
 */
import type { StandingEvent } from '../events/types.js';
import type { AnyScorer } from '../scorers/scorer.js';

function replayed(scorer: AnyScorer, resolved: ReturnType<AnyScorer['params']['resolve']>, events: readonly StandingEvent[]): unknown {
  const state = scorer.initialState(resolved);
  for (const e of events) scorer.evolve(state, e);
  return state;
}

/**
 * Whether, after replaying `events`, every community's snapshot is text which, restored into a
 * fresh state, gives that state exactly that community and snapshots back to the same text.
 */
export function snapshotsRoundTrip(scorer: AnyScorer, params: Readonly<Record<string, unknown>>, events: readonly StandingEvent[]): boolean {
  const resolved = scorer.params.resolve(params);
  const state = replayed(scorer, resolved, events);
  return scorer.communities(state).every((community) => {
    const text = scorer.snapshot(state, community);
    if (typeof text !== 'string') return false;
    const fresh = scorer.initialState(resolved);
    scorer.restore(fresh, community, text);
    return scorer.snapshot(fresh, community) === text && JSON.stringify(scorer.communities(fresh)) === JSON.stringify([community]);
  });
}

/**
 * Whether restoring one community, in a state that replayed all of `events`, to its snapshot
 * after the first `at mod (n + 1)` events gives it exactly that snapshot and leaves every other
 * community as it was; and whether restoring it to `undefined` forgets it, again leaving the
 * others as they were.
 */
export function restoresCommunityAlone(scorer: AnyScorer, params: Readonly<Record<string, unknown>>, events: readonly StandingEvent[], at: number): boolean {
  const resolved = scorer.params.resolve(params);
  const whole = replayed(scorer, resolved, events);
  const earlier = replayed(scorer, resolved, events.slice(0, at % (events.length + 1)));
  const communities = scorer.communities(whole);
  const othersAsBefore = (state: unknown, changed: string) => communities.every((c) => c === changed || scorer.snapshot(state, c) === scorer.snapshot(whole, c));
  return communities.every((community) => {
    const state = replayed(scorer, resolved, events);
    const snapshot = scorer.snapshot(earlier, community);
    scorer.restore(state, community, snapshot);
    if (scorer.snapshot(state, community) !== snapshot || !othersAsBefore(state, community)) return false;
    scorer.restore(state, community, undefined);
    return !scorer.communities(state).includes(community) && scorer.snapshot(state, community) === undefined && othersAsBefore(state, community);
  });
}
