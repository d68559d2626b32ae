/** GET /v1/rules: the live moderation rules of one community and what each did (docs/moderation.md#rules). */
import { Type, type Static } from '@sinclair/typebox';
import { Id, refTo, StringEnum } from './common.js';

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
