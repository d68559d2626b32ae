import { EventValidationError, type Place } from '../errors.js';
import { refusedIdCharacter } from './id-characters.js';
import { DEFAULT_MAX_EVENT_DEPTH, ID_TOO_LONG, MAX_ID_LENGTH, unstorable, type TextCheck } from './limits.js';
import { PAYLOAD_CHECKS } from './payload-checks.js';
import { payloadError } from './payload-errors.js';
import { parseTime } from './time.js';
import { DEFAULT_COMMUNITY, EVENT_TYPES, type EventType, type StandingEvent } from './types.js';

const KNOWN_TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);

function fail(place: Place | undefined, field: string, reason: string): never {
  throw new EventValidationError(place, field, reason);
}

export interface ValidateOptions {
  /** Deepest nesting of objects and arrays, the event itself being level 1 (default 32). */
  readonly maxDepth?: number;
  /** What the event's JSON text already showed (./limits.ts, checkedByText); default `none`. */
  readonly checked?: TextCheck;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks one decoded JSON value against docs/spec.md §1 and returns it as a typed event: `time` in
 * epoch milliseconds, `community` defaulted, a single `chat.to` id wrapped in an array. The
 * value is normalized in place (it is expected to be freshly parsed). Throws
 * EventValidationError naming the field and the reason. Every string in the event (keys and
 * extra fields too) must be storable, and ids are bounded (./limits.ts) and hold no control,
 * format or line-separator character (./id-characters.ts).
 */
export function validateEvent(value: unknown, place?: Place, options: ValidateOptions = {}): StandingEvent {
  if (!isPlainObject(value)) fail(place, '', 'must be a JSON object');
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_EVENT_DEPTH;
  if (options.checked !== 'all' || maxDepth < 2) {
    const problem = unstorable(value, maxDepth, options.checked === undefined || options.checked === 'none');
    if (problem !== undefined) fail(place, problem[0], problem[1]);
  }
  const type = value.type;
  if (typeof type !== 'string') fail(place, 'type', 'is required and must be a string');
  if (!KNOWN_TYPES.has(type)) {
    fail(place, 'type', `"${type}" is not one of ${EVENT_TYPES.join(', ')}`);
  }
  const time = parseTime(value.time);
  if (typeof time === 'string') {
    fail(place, 'time', value.time === undefined ? 'is required' : time);
  }
  const { id, community } = value;
  if (id !== undefined && (typeof id !== 'string' || id.length === 0)) {
    fail(place, 'id', 'must be a non-empty string');
  }
  if (community !== undefined && (typeof community !== 'string' || community.length === 0)) {
    fail(place, 'community', 'must be a non-empty string');
  }
  if (typeof id === 'string' && id.length > MAX_ID_LENGTH) fail(place, 'id', ID_TOO_LONG);
  if (typeof community === 'string' && community.length > MAX_ID_LENGTH) fail(place, 'community', ID_TOO_LONG);
  if (!PAYLOAD_CHECKS[type as EventType](value)) {
    const [field, reason] = payloadError(type as EventType, value);
    fail(place, field, reason);
  }
  const refused = refusedIdCharacter(value, type as EventType);
  if (refused !== undefined) fail(place, refused[0], refused[1]);
  checkTypeRules(value, type as EventType, time, place);
  value.time = time;
  if (community === undefined) value.community = DEFAULT_COMMUNITY;
  if (type === 'chat' && typeof value.to === 'string') value.to = [value.to];
  return value as unknown as StandingEvent;
}

const isBlank = (text: unknown): boolean => typeof text === 'string' && text.trim() === '';

function checkVerdict(value: Record<string, unknown>, place?: Place): void {
  if (value.on === 'player') {
    if (value.player === undefined) fail(place, 'player', 'is required when "on" is "player"');
    for (const field of ['report', 'from', 'to', 'reporterErased'] as const) {
      if (value[field] !== undefined) fail(place, field, 'names a report: a verdict on a player names only "player"');
    }
    return;
  }
  if (value.player !== undefined) fail(place, 'player', 'a verdict on a report names the report by "report" or by "from" and "to", not "player"');
  if (value.reporterErased !== undefined) {
    // What an erasure keeps of a verdict on the reports of the erased player (../service/erasure.ts).
    for (const field of ['report', 'from'] as const) {
      if (value[field] !== undefined) fail(place, field, 'names the reporter, whom an erasure left out: a verdict with "reporterErased" names only "to", the reported player');
    }
    if (value.to === undefined) fail(place, 'to', 'is required with "reporterErased": the reported player');
    return;
  }
  const byId = value.report !== undefined;
  const byPair = value.from !== undefined || value.to !== undefined;
  if (byId && byPair) fail(place, 'report', 'a verdict names its report either by "report" (the report event\'s id) or by "from" and "to", not both');
  if (!byId && value.from === undefined) fail(place, byPair ? 'from' : 'report', byPair ? 'is required with "to"' : 'a verdict needs "report" (the report event\'s id), or "from" and "to"');
  if (!byId && value.to === undefined) fail(place, 'to', 'is required with "from"');
}

/** `until` parsed in place to epoch ms; required for suspend, optional for mute, refused otherwise. */
function checkSanction(value: Record<string, unknown>, time: number, place?: Place): void {
  if (isBlank(value.reason)) fail(place, 'reason', 'must not be blank: a sanction says why');
  const action = value.action as string;
  if (value.sanction !== undefined && action !== 'lift') fail(place, 'sanction', 'names the sanction a lift ends: only "lift" takes it');
  if (value.until === undefined) {
    if (action === 'suspend') fail(place, 'until', 'is required for "suspend": the time the suspension ends');
    return;
  }
  if (action !== 'suspend' && action !== 'mute') fail(place, 'until', `is refused for "${action}": only "suspend" and "mute" end at a time`);
  const until = parseTime(value.until);
  if (typeof until === 'string') fail(place, 'until', until);
  if (until <= time) fail(place, 'until', 'must be after the event\'s "time": a sanction cannot end before it starts');
  value.until = until;
}

/** Rules a JSON Schema does not say well. */
function checkTypeRules(value: Record<string, unknown>, type: EventType, time: number, place?: Place): void {
  switch (type) {
    case 'action': {
      const hasDelta = value.delta !== undefined;
      const hasDomain = value.domain !== undefined;
      if (hasDelta && !Number.isFinite(value.delta)) fail(place, 'delta', 'must be a finite number');
      if (hasDelta === hasDomain) {
        fail(place, hasDelta ? 'domain' : 'delta', 'an action needs either "delta" or "domain", not both or neither');
      }
      return;
    }
    case 'chat': {
      const to = value.to;
      const ok =
        (typeof to === 'string' && to.length > 0) ||
        (Array.isArray(to) && to.length > 0 && to.every((id) => typeof id === 'string' && id.length > 0));
      if (!ok) fail(place, 'to', 'must be a player id or a non-empty array of player ids');
      if (typeof to === 'string' && to.length > MAX_ID_LENGTH) fail(place, 'to', ID_TOO_LONG);
      if (Array.isArray(to)) for (let i = 0; i < to.length; i++) if ((to[i] as string).length > MAX_ID_LENGTH) fail(place, `to/${i}`, ID_TOO_LONG);
      return;
    }
    case 'verdict':
      if (isBlank(value.reason)) fail(place, 'reason', 'must not be blank');
      checkVerdict(value, place);
      return;
    case 'note':
      if (isBlank(value.text)) fail(place, 'text', 'must not be blank');
      return;
    case 'sanction':
      checkSanction(value, time, place);
      return;
    case 'appeal':
      if (isBlank(value.text)) fail(place, 'text', 'must not be blank');
      if (isBlank(value.reason)) fail(place, 'reason', 'must not be blank');
      if (value.status === 'opened' && value.appeal !== undefined) fail(place, 'appeal', 'names the appeal a decision is on: an opening has none (its own id names it)');
      if (value.status !== 'opened' && value.appeal === undefined) fail(place, 'appeal', `is required when "status" is "${String(value.status)}": the id of the appeal's opening event`);
      if (value.status !== 'opened' && value.sanction !== undefined) fail(place, 'sanction', 'belongs on the opening event of an appeal, not on its decision');
      return;
    case 'rule':
      if (isBlank(value.reason)) fail(place, 'reason', 'must not be blank: a change of a rule\'s state says why');
      return;
    case 'rating':
      if (value.from === value.to) fail(place, 'to', 'must differ from "from": self-ratings are rejected (docs/spec.md §4)');
      return;
    default:
      return;
  }
}
