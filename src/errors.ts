/**
 * Typed errors with stable codes. Every error class standing throws on purpose extends
 * StandingError with one of the codes below (test/unit/error-classes.test.ts checks it); the
 * core's own classes are here, the others beside the module that throws them. Library code throws
 * them and never exits the process; the command line (src/cli/main.ts) maps every code to an exit
 * status, and the HTTP layer (src/http/errors.ts) every code either to the status it answers a
 * request with (a code of the API's list, src/http/schemas/errors.ts) or to the reason it never
 * answers one as itself. A condition that only a bug can break is asserted with unreachable().
 */

/** Where a piece of input came from: a file line, an array index, or neither. */
export interface Place {
  /** File name or "stdin", when the input came from a stream. */
  readonly source?: string;
  /** 1-based line number in an NDJSON stream. */
  readonly line?: number;
  /** 0-based index in a JSON array (an HTTP batch). */
  readonly index?: number;
}

export function describePlace(place: Place | undefined): string {
  if (place === undefined) return 'event';
  const parts: string[] = [];
  if (place.source !== undefined) parts.push(place.source);
  if (place.line !== undefined) parts.push(`line ${place.line}`);
  if (place.index !== undefined) parts.push(`[${place.index}]`);
  return parts.length === 0 ? 'event' : parts.join(' ');
}

/** Every code of standing's errors (src/http/errors.ts says which of them answer a request). */
export const ERROR_CODES = [
  'EVENT_SYNTAX',
  'EVENT_INVALID',
  'EVENT_CONFLICT',
  'PARAMETER_INVALID',
  'LABELS_INVALID',
  'INPUT_UNREADABLE',
  'BATCH_REJECTED',
  'BATCH_TOO_LARGE',
  'CONFIG_INVALID',
  'CHECKPOINT_CORRUPT',
  'STORE_BUSY',
  'STORE_HELD',
  'PLAYER_UNKNOWN',
  'APPLY_FAILED',
  // An API key's label that cannot name a moderator (src/service/keys.ts, the key stores).
  'KEY_LABEL_INVALID',
  // A scorer of one's own that cannot join the registry (src/scorers/index.ts).
  'SCORER_INVALID',
  // A bug of standing's own, never a caller's mistake (unreachable below).
  'INTERNAL',
  // The command line (src/cli/).
  'USAGE_INVALID',
  'COMMAND_FAILED',
  // The service (src/service/).
  'LISTEN_FAILED',
  'HISTORY_BUSY',
  'SERVICE_STOPPING',
  // A cluster's partitions in PostgreSQL (src/store/partitions.ts).
  'PARTITION_FENCED',
  'COMMUNITY_OUTSIDE_PARTITION',
  'STREAM_MISMATCH',
  'STREAM_BEHIND',
  // A cluster's gateways and workers (src/cluster/).
  'NATS_UNREACHABLE',
  'CONSUMER_LOST',
  'LEASE_LOST',
  'NATS_SERVER_STOPPED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Base class of every error standing throws on purpose. */
export abstract class StandingError extends Error {
  abstract readonly code: ErrorCode;
  override get name(): string {
    return this.constructor.name;
  }
}

/** A line of an NDJSON stream is not a JSON object. */
export class EventSyntaxError extends StandingError {
  readonly code = 'EVENT_SYNTAX' as const;
  constructor(
    readonly place: Place,
    readonly reason: string,
  ) {
    super(`${describePlace(place)}: ${reason}`);
  }
}

/** An event does not match docs/spec.md §1: names the field (a JSON pointer) and the reason. */
export class EventValidationError extends StandingError {
  readonly code = 'EVENT_INVALID' as const;
  constructor(
    readonly place: Place | undefined,
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${describePlace(place)}: field ${field === '' ? '(event)' : `"${field}"`} ${reason}`);
  }

  /** The same error, located at `place` (used when the caller knows the line). */
  at(place: Place): EventValidationError {
    return new EventValidationError(place, this.field, this.reason);
  }
}

/**
 * A well-formed event that cannot be applied to the current state (for example moving a dot
 * that is not on the clustering board). Nothing of it is applied.
 */
export class EventConflictError extends StandingError {
  readonly code = 'EVENT_CONFLICT' as const;
  constructor(
    readonly place: Place | undefined,
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${describePlace(place)}: field "${field}" ${reason}`);
  }

  at(place: Place): EventConflictError {
    return new EventConflictError(place, this.field, this.reason);
  }
}

/** A parameter of a scorer, a domain or the engine is unknown or out of range. */
export class ParameterError extends StandingError {
  readonly code = 'PARAMETER_INVALID' as const;
  constructor(
    readonly owner: string,
    readonly key: string,
    readonly reason: string,
  ) {
    super(`${owner} parameter "${key}" ${reason}`);
  }
}

/** A labels file (player classes for evaluation and tuning) is malformed. */
export class LabelsError extends StandingError {
  readonly code = 'LABELS_INVALID' as const;
  constructor(
    readonly place: Place,
    readonly reason: string,
  ) {
    super(`${describePlace(place)}: ${reason}`);
  }
}

/** An input file or stream could not be read. */
export class InputError extends StandingError {
  readonly code = 'INPUT_UNREADABLE' as const;
  constructor(
    readonly source: string,
    readonly reason: string,
  ) {
    super(`${source}: ${reason}`);
  }
}

/** One reason a batch was refused: the event's index in the batch, the field and the reason. */
export interface BatchProblem {
  readonly index: number;
  /** 1-based line of an NDJSON body. */
  readonly line?: number;
  readonly code: 'EVENT_SYNTAX' | 'EVENT_INVALID' | 'EVENT_CONFLICT';
  /** JSON pointer inside the event ('' for the event itself). */
  readonly field: string;
  readonly reason: string;
}

/** A batch with at least one invalid or conflicting event: nothing of it was stored or applied. */
export class BatchRejectedError extends StandingError {
  readonly code = 'BATCH_REJECTED' as const;
  constructor(readonly problems: readonly BatchProblem[]) {
    const shown = problems.slice(0, 3).map((p) => `[${p.index}] ${p.field === '' ? '(event)' : `"${p.field}"`} ${p.reason}`);
    const more = problems.length > 3 ? ` and ${problems.length - 3} more` : '';
    super(`batch refused, nothing stored: ${shown.join('; ')}${more}`);
  }
}

/**
 * A scorer threw on an event of a stored batch: the batch is durable, and the event is skipped
 * by the live state as a replay of the store skips it. The scorer's bug, never the client's.
 */
export class ApplyFailedError extends StandingError {
  readonly code = 'APPLY_FAILED' as const;
  constructor(override readonly cause: unknown) {
    super(`the batch is stored, but a scorer failed on one of its events (${cause instanceof Error ? cause.message : String(cause)}): the event is skipped in the live state as a replay skips it; the service log has the details`);
  }
}

/** A batch holds more events than the configured limit. */
export class BatchTooLargeError extends StandingError {
  readonly code = 'BATCH_TOO_LARGE' as const;
  /** The configuration key of the limit. */
  readonly key = 'maxBatchEvents';
  constructor(
    readonly events: number,
    readonly limit: number,
  ) {
    super(`batch of ${events} events is over the limit of ${limit} events a batch may hold (maxBatchEvents)`);
  }
}

/** The service configuration is invalid: names where the value came from, its path and the reason. */
export class ConfigError extends StandingError {
  readonly code = 'CONFIG_INVALID' as const;
  constructor(
    /** `--port`, `STANDING_PORT`, `standing.json`, … */
    readonly source: string,
    /** Path inside the configuration, for example `scorers[1].params.T`. */
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${source}: ${path === '' ? '(configuration)' : path} ${reason}`);
  }
}

/** A saved state could not be read back (damaged, or written by a build this one cannot read). */
export class CheckpointError extends StandingError {
  readonly code = 'CHECKPOINT_CORRUPT' as const;
  constructor(
    readonly community: string,
    /** The state that failed: a scorer instance's checkpoint key, or the quality stage's. */
    readonly state: string,
    readonly reason: string,
  ) {
    super(`community "${community}": the checkpoint of ${state} cannot be read (${reason}); the community is replayed from its log instead`);
  }
}

/**
 * A saved state (what a scorer, a domain or the rating log wrote for a checkpoint) cannot be read
 * back: damaged, or written by a build this one cannot read. The service reports it as a
 * CheckpointError naming the community and the state, and replays the community from its log.
 */
export class SnapshotError extends StandingError {
  readonly code = 'CHECKPOINT_CORRUPT' as const;
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * A key's label cannot name a moderator: it holds a character ids refuse, is too long, or is the
 * label of a live key already (two moderators under one name could not be told apart). No key
 * was made.
 */
export class KeyLabelError extends StandingError {
  readonly code = 'KEY_LABEL_INVALID' as const;
  constructor(
    /** The label as shown in the message (its refused characters escaped). */
    readonly shown: string,
    readonly reason: string,
  ) {
    super(`key label ${shown} ${reason}; no key was made`);
  }
}

/**
 * The store could not take its write lock in time: another connection to the SQLite file (a
 * `standing keys` command, a backup, a tool) held it for longer than the store waits. Nothing
 * of the write was stored; the same write may be sent again.
 */
export class StoreBusyError extends StandingError {
  readonly code = 'STORE_BUSY' as const;
  constructor(readonly reason: string) {
    super(`the store is busy: another connection held its write lock past the store's wait (${reason}); nothing was stored, send the same write again`);
  }
}

/**
 * The store is held by another process in a way that excludes what was asked: `standing erase`
 * while a service or a cluster worker runs on the store, or a service or a worker while
 * `standing erase` runs (EventStore.hold). Nothing was done.
 */
export class StoreHeldError extends StandingError {
  readonly code = 'STORE_HELD' as const;
  constructor(
    /** What asked for the store: `serve`, `worker` or `erase`. */
    readonly role: 'serve' | 'worker' | 'erase',
    /** Who holds it, in words (`a running standing serve`, `standing erase (pid 4242 on db1)`, …). */
    readonly holder: string,
    /** Whether another erasure holds it (rather than services or workers). */
    readonly byErasure: boolean,
  ) {
    super(
      role !== 'erase'
        ? `the store is held by ${holder}: start the ${role === 'serve' ? 'service' : 'worker'} once it has finished`
        : byErasure
          ? `the store is held by ${holder}: erase once it has finished; nothing was erased`
          : `the store is in use by ${holder}, and an erasure here would be undone by it: erase the player through the running service (DELETE /v1/players/:id; in a cluster, through a gateway), or stop it first; nothing was erased`,
    );
  }
}

/** An erasure found no stored event by or about the player: nothing was erased. */
export class PlayerUnknownError extends StandingError {
  readonly code = 'PLAYER_UNKNOWN' as const;
  constructor(readonly player: string) {
    super(`player "${player}" is unknown: no stored event is by or about them; nothing was erased`);
  }
}

/** `error` located at `place` when it is an event error that does not know its place yet. */
export function locate(error: unknown, place: Place): unknown {
  if ((error instanceof EventValidationError || error instanceof EventConflictError) && error.place === undefined) {
    return error.at(place);
  }
  return error;
}

/**
 * Something standing's own code guarantees did not hold: a bug of standing, never a caller's
 * mistake (a caller's mistake gets its own class and code).
 */
export class InternalError extends StandingError {
  readonly code = 'INTERNAL' as const;
}

/** Throws InternalError: `what` cannot happen unless standing has a bug. */
export function unreachable(what: string): never {
  throw new InternalError(what);
}
