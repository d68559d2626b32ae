/** Replays an NDJSON source through an engine: the one path the CLI and tests use for logs. */
import { locate } from '../errors.js';
import { readEventBatches, type EventSource, type ReadOptions } from '../events/ndjson.js';
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
}

/**
 * Applies every event of `source` in order (those dated after `until` left out) and says how
 * many. An error names the source and line; the place object is built per event only when the
 * engine observes.
 */
export async function replay(engine: Engine, source: EventSource, options: ReplayOptions = {}): Promise<ReplayOutcome> {
  let count = 0;
  let later = 0;
  const name = source.name;
  const observes = engine.observes;
  const until = options.until ?? Infinity;
  for await (const { events, lines } of readEventBatches(source, options)) {
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      if (event.time > until) {
        later++;
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
  return { events: count - later, later };
}
