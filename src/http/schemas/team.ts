/** GET /v1/team: the team figures of one community (docs/moderation.md#team-figures). */
import { Type, type Static } from '@sinclair/typebox';
import { Id, refTo, StringEnum } from './common.js';

export const TEAM_LIMIT = { default: 50, maximum: 500 } as const;

/** The upper bounds (seconds) of the buckets waits and queue ages are counted in: 1 min, 5 min, 15 min, 1 h, 4 h, 12 h, 1 d, 3 d, 7 d, 30 d. */
export const WAIT_BUCKETS_SECONDS = [60, 300, 900, 3_600, 14_400, 43_200, 86_400, 259_200, 604_800, 2_592_000] as const;

export const TeamQuery = Type.Object(
  {
    community: Type.Optional(Id('the community (default "default")')),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: TEAM_LIMIT.maximum, default: TEAM_LIMIT.default, description: 'rows of `moderators` and of `rules`, the most decisions (firings) first' })),
  },
  { $id: 'TeamQuery', additionalProperties: false },
);
export type TeamQuery = Static<typeof TeamQuery>;

const Seconds = (description: string) => Type.Optional(Type.Number({ minimum: 0, description }));
const Count = (description: string) => Type.Integer({ minimum: 0, description });
const Buckets = Type.Array(Type.Integer({ minimum: 0 }), {
  description: 'how many fall in each bucket of `bucketsSeconds`: the first counts those up to its first bound, each next one those above the bound before and up to its own, the last those above the last bound',
});

export const DecisionCounts = Type.Object(
  {
    total: Count('every decision below'),
    verdicts: Count('verdicts on a player'),
    reportVerdicts: Count('verdicts on a report'),
    sanctions: Count('warn, mute, suspend, ban'),
    lifts: Count('lift events'),
    appealDecisions: Count('appeals granted or denied'),
  },
  { $id: 'DecisionCounts', additionalProperties: false },
);

export const TeamWait = Type.Object(
  {
    case: StringEnum(['player', 'appeal'] as const, { description: "player: from the first signal after the player's last handling to the next handling; appeal: from its opening to its decision" }),
    by: StringEnum(['moderator', 'rule'] as const, { description: 'who closed the case: a moderator, or a rule (`rule:<name>`)' }),
    count: Count('cases closed'),
    medianSeconds: Seconds('the median wait (nearest rank); absent without a case'),
    p90Seconds: Seconds('the 90th percentile (nearest rank)'),
    maxSeconds: Seconds('the longest'),
    buckets: Buckets,
  },
  { $id: 'TeamWait', additionalProperties: false },
);

export const TeamModerator = Type.Object(
  {
    moderator: Type.String({ description: "the moderator name the events carry (a key's label, or `rule:<name>`)" }),
    decisions: Count('all their decisions'),
    verdicts: Count('verdicts on a player'),
    reportVerdicts: Count('verdicts on a report'),
    sanctions: Count('warn, mute, suspend, ban'),
    lifts: Count('lift events'),
    appealDecisions: Count('appeals they granted or denied'),
    sanctionsAppealed: Count('their sanctions an appeal named'),
    appealsGranted: Count('appeals granted against their sanctions (by anyone)'),
    cases: Count('cases they closed (player cases and appeals)'),
    medianWaitSeconds: Seconds('the median wait of the cases they closed'),
  },
  { $id: 'TeamModerator', additionalProperties: false },
);

export const TeamRule = Type.Object(
  {
    rule: Type.String({ description: 'the rule name (its events carry the moderator `rule:<name>`)' }),
    firings: Count('sanctions plus proposals'),
    sanctions: Count('sanctions the rule imposed'),
    proposals: Count('other events the rule recorded (proposals)'),
    overturned: Count('firings overturned: an appeal against the sanction granted, or the next handling of the player by a moderator a dismissed verdict'),
    overturnRate: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'overturned / firings' })),
  },
  { $id: 'TeamRule', additionalProperties: false },
);

export const TeamFiguresAnswer = Type.Object(
  {
    community: Type.String(),
    sequence: Type.Integer({ minimum: 0, description: 'the community sequence the figures reflect' }),
    now: Type.Number({ description: "the community's clock (epoch ms): what the queue's waits count to" }),
    bucketsSeconds: Type.Array(Type.Number(), { description: 'the upper bounds, in seconds, of the buckets `waits` and `queue` count in' }),
    decisions: refTo(DecisionCounts),
    waits: Type.Array(refTo(TeamWait), { description: 'the wait from entering the queue to a decision, per case kind and who decided (always four entries)' }),
    moderators: Type.Object(
      { total: Count('moderators with a decision or a sanction'), rows: Type.Array(refTo(TeamModerator), { description: 'at most `limit`, the most decisions first, then by name' }) },
      { additionalProperties: false },
    ),
    rules: Type.Object(
      { total: Count('rules with a firing'), rows: Type.Array(refTo(TeamRule), { description: 'at most `limit`, the most firings first, then by name' }) },
      { additionalProperties: false },
    ),
    queue: Type.Object(
      {
        length: Count('players in the attention queue'),
        dated: Count('of them, those with a signal after their last handling or an open appeal: their wait so far is known'),
        oldestSeconds: Seconds('the longest wait so far'),
        medianSeconds: Seconds('the median wait so far (nearest rank)'),
        buckets: Buckets,
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'TeamFigures', additionalProperties: false },
);
export type TeamFiguresAnswer = Static<typeof TeamFiguresAnswer>;
