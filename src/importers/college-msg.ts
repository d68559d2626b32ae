/**
 * SNAP CollegeMsg (../shared/data/college-msg): lines `SRC DST UNIXTS`, one private message
 * each, become `chat` events from `u<SRC>` to `u<DST>` at UNIXTS seconds. Streams: one line in,
 * one event out.
 */
import { EventValidationError } from '../errors.js';
import type { ChatEvent } from '../events/types.js';
import { readLineBatches, type EventSource } from '../events/ndjson.js';

export async function* importCollegeMsg(source: EventSource, community?: string): AsyncGenerator<ChatEvent[]> {
  for await (const { firstLine, lines } of readLineBatches(source)) {
    const events: ChatEvent[] = [];
    lines.forEach((text, i) => {
      const line = firstLine + i;
      if (text.trim() === '') return;
      const cells = text.trim().split(/\s+/);
      const [from, to, seconds] = cells;
      const place = { source: source.name, line };
      if (cells.length !== 3 || !/^\d+$/.test(from!) || !/^\d+$/.test(to!)) {
        throw new EventValidationError(place, '', `expected "SRC DST UNIXTS" with numeric user ids, got "${text.slice(0, 60)}"`);
      }
      if (!/^\d+$/.test(seconds!)) throw new EventValidationError(place, 'UNIXTS', `must be whole seconds since the epoch, got "${seconds}"`);
      events.push({
        type: 'chat',
        id: `collegemsg-${line}`,
        time: Number(seconds) * 1000,
        community: community ?? 'default',
        from: `u${from}`,
        to: [`u${to}`],
      });
    });
    if (events.length > 0) yield events;
  }
}
