/**
 * The configuration section `rules` (docs/moderation.md#rules): how often rules are evaluated, the
 * circuit breaker's defaults, a dry run for every rule, and the rules themselves, each a CEL
 * condition (./compile.ts checks it) and an action. The structure is checked here (typebox); the
 * meaning (durations, ladders, conditions) by ./compile.ts, with the rule's name and place.
 */
import { Type, type Static } from '@sinclair/typebox';

/** A duration as `<number><unit>`, the unit m (minutes), h (hours) or d (days): `10m`, `1.5h`, `3d`. */
export const DURATION = /^([0-9]+(?:\.[0-9]+)?)(m|h|d)$/;

const Breaker = Type.Object(
  {
    /** A rule may act on at most this share of the community's active players (named by an event in the last hour)… */
    share: Type.Number({ exclusiveMinimum: 0, maximum: 1 }),
    /** …or on this many players, whichever is more, within any hour of event time. */
    minPlayers: Type.Integer({ minimum: 1 }),
    /** A rule that would go past it pauses itself in that community for this many hours of event time. */
    pauseHours: Type.Number({ exclusiveMinimum: 0 }),
  },
  { additionalProperties: false },
);

export const RULE_ACTIONS = ['propose', 'warn', 'mute', 'suspend'] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];

export const RuleSchema = Type.Object(
  {
    /** Names the rule: its events' moderator is `rule:<name>`. */
    name: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' }),
    /** A short label moderators read in the queue. */
    label: Type.String({ minLength: 1, maxLength: 100 }),
    /** Why the rule acts, in words: written into each of its events (default: the condition). */
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
    /** The condition, a CEL expression over the player's facts (./variables.ts). */
    when: Type.String({ minLength: 1, maxLength: 4000 }),
    /** propose, warn, mute or suspend (./compile.ts refuses anything else, ban included, by name). */
    action: Type.String({ minLength: 1 }),
    /** For mute and suspend: the durations of the first, second, … offence; the last repeats. */
    ladder: Type.Optional(Type.Array(Type.String(), { minItems: 1, maxItems: 20 })),
    /** The window of `recent` counts, in hours of event time. */
    windowHours: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 24 * 365 })),
    /** Earlier offences older than this many days do not count towards the ladder. */
    offenceDays: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    /** Proposes instead of acting: a sanction the rule would impose is proposed, with what it would be. */
    dryRun: Type.Optional(Type.Boolean()),
    /** This rule's circuit breaker, merged over the section's. */
    breaker: Type.Optional(Type.Partial(Breaker)),
  },
  { additionalProperties: false },
);

export const RulesSchema = Type.Object(
  {
    /** Rules are evaluated each time a community's clock enters a new period of this many minutes (0: after every event). */
    intervalMinutes: Type.Number({ minimum: 0, maximum: 7 * 24 * 60 }),
    /** Every rule only proposes. */
    dryRun: Type.Boolean(),
    breaker: Breaker,
    list: Type.Array(RuleSchema, { maxItems: 100 }),
  },
  { additionalProperties: false },
);

export type RuleConfig = Static<typeof RuleSchema>;
export type RulesConfig = Static<typeof RulesSchema>;
export type BreakerConfig = Static<typeof Breaker>;

/** What a rule takes when it does not say. */
export const RULE_DEFAULTS = Object.freeze({ windowHours: 24, offenceDays: 30 });

export const DEFAULT_RULES: RulesConfig = Object.freeze({
  intervalMinutes: 15,
  dryRun: false,
  breaker: Object.freeze({ share: 0.05, minPlayers: 5, pauseHours: 24 }),
  list: Object.freeze([]) as unknown as RulesConfig['list'],
}) as RulesConfig;

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `10m`, `1.5h`, `3d` in milliseconds; undefined when `text` is no such duration. */
export function durationMs(text: string): number | undefined {
  const match = DURATION.exec(text);
  return match === null ? undefined : Math.round(Number(match[1]) * UNIT_MS[match[2]!]!);
}
