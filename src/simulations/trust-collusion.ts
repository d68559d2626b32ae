/**
 * PlayerRating's collusion experiment (Kaiser & Feng, "Collusion Resistance"; docs/spec.md §4): add an
 * adversary group of a given share of the population, fully connected by positive ratings among
 * themselves; each adversary first earns positive ratings from `endorsers` random original
 * players; then, step by step, a growing share of those ratings turns negative (the victims
 * discover the abuse). At each step, the share of adversaries with positive reputation, averaged
 * over the personal views of `viewers` random original players who rated someone. Seeded; the
 * ratings go through `trust.evolve`, the views through the scorer's own computation.
 */
import type { RatingEvent } from '../events/types.js';
import { trust, trustView } from '../scorers/trust/scorer.js';
import { shuffled, type Rng } from '../util/random.js';

export interface TrustCollusionOptions {
  /** Adversary group sizes as shares of the population (the paper's 0.001, 0.01, 0.1). */
  readonly groups: readonly number[];
  /** Steps after the endorsement phase; at step s, s/steps of the endorsements are negative. */
  readonly steps: number;
  readonly endorsers: number;
  readonly viewers: number;
  readonly rng: Rng;
  readonly params?: Readonly<Record<string, unknown>>;
}

export interface TrustCollusionCurve {
  readonly share: number;
  readonly adversaries: number;
  /** Index s: mean share of adversaries with positive reputation when s/steps of endorsements turned negative. */
  readonly positive: readonly number[];
}

export function simulateTrustCollusion(events: readonly RatingEvent[], options: TrustCollusionOptions): TrustCollusionCurve[] {
  const originals = [...new Set(events.flatMap((e) => [e.from, e.to]))].sort();
  const end = events.reduce((t, e) => Math.max(t, e.time), 0);
  // Viewers are original players who rated someone: anyone else's personal view is empty.
  const raters = [...new Set(events.map((e) => e.from))].sort();
  const viewers = shuffled(raters, options.rng).slice(0, options.viewers);
  return options.groups.map((share) => {
    const count = Math.max(2, Math.round(share * originals.length));
    const adversaries = Array.from({ length: count }, (_, i) => `adversary-${i + 1}`);
    const ring: RatingEvent[] = adversaries.flatMap((a) =>
      adversaries.filter((b) => b !== a).map((b) => ({ type: 'rating' as const, time: end, community: 'default', from: a, to: b, value: 1 })),
    );
    const endorsements = adversaries.flatMap((a) => shuffled(originals, options.rng).slice(0, options.endorsers).map((o) => ({ from: o, to: a })));
    const order = shuffled(endorsements, options.rng); // the order in which victims turn
    const state = trust.initialState(trust.params.resolve({ ...options.params }));
    for (const e of events) trust.evolve(state, e);
    for (const e of ring) trust.evolve(state, e);
    const positive: number[] = [];
    for (let step = 0; step <= options.steps; step++) {
      const turned = Math.round((step / options.steps) * order.length);
      order.forEach((e, i) => trust.evolve(state, { type: 'rating', time: end, community: 'default', from: e.from, to: e.to, value: i < turned ? -1 : 1 }));
      let sum = 0;
      for (const viewer of viewers) {
        const view = trustView(state, 'default', [viewer]);
        sum += adversaries.filter((a) => (view.get(a) ?? 0) > 0).length / count;
      }
      positive.push(sum / viewers.length);
    }
    return { share, adversaries: count, positive };
  });
}
