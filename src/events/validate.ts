import { EventValidationError, type Place } from '../errors.js';
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
 * extra fields too) must be storable, and ids are bounded: see ./limits.ts.
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
  checkTypeRules(value, type as EventType, place);
  value.time = time;
  if (community === undefined) value.community = DEFAULT_COMMUNITY;
  if (type === 'chat' && typeof value.to === 'string') value.to = [value.to];
  return value as unknown as StandingEvent;
}

/** Rules a JSON Schema does not say well. */
function checkTypeRules(value: Record<string, unknown>, type: EventType, place?: Place): void {
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
    case 'verdict': {
      const byId = value.report !== undefined;
      const byPair = value.from !== undefined || value.to !== undefined;
      if (byId && byPair) fail(place, 'report', 'a verdict names its report either by "report" (the report event\'s id) or by "from" and "to", not both');
      if (!byId && value.from === undefined) fail(place, byPair ? 'from' : 'report', byPair ? 'is required with "to"' : 'a verdict needs "report" (the report event\'s id), or "from" and "to"');
      if (!byId && value.to === undefined) fail(place, 'to', 'is required with "from"');
      return;
    }
    case 'rating':
      if (value.from === value.to) fail(place, 'to', 'must differ from "from": self-ratings are rejected (docs/spec.md §4)');
      return;
    default:
      return;
  }
}
