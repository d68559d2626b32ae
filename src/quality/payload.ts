/**
 * Reading a domain action's payload fields (extra fields of the `action` event). Each reader
 * throws EventValidationError naming the field, before the domain changes any state.
 */
import { EventValidationError } from '../errors.js';
import { MAX_PAYLOAD_NUMBER } from '../events/bounds.js';
import { idCharacterProblem } from '../events/id-characters.js';
import { ID_TOO_LONG, MAX_ID_LENGTH } from '../events/limits.js';
import type { ActionEvent } from '../events/types.js';

function invalid(field: string, reason: string): never {
  throw new EventValidationError(undefined, field, reason);
}

/** A required non-empty string, at most MAX_ID_LENGTH long, with no character an id refuses (../events/id-characters.ts). */
export function idField(action: ActionEvent, field: string): string {
  const value = action[field];
  if (typeof value !== 'string' || value.length === 0) invalid(field, 'is required and must be a non-empty string');
  if (value.length > MAX_ID_LENGTH) invalid(field, ID_TOO_LONG);
  const refused = idCharacterProblem(value);
  if (refused !== undefined) invalid(field, refused);
  return value;
}

/** A non-empty string, or undefined when absent. */
export function optionalIdField(action: ActionEvent, field: string): string | undefined {
  return action[field] === undefined ? undefined : idField(action, field);
}

/** A required finite JSON number of at most MAX_PAYLOAD_NUMBER in magnitude. */
export function finiteField(action: ActionEvent, field: string): number {
  const value = action[field];
  if (typeof value !== 'number' || !Number.isFinite(value)) invalid(field, 'is required and must be a finite number');
  if (Math.abs(value) > MAX_PAYLOAD_NUMBER) invalid(field, `must be within ±${MAX_PAYLOAD_NUMBER}, got ${value}`);
  return value;
}

/** A required safe integer. */
export function integerField(action: ActionEvent, field: string): number {
  const value = action[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) invalid(field, 'is required and must be an integer');
  return value;
}

/** The `op` field: one of `ops`, or `fallback` when absent (required when there is none). */
export function opField<Op extends string>(action: ActionEvent, ops: readonly Op[], fallback?: Op): Op {
  const value = action.op ?? fallback;
  if (!ops.includes(value as Op)) {
    const listed = ops.map((op) => `"${op}"`).join(', ');
    invalid('op', fallback === undefined ? `must be one of ${listed}` : `must be one of ${listed} (or absent: "${fallback}")`);
  }
  return value as Op;
}
