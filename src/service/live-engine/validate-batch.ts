/**
 * The first step of an ingest: every event of a batch checked on its own, before the batch joins
 * a group commit. Validation needs no state, so it runs beside the commit of earlier batches;
 * everything a store cannot keep is refused here (see ../../events/limits.ts), so one client's
 * batch cannot fail the commit of another's.
 */
import { BatchRejectedError, BatchTooLargeError, EventValidationError, type BatchProblem } from '../../errors.js';
import type { StandingEvent } from '../../events/types.js';
import { validateEvent } from '../../events/validate.js';
import { unaddressablePlayer } from '../addressable.js';
import { moderatorOnly } from './moderator-only.js';

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
  /** Refuse a `moderator` field, verdicts, notes, sanctions and appeal decisions (./moderator-only.ts). */
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
