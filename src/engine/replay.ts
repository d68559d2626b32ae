/** Replays an NDJSON source through an engine: the one path the CLI and tests use for logs. */
import { locate } from '../errors.js';
import { readEventBatches, type EventSource, type ReadOptions } from '../events/ndjson.js';
import type { Engine } from './engine.js';

/**
 * Applies every event of `source` in order and returns how many there were. An error names
 * the source and line; the place object is built per event only when the engine observes.
 */
export async function replay(engine: Engine, source: EventSource, options: ReadOptions = {}): Promise<number> {
  let count = 0;
  const name = source.name;
  const observes = engine.observes;
  for await (const { events, lines } of readEventBatches(source, options)) {
    for (let i = 0; i < events.length; i++) {
      try {
        engine.apply(events[i]!, observes ? { source: name, line: lines[i]! } : undefined);
      } catch (error) {
        throw locate(error, { source: name, line: lines[i]! });
      }
    }
    count += events.length;
  }
  return count;
}
