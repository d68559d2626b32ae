/**
 * What a rule's condition may read of a player (docs/moderation.md#what-a-condition-reads): the
 * CEL variables, their fields and types, the shape ./compile.ts checks a condition against, and
 * the facts as evaluation binds them. Counts are CEL `int` (BigInt here), scores and shares
 * `double`: `recent.reports >= 3` and `scores.reliability.percentile > 0.9` read as written.
 */

/** One scorer instance's view of the player. Every configured instance is present; `ranked` is false when it does not rank the player. */
export interface ScoreFacts {
  readonly ranked: boolean;
  readonly score: number;
  readonly rank: bigint;
  readonly of: bigint;
  readonly percentile: number;
  readonly tail: number;
  readonly band: string;
  readonly confidence: number;
}

export interface RecentFacts {
  readonly drops: bigint;
  readonly reports: bigint;
  readonly negativeRatings: bigint;
  readonly hours: number;
}

/** The bindings one evaluation of one rule gets. */
export interface PlayerFacts {
  readonly player: string;
  readonly community: string;
  readonly ageDays: number;
  readonly scores: Readonly<Record<string, ScoreFacts>>;
  readonly recent: RecentFacts;
  readonly sanctions: { readonly active: readonly string[]; readonly total: bigint };
  readonly offences: bigint;
}

/** The shape of a value, for the static check: a leaf, a list, an object with fixed fields, or a map with known keys. */
export type Shape =
  | { readonly kind: 'leaf'; readonly type: string }
  | { readonly kind: 'list'; readonly of: string }
  | { readonly kind: 'object'; readonly fields: Readonly<Record<string, Shape>> }
  | { readonly kind: 'map'; readonly keys: readonly string[]; readonly value: Shape };

const leaf = (type: string): Shape => ({ kind: 'leaf', type });

const SCORE: Shape = {
  kind: 'object',
  fields: {
    ranked: leaf('bool'),
    score: leaf('double'),
    rank: leaf('int'),
    of: leaf('int'),
    percentile: leaf('double'),
    tail: leaf('double'),
    band: leaf('string'),
    confidence: leaf('double'),
  },
};

/** The variables, for the static check; `scores` is keyed by the configured instance names. */
export function variableShapes(instances: readonly string[]): Readonly<Record<string, Shape>> {
  return {
    player: leaf('string'),
    community: leaf('string'),
    ageDays: leaf('double'),
    scores: { kind: 'map', keys: instances, value: SCORE },
    recent: { kind: 'object', fields: { drops: leaf('int'), reports: leaf('int'), negativeRatings: leaf('int'), hours: leaf('double') } },
    sanctions: { kind: 'object', fields: { active: { kind: 'list', of: 'string' }, total: leaf('int') } },
    offences: leaf('int'),
  };
}

/** A score for an instance that does not rank the player. */
export function unranked(of: number): ScoreFacts {
  return { ranked: false, score: 0, rank: 0n, of: BigInt(of), percentile: 0, tail: 0, band: '', confidence: 0 };
}

/** Facts of the right shape, every value empty: what a condition is tried on when it is compiled. */
export function sampleFacts(instances: readonly string[]): PlayerFacts {
  return {
    player: 'p',
    community: 'default',
    ageDays: 0,
    scores: Object.fromEntries(instances.map((name) => [name, unranked(0)])),
    recent: { drops: 0n, reports: 0n, negativeRatings: 0n, hours: 24 },
    sanctions: { active: [], total: 0n },
    offences: 0n,
  };
}
