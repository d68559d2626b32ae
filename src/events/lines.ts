/**
 * One NDJSON line at a time, shared by the serial reader (./ndjson.ts) and the parse threads
 * (./parallel/): line ends, blank lines, parsing and validating a line, and naming a read failure.
 */
import type { Readable } from 'node:stream';
import { EventSyntaxError, InputError, locate, StandingError, type Place } from '../errors.js';
import { checkedByText } from './limits.js';
import type { StandingEvent } from './types.js';
import { validateEvent } from './validate.js';

export interface LineBatch {
  /** Line number (1-based) of `lines[0]`. */
  readonly firstLine: number;
  /** Consecutive lines, blank ones included, without their line ends. */
  readonly lines: readonly string[];
}

export interface EventBatch {
  readonly events: StandingEvent[];
  /** `lines[i]` is the line number of `events[i]`. */
  readonly lines: number[];
  /** When a parse thread read the batch: per event with an id, pairHash(community, id) (../util/id-hash.ts). */
  readonly idHashes?: Int32Array;
}

export interface EventSource {
  /** Name used in error messages: the file path, or "stdin". */
  readonly name: string;
  readonly stream: Readable;
  /** Bytes, when the source is a regular file. */
  readonly size?: number;
}

/** Maps a failure to read `name` to an InputError (a StandingError passes through). */
export function readFailure(error: unknown, name: string): unknown {
  if (error instanceof StandingError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (error as Error).message;
  return new InputError(name, reason);
}

/** The JSON value of one line; throws EventSyntaxError at `place` when it is not JSON. */
export function parseJsonLine(text: string, place: Place): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new EventSyntaxError(place, `is not valid JSON (${(error as Error).message})`);
  }
}

/** Parses and validates one line; throws EventSyntaxError or EventValidationError naming it. */
export function parseEventLine(text: string, source: string, line: number): StandingEvent {
  const value = parseJsonLine(text, { source, line });
  try {
    return validateEvent(value, undefined, { checked: checkedByText(text) });
  } catch (error) {
    throw locate(error, { source, line });
  }
}

/** A line split at '\n' without the '\r' of a CRLF line end: every reader ends lines so. */
export function withoutCarriageReturn(line: string): string {
  return line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
}

/** Empty or white space only; a JSON line starts with `{`, so trim() is rarely needed. */
export function isBlank(text: string): boolean {
  if (text.length === 0) return true;
  const first = text.charCodeAt(0);
  return (first === 32 || first === 9 || first === 13 || first === 0xfeff) && text.trim().length === 0;
}
