/**
 * GET /v1/rules: the live moderation rules of one community, how each runs there and what each did
 * (docs/moderation.md#rules); POST /v1/rules/:name/state: a senior moderator sets how a rule runs
 * in a community (docs/moderation.md#rule-states).
 */
import { Type, type Static } from '@sinclair/typebox';
import { MAX_MODERATOR_TEXT_LENGTH } from '../../events/limits.js';
import { RULE_STATES } from '../../events/types.js';
import { Id, NO_NUL, refTo, StringEnum } from './common.js';

const STATE_WORDS = 'live: acts as configured (and ends a circuit breaker\u2019s pause); dry-run: only proposes what it would do; paused: not evaluated';

export const RuleParams = Type.Object({ name: Id('the rule\u2019s configured name') }, { $id: 'RuleParams', additionalProperties: false });
export type RuleParams = Static<typeof RuleParams>;

export const RuleStateBody = Type.Object(
  {
    community: Type.Optional(Id('default "default"')),
    id: Type.Optional(Id('an idempotency key: a change sent again with the same id is answered 200 with the event stored the first time (default: a new random id)')),
    state: StringEnum(RULE_STATES, { description: STATE_WORDS }),
    reason: Type.String({ minLength: 1, maxLength: MAX_MODERATOR_TEXT_LENGTH, pattern: NO_NUL, description: 'why, for the other moderators and the audit log (not blank)' }),
  },
  { $id: 'RuleStateBody', additionalProperties: false },
);
export type RuleStateBody = Static<typeof RuleStateBody>;

export const RulesQuery = Type.Object({ community: Type.Optional(Id('the community (default "default")')) }, { $id: 'RulesQuery', additionalProperties: false });
export type RulesQuery = Static<typeof RulesQuery>;

const Count = (description: string) => Type.Integer({ minimum: 0, description });
const ShareOrNull = (description: string) => Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description });

export const RuleState = Type.Object(
  {
    name: Type.String({ description: 'its events\u2019 moderator is rule:<name>' }),
    label: Type.String(),
    when: Type.String({ description: 'the condition (CEL)' }),
    action: StringEnum(['propose', 'warn', 'mute', 'suspend'] as const),
    ladder: Type.Array(Type.String(), { description: 'mute and suspend: the durations of the first, second, \u2026 offence; the last repeats' }),
    dryRun: Type.Boolean({ description: 'proposes what it would do instead of doing it' }),
    windowHours: Type.Number({ description: 'the window of the `recent` counts' }),
    breaker: Type.Object({ share: Type.Number(), minPlayers: Type.Integer(), pauseHours: Type.Number() }, { additionalProperties: false }),
    paused: Type.Optional(Type.Object({ since: Type.Number(), until: Type.Number() }, { additionalProperties: false, description: 'paused by its circuit breaker in this community (event time, epoch ms)' })),
    state: StringEnum(RULE_STATES, { description: `how it runs in this community, as a senior moderator last set it (live when none did): ${STATE_WORDS}` }),
    stateChange: Type.Optional(
      Type.Object(
        {
          state: StringEnum(RULE_STATES),
          id: Type.String({ description: 'the `rule` event\u2019s id' }),
          time: Type.Number({ description: 'when (epoch ms)' }),
          moderator: Type.Optional(Type.String({ description: 'who: the label of the key it was set with' })),
          moderatorKey: Type.Optional(Type.String({ description: 'the id of that key' })),
          reason: Type.String(),
        },
        { additionalProperties: false, description: 'the last change of its state in this community (a `rule` event); absent when none was made' },
      ),
    ),
    actions: Count('proposals and sanctions in this community'),
    proposals: Count('proposals (a dry run\u2019s included)'),
    sanctions: Type.Object({ warn: Type.Integer({ minimum: 0 }), mute: Type.Integer({ minimum: 0 }), suspend: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
    players: Count('players acted on'),
    escalations: Count('sanctions for a second or later offence'),
    overturned: Count('sanctions a granted appeal ended'),
    trips: Count('times its circuit breaker tripped'),
    failures: Count('evaluations that failed since the service started (a CEL error, such as a division by 0): the rule did not act on those players'),
    verdicts: Type.Object(
      { judged: Type.Integer({ minimum: 0 }), upheld: Type.Integer({ minimum: 0 }), dismissed: Type.Integer({ minimum: 0 }) },
      { additionalProperties: false, description: 'of the players acted on, those a person gave a verdict on (the last counts), and how it went' },
    ),
    precision: ShareOrNull('upheld / judged; null when nobody it acted on was judged'),
    recall: ShareOrNull('of the players a person upheld in the community, the share it acted on; null when none was upheld'),
    upheldPlayers: Count('players a person upheld in the community (recall’s denominator)'),
  },
  { $id: 'RuleState', additionalProperties: false },
);

export const RuleList = Type.Object(
  {
    community: Type.String(),
    sequence: Type.Integer({ minimum: 0, description: 'the community sequence the figures reflect' }),
    intervalMinutes: Type.Number({ description: 'rules are evaluated when the community\u2019s clock enters a new period of this many minutes (0: after every event)' }),
    rules: Type.Array(refTo(RuleState)),
  },
  { $id: 'RuleList', additionalProperties: false },
);
export type RuleList = Static<typeof RuleList>;
