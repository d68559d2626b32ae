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

/** What a moderator's verdict judges (issue 17 may add more). */
export type VerdictSubject = 'report';
export type VerdictOutcome = 'upheld' | 'dismissed';

/**
 * A moderator's verdict on a report: the report with event id `report`, or every report `from`
 * filed about `to` before the verdict. A later verdict on the same report replaces an earlier one.
 */
export interface VerdictEvent extends EventBase {
  readonly type: 'verdict';
  readonly on: VerdictSubject;
  readonly outcome: VerdictOutcome;
  readonly report?: string;
  readonly from?: string;
  readonly to?: string;
  readonly reason?: string;
}

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
  | VerdictEvent;

export type EventOfType<T extends EventType> = Extract<StandingEvent, { type: T }>;
