/**
 * Signed rating edge lists as CSV, `from,to,value[,time]`, into `rating` events: SNAP's Bitcoin
 * OTC and Alpha (ratings −10..10, unix seconds; `scale` 10) and the Wikipedia election votes
 * (±1, no time). A header line, a byte-order mark, CRLF line ends and quoted cells are accepted
 * (../util/csv.ts). Ids become
 * `u<id>`. Without a time column, events keep the file's order one millisecond apart from
 * `start`, so none of them expires within a run.
 */
import { EventValidationError } from '../errors.js';
import type { RatingEvent } from '../events/types.js';
import { readFailure, type EventSource } from '../events/lines.js';
import { readCsv } from '../util/csv.js';

export interface SignedCsvOptions {
  /** Ratings are divided by this to land in [−1, 1] (10 for Bitcoin OTC/Alpha). */
  readonly scale: number;
  readonly community?: string | undefined;
  /** Time of the first row when the file has no time column (default 2010-01-01). */
  readonly start?: number;
  /** Prefix of the event ids. */
  readonly idPrefix: string;
}

const NUMBER = /^-?\d+(\.\d+)?$/;

export async function* importSignedCsv(source: EventSource, options: SignedCsvOptions): AsyncGenerator<RatingEvent[]> {
  const start = options.start ?? Date.UTC(2010, 0, 1);
  let row = 0;
  const rows = readCsv(source.stream, { invalid: (line, reason) => new EventValidationError({ source: source.name, line }, '', reason) });
  try {
    for await (const batch of rows) {
      const events: RatingEvent[] = [];
      for (const { cells, line } of batch) {
        if (line === 1 && !NUMBER.test(cells[0] ?? '')) continue; // a header
        const place = { source: source.name, line };
        if (cells.length < 3 || cells.length > 4) throw new EventValidationError(place, '', `expected "from,to,value[,time]", got "${cells.join(',').slice(0, 60)}"`);
        const [from, to, value, seconds] = cells as [string, string, string, string | undefined];
        if (from === to) throw new EventValidationError(place, 'to', `must differ from "from": self-ratings are rejected (docs/spec.md §4)`);
        if (!NUMBER.test(value)) throw new EventValidationError(place, 'value', `must be a number, got "${value}"`);
        const scaled = Number(value) / options.scale;
        if (scaled < -1 || scaled > 1) throw new EventValidationError(place, 'value', `${value} / ${options.scale} is outside [−1, 1]`);
        if (seconds !== undefined && !NUMBER.test(seconds)) throw new EventValidationError(place, 'time', `must be unix seconds, got "${seconds}"`);
        const time = seconds === undefined ? start + row : Math.round(Number(seconds) * 1000);
        row++;
        events.push({
          type: 'rating',
          id: `${options.idPrefix}-${line}`,
          time,
          community: options.community ?? 'default',
          from: `u${from}`,
          to: `u${to}`,
          value: scaled,
        });
      }
      if (events.length > 0) yield events;
    }
  } catch (error) {
    throw readFailure(error, source.name);
  }
}
