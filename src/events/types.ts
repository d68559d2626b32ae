/**
 * The event model of docs/spec.md §1. Events arrive as JSON objects; after validation `time` is epoch
 * milliseconds and `community` is filled in. Unknown extra fields are kept as they came.
 */

export const EVENT_TYPES = [
  'action',
  'match.start',
  'match.end',
  'disconnect',
  'match.resume',
  'rating',
  'report',
  'played',
  'chat',
  'verdict',
  'note',
  'sanction',
  'appeal',
  'rule',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export const DEFAULT_COMMUNITY = 'default';

interface EventBase {
  /** Epoch milliseconds (ISO-8601 input is converted). */
  readonly time: number;
  /** Idempotency key. */
  readonly id?: string;
  /** Independent namespace; `"default"` when absent. */
  readonly community: string;
  readonly [extra: string]: unknown;
}

/** A player's action: either a precomputed `delta`, or a `domain` whose quality function gives it. */
export interface ActionEvent extends EventBase {
  readonly type: 'action';
  readonly player: string;
  readonly delta?: number;
  readonly domain?: string;
}

export interface MatchStartEvent extends EventBase {
  readonly type: 'match.start';
  readonly match: string;
  readonly players: readonly string[];
  readonly bots?: readonly string[];
}

export interface MatchEndEvent extends EventBase {
  readonly type: 'match.end';
  readonly match: string;
}

export interface DisconnectEvent extends EventBase {
  readonly type: 'disconnect';
  readonly player: string;
}

export interface MatchResumeEvent extends EventBase {
  readonly type: 'match.resume';
  readonly match: string;
}

export interface RatingEvent extends EventBase {
  readonly type: 'rating';
  readonly from: string;
  readonly to: string;
  /** In [-1, 1]; 0 withdraws the rating. */
  readonly value: number;
}

export interface ReportEvent extends EventBase {
  readonly type: 'report';
  readonly from: string;
  readonly to: string;
  readonly reason?: string;
}

export interface PlayedEvent extends EventBase {
  readonly type: 'played';
  readonly player: string;
  readonly games: number;
}

export interface ChatEvent extends EventBase {
  readonly type: 'chat';
  readonly from: string;
  /** Receivers; a single id on input is normalized to a one-element array. */
  readonly to: readonly string[];
}

/** The event types only moderators make (docs/events.md#moderator-events). */
export const MODERATOR_EVENT_TYPES = ['verdict', 'note', 'sanction', 'appeal', 'rule'] as const;
export type ModeratorEventType = (typeof MODERATOR_EVENT_TYPES)[number];

/** What a moderator's verdict judges: a report, or a player. */
export type VerdictSubject = 'report' | 'player';
export type VerdictOutcome = 'upheld' | 'dismissed';

/**
 * Who made a moderator event: the acting key's label (its moderator name) and the key's id (the
 * service sets both); optional in a log file.
 */
interface ModeratorBase extends EventBase {
  readonly moderator?: string;
  readonly moderatorKey?: string;
}

/**
 * A moderator's verdict. On a report (`on: "report"`): the report with event id `report`, or every
 * report `from` filed about `to` before the verdict. On a player (`on: "player"`): the concern about
 * `player` is confirmed (upheld) or there is nothing to act on (dismissed); it judges every report
 * about the player filed before it. A later verdict on the same report replaces an earlier one.
 */
export interface VerdictEvent extends ModeratorBase {
  readonly type: 'verdict';
  readonly on: VerdictSubject;
  readonly outcome: VerdictOutcome;
  readonly report?: string;
  readonly from?: string;
  readonly to?: string;
  readonly player?: string;
  /**
   * Set by an erasure of the reporter (docs/events.md#verdicts): the verdict on their reports
   * about `to` is kept for the audit log, without `from` or `report`; it judges no report.
   */
  readonly reporterErased?: true;
  readonly reason?: string;
}

/** A moderator's note on a player. */
export interface NoteEvent extends ModeratorBase {
  readonly type: 'note';
  readonly player: string;
  readonly text: string;
}

export const SANCTION_ACTIONS = ['warn', 'mute', 'suspend', 'ban', 'lift'] as const;
export type SanctionAction = (typeof SANCTION_ACTIONS)[number];

/**
 * A sanction on a player, active from its time until `until` (epoch ms after validation), a
 * `lift`, or a granted appeal against it. `lift` ends the sanction with event id `sanction`, or
 * every active sanction of the player.
 */
export interface SanctionEvent extends ModeratorBase {
  readonly type: 'sanction';
  readonly player: string;
  readonly action: SanctionAction;
  readonly until?: number;
  readonly reason: string;
  readonly sanction?: string;
}

export const APPEAL_STATUSES = ['opened', 'granted', 'denied'] as const;
export type AppealStatus = (typeof APPEAL_STATUSES)[number];

/**
 * A player's appeal: `opened` (maybe against the sanction with event id `sanction`), then
 * `granted` or `denied` by a moderator, naming the opening event's id in `appeal`.
 */
export interface AppealEvent extends ModeratorBase {
  readonly type: 'appeal';
  readonly player: string;
  readonly status: AppealStatus;
  readonly appeal?: string;
  readonly sanction?: string;
  readonly text?: string;
  readonly reason?: string;
}

export const RULE_STATES = ['live', 'dry-run', 'paused'] as const;
export type RuleState = (typeof RULE_STATES)[number];

/**
 * A senior moderator's change of how a configured moderation rule runs in the community, from
 * this event on (docs/moderation.md#rule-states): `live` acts as configured (and ends a circuit
 * breaker's pause), `dry-run` only proposes, `paused` is not evaluated. Names no player.
 */
export interface RuleStateEvent extends ModeratorBase {
  readonly type: 'rule';
  /** The rule's configured name. */
  readonly rule: string;
  readonly state: RuleState;
  readonly reason: string;
}

export type ModeratorEvent = VerdictEvent | NoteEvent | SanctionEvent | AppealEvent | RuleStateEvent;

export type StandingEvent =
  | ActionEvent
  | MatchStartEvent
  | MatchEndEvent
  | DisconnectEvent
  | MatchResumeEvent
  | RatingEvent
  | ReportEvent
  | PlayedEvent
  | ChatEvent
  | VerdictEvent
  | NoteEvent
  | SanctionEvent
  | AppealEvent
  | RuleStateEvent;

export type EventOfType<T extends EventType> = Extract<StandingEvent, { type: T }>;
