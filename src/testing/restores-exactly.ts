/**
 * The checkpoint property every scorer must have (the service's restart relies on it): restoring
 * the snapshots taken after any prefix of a log and replaying the rest gives exactly what
 * replaying the whole log gives, into a fresh state or over one already in use.
 */
import type { StandingEvent } from '../events/types.js';
import type { AnyScorer } from '../scorers/scorer.js';

/**
 * What a state shows, as one comparable text: its ranking, the explanations of `players` and the
 * snapshots of `communities` (by default those of `state`).
 */
export function scorerView(scorer: AnyScorer, state: unknown, communities: readonly string[] = scorer.communities(state), players: readonly string[] = []): string {
  return JSON.stringify({
    rank: scorer.rank(state),
    explain: communities.flatMap((c) => players.map((p) => scorer.explain(state, c, p) ?? null)),
    snapshots: communities.map((c) => scorer.snapshot(state, c) ?? null),
  });
}

/**
 * Whether restoring the snapshots taken after `events[0, at mod (n + 1))` and replaying the rest
 * gives what the whole log gives, bit for bit in `scorerView` (rankings, the explanations of
 * `players`, the snapshots of `communities`): into a fresh state, and over a state already in use
 * (the community a scorer remembers as the last one used must be looked up again).
 */
export function restoresExactly(
  scorer: AnyScorer,
  params: Readonly<Record<string, unknown>>,
  events: readonly StandingEvent[],
  at: number,
  seen: { readonly communities?: readonly string[]; readonly players?: readonly string[] } = {},
): boolean {
  const resolved = scorer.params.resolve(params);
  const whole = scorer.initialState(resolved);
  for (const e of events) scorer.evolve(whole, e);
  const cut = at % (events.length + 1);
  const prefix = scorer.initialState(resolved);
  for (const e of events.slice(0, cut)) scorer.evolve(prefix, e);
  const restored = scorer.initialState(resolved);
  for (const c of scorer.communities(prefix)) scorer.restore(restored, c, scorer.snapshot(prefix, c));
  for (const e of events.slice(cut)) scorer.evolve(restored, e);
  const reused = scorer.initialState(resolved);
  for (const e of events.slice(0, cut)) scorer.evolve(reused, e);
  for (const c of scorer.communities(prefix)) scorer.restore(reused, c, scorer.snapshot(prefix, c));
  for (const e of events.slice(cut)) scorer.evolve(reused, e);
  const communities = seen.communities ?? scorer.communities(whole);
  const show = (state: unknown) => scorerView(scorer, state, communities, seen.players ?? []);
  const expected = show(whole);
  return show(restored) === expected && show(reused) === expected;
}
