import { EventValidationError, type Place } from '../errors.js';
import { PAYLOAD_CHECKS } from './payload-checks.js';
import { payloadError } from './payload-errors.js';
import { parseTime } from './time.js';
import { DEFAULT_COMMUNITY, EVENT_TYPES, type EventType, type StandingEvent } from './types.js';

const KNOWN_TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);

function fail(place: Place | undefined, field: string, reason: string): never {
  throw new EventValidationError(place, field, reason);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks one decoded JSON value against SPEC §1 and returns it as a typed event: `time` in
 * epoch milliseconds, `community` defaulted, a single `chat.to` id wrapped in an array. The
 * value is normalized in place (it is expected to be freshly parsed). Throws
 * EventValidationError naming the field and the reason.
 */
export function validateEvent(value: unknown, place?: Place): StandingEvent {
  if (!isPlainObject(value)) fail(place, '', 'must be a JSON object');
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
      return;
    }
    case 'rating':
      if (value.from === value.to) fail(place, 'to', 'must differ from "from": self-ratings are rejected (SPEC §4)');
      return;
    default:
      return;
  }
}
