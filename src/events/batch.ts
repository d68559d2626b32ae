/**
 * What a batch sent to the service must satisfy before it joins a group commit, the same on one
 * node (../service/live-engine.ts) and at a cluster's gateway (../cluster/gateway-routes.ts):
 * every event checked on its own (./validate.ts), dated no further ahead than the clock skew
 * allows, naming only players a URL path can address, and, from a client's POST /v1/events, no
 * moderator event. Validation needs no state, so it runs beside the commit of earlier batches;
 * everything a store cannot keep is refused here (./limits.ts), so one client's batch cannot fail
 * the commit of another's.
 *
 * Addressable ids, a service rule beyond docs/spec.md §1: every player id the service accepts
 * must be readable and erasable through /v1/players/:id, and a URL path cannot carry "." or ".."
 * as a segment (fetch and browsers resolve them, even percent-encoded). The library and the CLI
 * accept them: real logs hold such names (a player called "." in the CONDA Dota 2 chat), and no
 * URL is involved.
 *
 * Moderator-only events (docs/service.md#moderation): moderator events come only through the
 * moderation endpoints, which need the `moderate` scope and name the moderator from the acting
 * key (a rule's state, POST /v1/rules/:name/state, needs `senior`). A player's appeal may be
 * opened by the game with an ingest key. Ids starting with `rule-`
 * are the moderation rules': a client's event may not take one (it would keep a rule's action
 * from being stored).
 */
import { BatchRejectedError, BatchTooLargeError, EventValidationError, type BatchProblem } from '../errors.js';
import type { StandingEvent } from './types.js';
import { validateEvent } from './validate.js';

export interface BatchLimits {
  /** Refuse events dated more than this many ms after `clock()` (Infinity: no limit). */
  readonly maxSkewMs: number;
  /** The wall clock, epoch ms. */
  readonly clock: () => number;
  /** Deepest nesting of objects and arrays in an event. */
  readonly maxEventDepth: number;
}

/** Where a batch comes from: a client's POST /v1/events may not make moderator events. */
export interface BatchSource {
  /** Refuse a `moderator` or `moderatorKey` field, verdicts, notes, sanctions and appeal decisions (moderatorOnly below). */
  readonly refuseModeration?: boolean;
}

/**
 * The batch's events, validated; throws BatchRejectedError naming every bad index (and any error
 * that is not a validation error as it is).
 */
export function validateBatch(raw: readonly unknown[], limits: BatchLimits, source: BatchSource = {}): StandingEvent[] {
  const problems: BatchProblem[] = [];
  const events: StandingEvent[] = [];
  const latest = limits.clock() + limits.maxSkewMs;
  for (let index = 0; index < raw.length; index++) {
    try {
      const event = validateEvent(raw[index], { index }, { maxDepth: limits.maxEventDepth });
      const unaddressable = unaddressablePlayer(event);
      const moderation = source.refuseModeration === true ? moderatorOnly(event) : undefined;
      if (moderation !== undefined) problems.push({ index, code: 'EVENT_INVALID', field: moderation[0], reason: moderation[1] });
      else if (event.time > latest) problems.push({ index, code: 'EVENT_INVALID', field: 'time', reason: tooLate(event.time, limits) });
      else if (unaddressable !== undefined) problems.push({ index, code: 'EVENT_INVALID', field: unaddressable[0], reason: unaddressable[1] });
      else events.push(event);
    } catch (error) {
      if (!(error instanceof EventValidationError)) throw error;
      problems.push({ index, code: 'EVENT_INVALID', field: error.field, reason: error.reason });
    }
  }
  if (problems.length > 0) throw new BatchRejectedError(problems);
  return events;
}

/** validateBatch, after refusing a batch of more than `maxBatchEvents` events (BatchTooLargeError): what ingest checks first, on one node and at a cluster's gateway. */
export function validateIngest(raw: readonly unknown[], maxBatchEvents: number, limits: BatchLimits, source: BatchSource = {}): StandingEvent[] {
  if (raw.length > maxBatchEvents) throw new BatchTooLargeError(raw.length, maxBatchEvents);
  return validateBatch(raw, limits, source);
}

function tooLate(time: number, limits: BatchLimits): string {
  const now = limits.clock();
  const seconds = limits.maxSkewMs / 1000;
  return `${new Date(time).toISOString()} is more than maxClockSkewSeconds (${seconds} s) after the service's clock (${new Date(now).toISOString()}): check the client's clock, or switch the limit off to load a historical log`;
}

export const DOT_SEGMENT = 'cannot be "." or ".." in the service: a player id must be usable as a URL path segment';

/** The first player id of `event` that a URL path cannot address, as [field, reason], or undefined. */
export function unaddressablePlayer(event: StandingEvent): [field: string, reason: string] | undefined {
  switch (event.type) {
    case 'action':
    case 'disconnect':
    case 'played':
    case 'note':
    case 'sanction':
    case 'appeal':
      return dotSegment(event.player, 'player');
    case 'match.start':
      return dotSegment(event.players, 'players') ?? dotSegment(event.bots, 'bots');
    case 'rating':
    case 'report':
    case 'chat':
      return dotSegment(event.from, 'from') ?? dotSegment(event.to, 'to');
    case 'verdict':
      return dotSegment(event.from, 'from') ?? dotSegment(event.to, 'to') ?? dotSegment(event.player, 'player');
    default:
      return undefined;
  }
}

/** `ids` (one id, an array of them, or undefined) holds "." or "..": where. */
function dotSegment(ids: string | readonly string[] | undefined, field: string): [string, string] | undefined {
  if (typeof ids === 'string') return isDotSegment(ids) ? [field, DOT_SEGMENT] : undefined;
  const i = ids?.findIndex(isDotSegment) ?? -1;
  return i < 0 ? undefined : [`${field}/${i}`, DOT_SEGMENT];
}

function isDotSegment(id: string): boolean {
  return id === '.' || id === '..';
}

/** The start of the ids of the moderation rules' own events (../moderation/rules/stage.ts): no client may give an event such an id. */
export const RULE_EVENT_ID_PREFIX = 'rule-';

/** Why a client may not give an event the id `id`, or undefined when it may. */
export function reservedId(id: string | undefined): string | undefined {
  return id?.startsWith(RULE_EVENT_ID_PREFIX) === true ? `starts with "${RULE_EVENT_ID_PREFIX}", which names the moderation rules' own events: give the event another id` : undefined;
}

/** Why `event` needs the moderation endpoints, as [field, reason], or undefined when a client may post it. */
export function moderatorOnly(event: StandingEvent): [field: string, reason: string] | undefined {
  const reserved = reservedId(event.id);
  if (reserved !== undefined) return ['id', reserved];
  if (event.moderator !== undefined) return ['moderator', 'is set by the service from the acting key, never taken from a request: post moderator events through the moderation endpoints'];
  if (event.moderatorKey !== undefined) return ['moderatorKey', 'is set by the service from the acting key, never taken from a request: post moderator events through the moderation endpoints'];
  switch (event.type) {
    case 'verdict':
      return ['type', `"verdict" is recorded only through the moderation endpoints (scope moderate): POST /v1/players/{id}/verdicts or POST /v1/reports/verdicts`];
    case 'note':
      return ['type', '"note" is recorded only through the moderation endpoints (scope moderate): POST /v1/players/{id}/notes'];
    case 'sanction':
      return ['type', '"sanction" is recorded only through the moderation endpoints (scope moderate): POST /v1/players/{id}/sanctions'];
    case 'rule':
      return ['type', '"rule" changes how a moderation rule runs: only a senior moderator does, through POST /v1/rules/{name}/state'];
    case 'appeal':
      return event.status === 'opened'
        ? undefined
        : ['status', `"${event.status}" decides an appeal: only a moderator does, through POST /v1/players/{id}/appeals/{appeal}/decision`];
    default:
      return undefined;
  }
}
