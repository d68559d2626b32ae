/** Shared steps of the scenarios: a scorer state over the honest log, a scenario's own random stream. */
import type { StandingEvent } from '../../events/types.js';
import type { AnyScorer } from '../../scorers/scorer.js';
import { seededRng, type Rng } from '../../util/random.js';

/** A fresh state of `scorer` with `params`, after every event of `events` it uses. */
export function replay<S>(scorer: { initialState(params: never): S; evolve(state: S, event: StandingEvent): S; params: AnyScorer['params'] }, params: Readonly<Record<string, unknown>>, events: readonly StandingEvent[]): S {
  const state = scorer.initialState(scorer.params.resolve(params) as never);
  for (const event of events) scorer.evolve(state, event);
  return state;
}

/** The random stream of scenario `name` under suite seed `seed`: the same whichever other scenarios run. */
export function scenarioRng(seed: number, name: string): Rng {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  return seededRng((seed ^ h) >>> 0);
}

/** A uniformly chosen element of `items`. */
export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!;
}
