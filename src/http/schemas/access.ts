/**
 * Claims on cases and the player's own view: what POST /v1/players/:id/case/claim takes and
 * answers, GET /v1/players/:id/standing, GET /v1/players/:id/reports, POST
 * /v1/players/:id/standing/appeals and POST /v1/player-tokens. docs/service.md#the-player-view.
 */
import { Type, type Static } from '@sinclair/typebox';
import { MAX_MODERATOR_TEXT_LENGTH } from '../../events/limits.js';
import { Id, NO_NUL, StringEnum } from './common.js';

export const ClaimBody = Type.Object(
  {
    community: Type.Optional(Id('default "default"')),
    minutes: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'how long the claim lasts (default claims.minutes; at most claims.maxMinutes)' })),
  },
  { $id: 'ClaimBody', additionalProperties: false },
);
export type ClaimBody = Static<typeof ClaimBody>;

export const ClaimQuery = Type.Object({ community: Type.Optional(Id('default "default"')) }, { $id: 'ClaimQuery', additionalProperties: false });

export const Claim = Type.Object(
  {
    community: Type.String(),
    player: Type.String(),
    moderator: Type.String({ description: 'who holds it (the name their moderator events carry)' }),
    claimedAt: Type.Number({ description: 'when they first claimed it, epoch ms (wall clock)' }),
    until: Type.Number({ description: 'when it ends unless renewed, epoch ms (wall clock)' }),
  },
  { $id: 'Claim', additionalProperties: false },
);
export type Claim = Static<typeof Claim>;

export const OwnAppealBody = Type.Object(
  {
    community: Type.Optional(Id('default "default"')),
    id: Type.Optional(Id('an idempotency key: sent again with the same id, the appeal is answered 200 with the event stored the first time')),
    sanction: Id('the id of the active sanction appealed against (the view lists them)'),
    text: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_MODERATOR_TEXT_LENGTH, pattern: NO_NUL, description: "the player's words" })),
  },
  { $id: 'OwnAppealBody', additionalProperties: false },
);
export type OwnAppealBody = Static<typeof OwnAppealBody>;

const StandingLine = Type.Object(
  {
    scorer: Type.String({ description: "the scorer instance: its configured name, or, for one named after its parameters (which may name players), the scorer's id, numbered from a second instance of one scorer on" }),
    direction: StringEnum(['higher is better', 'higher is worse'] as const),
    good: Type.String({ description: 'what a good score means' }),
    bad: Type.String({ description: 'what a bad score means' }),
    score: Type.Number(),
    band: Type.Optional(Type.String({ description: "the scorer's band (reliability: green, amber, red)" })),
    concern: Type.Boolean({ description: 'whether the player is among the worst queue.tailShare of the community under this scorer' }),
    text: Type.String({ description: 'where they stand, in words: counts and their place, never another player' }),
  },
  { additionalProperties: false },
);

export const PlayerView = Type.Object(
  {
    player: Type.String(),
    community: Type.String(),
    sequence: Type.Integer({ minimum: 0 }),
    now: Type.Number({ description: "the community's clock (epoch ms): sanctions are active as of it" }),
    standing: Type.Array(StandingLine, { description: 'one line per scorer instance that ranks the player' }),
    sanctions: Type.Array(
      Type.Object(
        {
          id: Type.String({ description: 'name it to appeal' }),
          action: StringEnum(['warn', 'mute', 'suspend', 'ban'] as const),
          since: Type.Number({ description: 'when it was imposed, epoch ms' }),
          until: Type.Optional(Type.Number({ description: 'when it ends, epoch ms; absent: until lifted' })),
          reason: Type.String({ description: 'as the moderator wrote it' }),
          appeal: Type.Optional(Type.String({ description: 'the open appeal against it' })),
        },
        { additionalProperties: false },
      ),
      { description: 'the active sanctions, newest first' },
    ),
    improve: Type.Array(Type.String(), { description: 'what would improve their standing, one line per scorer that counts against them' }),
    appeals: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          time: Type.Number(),
          sanction: Type.Optional(Type.String()),
          status: StringEnum(['open', 'granted', 'denied'] as const),
          decided: Type.Optional(Type.Object({ time: Type.Number(), reason: Type.Optional(Type.String()) }, { additionalProperties: false })),
        },
        { additionalProperties: false },
      ),
      { description: "the player's appeals, newest first (no moderator named)" },
    ),
    howToAppeal: Type.Object(
      {
        route: Type.String({ description: 'the route the player appeals with (a player token or a player-view key)' }),
        sanctions: Type.Array(Type.String(), { description: 'the active sanctions without an open appeal' }),
        text: Type.String(),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'PlayerView', additionalProperties: false, description: "The player's own view: never another player's id, nor a moderator, note or piece of evidence" },
);
export type PlayerView = Static<typeof PlayerView>;

export const PlayerViewQuery = Type.Object({ community: Type.Optional(Id('default "default"')) }, { $id: 'PlayerViewQuery', additionalProperties: false });

export const REPORTS_LIMIT = { default: 50, maximum: 200 } as const;

export const ReportsQuery = Type.Object(
  {
    community: Type.Optional(Id('default "default"')),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: REPORTS_LIMIT.maximum, default: REPORTS_LIMIT.default, description: 'reports per page' })),
    before: Type.Optional(Type.Integer({ minimum: 1, description: "a page's `next`: the older reports" })),
  },
  { $id: 'ReportsQuery', additionalProperties: false },
);
export type ReportsQuery = Static<typeof ReportsQuery>;

export const ReportOutcomes = Type.Object(
  {
    reporter: Type.String(),
    community: Type.String(),
    reports: Type.Array(
      Type.Object(
        {
          id: Type.Optional(Type.String({ description: "the report's event id" })),
          about: Type.String({ description: 'the player reported' }),
          time: Type.Number({ description: "the report's event time, epoch ms" }),
          outcome: StringEnum(['acted', 'not acted', 'pending'] as const, { description: 'acted: upheld, or the reported player was sanctioned or upheld against after it; not acted: dismissed; pending: not decided yet' }),
        },
        { additionalProperties: false },
      ),
      { description: 'newest first' },
    ),
    next: Type.Optional(Type.Integer({ minimum: 1, description: 'pass as `before` for the next page; absent on the last' })),
  },
  { $id: 'ReportOutcomes', additionalProperties: false },
);
export type ReportOutcomes = Static<typeof ReportOutcomes>;

export const TokenBody = Type.Object(
  {
    player: Id('the player the token opens the view of'),
    community: Type.Optional(Id('default "default"')),
    seconds: Type.Optional(Type.Integer({ minimum: 1, description: 'how long it lives (default playerTokens.seconds; at most playerTokens.maxSeconds)' })),
  },
  { $id: 'TokenBody', additionalProperties: false },
);
export type TokenBody = Static<typeof TokenBody>;

export const PlayerTokenAnswer = Type.Object(
  {
    token: Type.String({ description: 'stp_…: give it to the player\'s client; it goes in `Authorization: Bearer`' }),
    player: Type.String(),
    community: Type.String(),
    expiresAt: Type.Number({ description: 'when it stops opening anything, epoch ms (wall clock)' }),
  },
  { $id: 'PlayerTokenAnswer', additionalProperties: false },
);
export type PlayerTokenAnswer = Static<typeof PlayerTokenAnswer>;
