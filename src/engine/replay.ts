/**
 * Replaying events through an engine: an NDJSON source (the one path the CLI and tests use for
 * logs), and a stored log (the one path the service uses to rebuild state from its store).
 */
import { locate } from '../errors.js';
import { readEventBatches, type EventSource, type ReadOptions } from '../events/ndjson.js';
import type { StandingEvent } from '../events/types.js';
import { pairHash } from '../util/id-hash.js';
import { PairSet } from '../util/pair-set.js';
import type { Engine } from './engine.js';

export interface ReplayOptions extends ReadOptions {
  /** Evaluate as of this moment (epoch ms): events dated after it are left out. */
  readonly until?: number;
}

export interface ReplayOutcome {
  /** Events applied. */
  readonly events: number;
  /** Events left out for being dated after `until`. */
  readonly later: number;
  /** Events left out because an earlier event of their community had their `id` (docs/spec.md §1). */
  readonly repeated: number;
}

/**
 * Applies the events of `source` in order and says how many: those dated after `until` are left
 * out, and so is an event whose `id` an earlier event of its community had (docs/spec.md §1: the
 * first is accepted, the later ones ignored, as the service does). An error names the source and
 * line; the place object is built per event only when the engine observes.
 */
export async function replay(engine: Engine, source: EventSource, options: ReplayOptions = {}): Promise<ReplayOutcome> {
  let count = 0;
  let later = 0;
  let repeated = 0;
  /** (community, id) of every event applied that had an id. */
  const accepted = new PairSet();
  const name = source.name;
  const observes = engine.observes;
  const until = options.until ?? Infinity;
  for await (const { events, lines, idHashes } of readEventBatches(source, options)) {
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      if (event.time > until) {
        later++;
        continue;
      }
      const id = event.id;
      if (id !== undefined && !accepted.add(event.community, id, idHashes === undefined ? pairHash(event.community, id) : idHashes[i]!)) {
        repeated++;
        continue;
      }
      try {
        engine.apply(event, observes ? { source: name, line: lines[i]! } : undefined);
      } catch (error) {
        throw locate(error, { source: name, line: lines[i]! });
      }
    }
    count += events.length;
  }
  return { events: count - later - repeated, later, repeated };
}

/** An event read back from a store, with its place in its community's log. */
export interface SequencedEvent {
  readonly sequence: number;
  readonly event: StandingEvent;
}

/** A stored event read without its body (EventLog.read with `whole`: a SkimmedEvent of the store's): its place, type and event time. */
export interface PassedEvent {
  readonly sequence: number;
  readonly community: string;
  readonly type: string;
  readonly time: number;
}

/** Where a replay of a stored log ended: the last event's sequence and event time. */
export interface LogPosition {
  readonly sequence: number;
  readonly time: number;
}

/** Each community with applied events: its last applied sequence and the event time of that event. */
export type Positions = Map<string, LogPosition>;

export interface StoredReplayOptions {
  /**
   * Asked before each event, with the position of the one before it (undefined before the
   * first): false ends the replay there, without reading further.
   */
  readonly before?: (sequence: number, previous: LogPosition | undefined) => boolean;
  /** Told of each event left out (see replayStoredEvent) and why. */
  readonly onSkipped?: (sequence: number, error: unknown) => void;
}

export interface StoredReplayOutcome {
  /** Events read, those left out included. */
  readonly events: number;
  /** The last event read, or undefined when there was none. */
  readonly last: LogPosition | undefined;
}

/**
 * Applies one event of a stored log through `engine` as every replay of the log does, and
 * returns the error it was left out for, if any. The store keeps events the scorers never
 * saw, and a replay must leave them out as well: a domain action its domain now refuses (only
 * an erasure can leave one), and an event a scorer threw on (ingest answered that batch 500 and
 * kept it stored; the scorer throws on it again here).
 */
export function replayStoredEvent(engine: Engine, event: StandingEvent): { error: unknown } | undefined {
  let resolved: StandingEvent | null;
  try {
    resolved = engine.resolve(event);
  } catch (error) {
    return { error };
  }
  try {
    engine.settle(event, resolved);
  } catch (error) {
    return { error };
  }
  return undefined;
}

/**
 * Replays stored events in order through `engine` (restart, erasure, history, the quality stage
 * rebuilt): each as replayStoredEvent applies it, and an event read without its body (a skimming
 * read asked for the bodies of the types the engine's scorers use) as Engine.passOver does. Says
 * how many were read and where it ended.
 */
export async function replayStored(
  engine: Engine,
  events: AsyncIterable<SequencedEvent | PassedEvent> | Iterable<SequencedEvent | PassedEvent>,
  options: StoredReplayOptions = {},
): Promise<StoredReplayOutcome> {
  const { before, onSkipped } = options;
  let last: LogPosition | undefined;
  let count = 0;
  for await (const row of events) {
    const sequence = row.sequence;
    if (before !== undefined && !before(sequence, last)) break;
    let time: number;
    if ('event' in row) {
      const skipped = replayStoredEvent(engine, row.event);
      if (skipped !== undefined) onSkipped?.(sequence, skipped.error);
      time = row.event.time;
    } else {
      engine.passOver(row.community, row.time);
      time = row.time;
    }
    last = { sequence, time };
    count++;
  }
  return { events: count, last };
}
