/** Reads the rating events of an NDJSON file (from `standing import bitcoin-otc|signed-csv`). */
import { openEventSource, readEvents } from '../../events/ndjson.js';
import type { RatingEvent } from '../../events/types.js';
import { UsageError } from '../usage-error.js';

export async function readRatings(path: string): Promise<RatingEvent[]> {
  const ratings: RatingEvent[] = [];
  for await (const event of readEvents(openEventSource(path))) if (event.type === 'rating') ratings.push(event);
  if (ratings.length === 0) throw new UsageError(`${path} has no rating events (make one with standing import bitcoin-otc or signed-csv)`);
  return ratings;
}
