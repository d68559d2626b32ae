/** GET /v1/queue (the attention queue) and GET /v1/players/:id/case (a player's case). */
import { Type, type Static } from '@sinclair/typebox';
import { Claim } from './access.js';
import { Id, refTo, StringEnum } from './common.js';
import { Alert } from './alerts.js';

export const QUEUE_LIMIT = { default: 50, maximum: 500 } as const;

export const QueueQuery = Type.Object(
  {
    community: Type.Optional(Id('the community (default "default")')),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: QUEUE_LIMIT.maximum, default: QUEUE_LIMIT.default, description: 'rows in one answer' })),
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'rows to skip from the top of the queue' })),
  },
  { $id: 'QueueQuery', additionalProperties: false },
);
export type QueueQuery = Static<typeof QueueQuery>;

const Share = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });
const WorseThan = Type.Integer({ minimum: 0, description: 'how many of the other ranked players stand strictly better: the player is worse than them (players tied with them are not counted)' });

export const QueueWeights = Type.Object(
  {
    tailShare: Type.Number({ description: "the bad tail: the worst this share of the community's ranked players, per scorer" }),
    tail: Type.Number({ description: 'per scorer: times how far into its tail the player is' }),
    breadth: Type.Number({ description: 'per scorer beyond the first whose tail the player is in' }),
    alert: Type.Number({ description: 'per open alert' }),
    appeal: Type.Number({ description: 'per open appeal' }),
    proposal: Type.Number({ description: "per rule with an open proposal on the player" }),
    recency: Type.Number({ description: 'times 0.5^(age of the newest bad evidence / half-life)' }),
    recencyHalfLifeDays: Type.Number(),
    maxExplained: Type.Integer({ minimum: 0, description: 'players whose dated evidence is read per computation' }),
  },
  { $id: 'QueueWeights', additionalProperties: false, description: 'the configuration section `queue`' },
);

export const QueueScore = Type.Object(
  {
    scorer: Type.String({ description: 'the scorer instance name' }),
    scorerId: Type.String(),
    score: Type.Number(),
    rank: Type.Integer({ minimum: 1, description: "the scorer's own rank (rank 1 is the best, except for reports where it is the worst)" }),
    of: Type.Integer({ minimum: 1, description: 'players ranked in the community' }),
    percentile: Share("the share of the community's ranked players this player is worse than or equal to: 1 is the worst, whatever the scorer's direction"),
    worseThan: WorseThan,
    tail: Share("how far into this scorer's bad tail: 0 outside it, 1 at the very worst"),
  },
  { $id: 'QueueScore', additionalProperties: false },
);

const SANCTION_ACTIONS = ['warn', 'mute', 'suspend', 'ban'] as const;

export const QueueRow = Type.Object(
  {
    rank: Type.Integer({ minimum: 1 }),
    player: Type.String(),
    attention: Type.Number({ minimum: 0, description: 'the formula of docs/moderation.md; higher needs a look sooner' }),
    reasons: Type.Array(Type.String(), { description: 'why, in plain words: one line per scorer whose tail the player is in (deepest first), then alerts, appeals, handling' }),
    scorers: Type.Array(refTo(QueueScore), { description: 'every scorer instance that ranks the player' }),
    tails: Type.Integer({ minimum: 0, description: 'scorers whose bad tail the player is in' }),
    openAlerts: Type.Integer({ minimum: 0 }),
    openAppeals: Type.Integer({ minimum: 0 }),
    proposals: Type.Array(
      Type.Object(
        {
          rule: Type.String({ description: "the rule's name (its events' moderator is rule:<name>)" }),
          label: Type.Optional(Type.String({ description: "the rule's label, while the rule is configured" })),
          time: Type.Number({ description: 'event time (epoch ms) of its newest open proposal' }),
        },
        { additionalProperties: false },
      ),
      { description: 'the rules whose proposal on the player no handling came after (docs/moderation.md#rules)' },
    ),
    activeSanctions: Type.Array(Type.String({ description: SANCTION_ACTIONS.join(', ') })),
    handledAt: Type.Optional(Type.Number({ description: 'event time (epoch ms) of the last handling: a verdict on the player or a sanction' })),
    newEvidence: Type.Boolean({ description: 'handled, and bad evidence is dated after the handling' }),
  },
  { $id: 'QueueRow', additionalProperties: false },
);

export const Queue = Type.Object(
  {
    community: Type.String(),
    sequence: Type.Integer({ minimum: 0, description: 'the community sequence the queue reflects' }),
    total: Type.Integer({ minimum: 0, description: 'players in the whole queue' }),
    weights: refTo(QueueWeights),
    rows: Type.Array(refTo(QueueRow)),
  },
  { $id: 'Queue', additionalProperties: false },
);
export type Queue = Static<typeof Queue>;

export const CaseQuery = Type.Object({ community: Type.Optional(Id('the community (default "default")')) }, { $id: 'CaseQuery', additionalProperties: false });
export type CaseQuery = Static<typeof CaseQuery>;

const Moderator = Type.Optional(Type.String({ description: "the acting key's label (its id when the label is empty)" }));

export const CaseScore = Type.Object(
  {
    scorer: Type.String({ description: 'the scorer instance name' }),
    scorerId: Type.String(),
    score: Type.Number(),
    rank: Type.Integer({ minimum: 1 }),
    of: Type.Integer({ minimum: 1 }),
    percentile: Share('1 is the worst of the community, whatever the direction'),
    worseThan: WorseThan,
    direction: StringEnum(['higher is better', 'higher is worse'] as const),
    good: Type.String({ description: 'what a good score means for this scorer' }),
    bad: Type.String({ description: 'what a bad score means' }),
    band: Type.Optional(Type.String({ description: 'reliability: green, yellow, orange or red' })),
    confidence: Type.Optional(Type.Number({ description: 'reliability: scored events kept (weighted with the defences)' })),
    summary: Type.String({ description: 'the score explained in plain words' }),
  },
  { $id: 'CaseScore', additionalProperties: false },
);

const Sanction = Type.Object(
  {
    id: Type.String(),
    action: StringEnum(SANCTION_ACTIONS),
    time: Type.Number(),
    until: Type.Optional(Type.Number()),
    reason: Type.String(),
    moderator: Moderator,
    active: Type.Boolean(),
    endedBy: Type.Optional(
      Type.Object(
        { kind: StringEnum(['expired', 'lifted', 'appeal'] as const), time: Type.Number(), id: Type.Optional(Type.String()), moderator: Moderator },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const AppealRecord = Type.Object(
  {
    id: Type.String(),
    time: Type.Number(),
    sanction: Type.Optional(Type.String()),
    text: Type.Optional(Type.String()),
    status: StringEnum(['open', 'granted', 'denied'] as const),
    decided: Type.Optional(
      Type.Object({ time: Type.Number(), id: Type.String(), moderator: Moderator, reason: Type.Optional(Type.String()) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);

const Note = Type.Object({ id: Type.String(), time: Type.Number(), text: Type.String(), moderator: Moderator }, { additionalProperties: false });

const Verdict = Type.Object(
  {
    id: Type.String(),
    time: Type.Number(),
    on: StringEnum(['player', 'report'] as const),
    outcome: StringEnum(['upheld', 'dismissed'] as const),
    reason: Type.Optional(Type.String()),
    moderator: Moderator,
    report: Type.Optional(Type.String()),
    from: Type.Optional(Type.String()),
    reporterErased: Type.Optional(Type.Literal(true, { description: 'a verdict on the reports of a reporter since erased: kept without them (no `report`, no `from`)' })),
  },
  { additionalProperties: false },
);

export const PlayerRecord = Type.Object(
  { sanctions: Type.Array(Sanction), appeals: Type.Array(AppealRecord), notes: Type.Array(Note), verdicts: Type.Array(Verdict) },
  { $id: 'PlayerRecord', additionalProperties: false, description: "the player's moderation record, each list newest first; times are event times, epoch ms" },
);

export const EvidenceEntry = Type.Object(
  {
    time: Type.Number({ description: 'the event\'s own time, epoch ms' }),
    scorer: Type.String({ description: 'the scorer instance name' }),
    kind: Type.String({ description: 'reliability: finish, drop or resume; trust: rating; reports: report' }),
    text: Type.String({ description: 'the evidence in plain words' }),
    other: Type.Optional(Type.String({ description: 'the other player (trust: the rater; reports: the reporter)' })),
  },
  { $id: 'EvidenceEntry', additionalProperties: false },
);

export const PlayerCase = Type.Object(
  {
    player: Type.String(),
    community: Type.String(),
    sequence: Type.Integer({ minimum: 0 }),
    now: Type.Number({ description: "the community's latest event time, epoch ms: what 'ago' counts from" }),
    scores: Type.Array(refTo(CaseScore)),
    queue: Type.Optional(
      Type.Object(
        { rank: Type.Integer({ minimum: 1 }), attention: Type.Number({ minimum: 0 }), reasons: Type.Array(Type.String()) },
        { additionalProperties: false, description: "the player's row of the queue, when they are in it" },
      ),
    ),
    record: refTo(PlayerRecord),
    alerts: Type.Array(refTo(Alert), { description: 'the open alerts' }),
    evidence: Type.Array(refTo(EvidenceEntry), { description: 'dated evidence from the explanations, newest first, at most 50' }),
    claim: Type.Optional(refTo(Claim)),
    secondOpinion: Type.Optional(
      Type.Object(
        { rule: Type.String(), dismissedBy: Type.Array(Type.String()) },
        { additionalProperties: false, description: 'fourEyes.ruleDismissals: the case a rule proposed, dismissed by one moderator, waits for a second' },
      ),
    ),
  },
  { $id: 'PlayerCase', additionalProperties: false },
);
export type PlayerCase = Static<typeof PlayerCase>;
