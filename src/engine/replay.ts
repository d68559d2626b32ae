/** Replays an NDJSON source through an engine: the one path the CLI and tests use for logs. */
import { readEventBatches, type EventSource } from '../events/ndjson.js';
import type { Engine } from './engine.js';

export async function replay(engine: Engine, source: EventSource): Promise<number> {
  let count = 0;
  for await (const { events, lines } of readEventBatches(source)) {
    for (let i = 0; i < events.length; i++) {
      engine.apply(events[i]!, { source: source.name, line: lines[i]! });
    }
    count += events.length;
  }
  return count;
}
