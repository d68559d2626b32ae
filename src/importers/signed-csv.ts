/**
 * Signed rating edge lists as CSV, `from,to,value[,time]`, into `rating` events: SNAP's Bitcoin
 * OTC and Alpha (ratings −10..10, unix seconds; `scale` 10) and the Wikipedia election votes
 * (±1, no time). A header line, a byte-order mark and CRLF line ends are accepted. Ids become
 * `u<id>`. Without a time column, events keep the file's order one millisecond apart from
 * `start`, so none of them expires within a run.
 */
import { EventValidationError } from '../errors.js';
import type { RatingEvent } from '../events/types.js';
import { readLineBatches, type EventSource } from '../events/ndjson.js';

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
  for await (const { firstLine, lines } of readLineBatches(source)) {
    const events: RatingEvent[] = [];
    lines.forEach((raw, i) => {
      const line = firstLine + i;
      const text = (line === 1 ? raw.replace(/^\uFEFF/, '') : raw).trim();
      if (text === '') return;
      const cells = text.split(',').map((cell) => cell.trim());
      if (line === 1 && !NUMBER.test(cells[0] ?? '')) return; // a header
      const place = { source: source.name, line };
      if (cells.length < 3 || cells.length > 4) throw new EventValidationError(place, '', `expected "from,to,value[,time]", got "${text.slice(0, 60)}"`);
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
    });
    if (events.length > 0) yield events;
  }
}
