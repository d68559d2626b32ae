/**
 * A log's lines as the batches `standing ingest` sends: NDJSON bodies within the service's
 * limits (events per batch, body bytes), each event given an id when it has none
 * (./event-id.ts), each line's number kept so the service's problems can be named by line.
 * A line that is not JSON is refused here, naming it, before anything after it is sent.
 */
import { EventValidationError } from '../../errors.js';
import { parseJsonLine } from '../../events/lines.js';
import { isBlank, readLineBatches, type EventSource } from '../../events/ndjson.js';
import { lineEventId } from './event-id.js';

export interface IngestBatch {
  /** The NDJSON body: one event a line. */
  readonly body: string;
  /** `lines[i]`: the line number of the batch's event i. */
  readonly lines: readonly number[];
  /** Bytes of the source read up to the end of this batch (line ends counted as one byte). */
  readonly readBytes: number;
}

export interface BatchLimits {
  readonly maxEvents: number;
  readonly maxBytes: number;
}

/** The text to send for one line: the line itself, or its event with an id added when it has none. */
function eventText(text: string, value: unknown, line: number): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.hasOwn(value, 'id')) return text;
  return JSON.stringify({ ...value, id: lineEventId(line, text) });
}

export async function* ingestBatches(source: EventSource, limits: BatchLimits): AsyncGenerator<IngestBatch> {
  let texts: string[] = [];
  let lines: number[] = [];
  let bytes = 0;
  let readBytes = 0;
  const flush = (): IngestBatch => {
    const batch = { body: texts.join('\n'), lines, readBytes };
    texts = [];
    lines = [];
    bytes = 0;
    return batch;
  };
  for await (const { firstLine, lines: chunk } of readLineBatches(source)) {
    for (let i = 0; i < chunk.length; i++) {
      const raw = chunk[i]!;
      const line = firstLine + i;
      const size = Buffer.byteLength(raw) + 1;
      if (isBlank(raw)) {
        readBytes += size;
        continue;
      }
      const text = eventText(raw, parseJsonLine(raw, { source: source.name, line }), line);
      const textBytes = Buffer.byteLength(text) + 1;
      if (textBytes > limits.maxBytes) {
        throw new EventValidationError({ source: source.name, line }, '', `is ${textBytes} bytes, over the ${limits.maxBytes} bytes a request to the service may hold (bodyLimitBytes)`);
      }
      if (texts.length === limits.maxEvents || bytes + textBytes > limits.maxBytes) yield flush();
      texts.push(text);
      lines.push(line);
      bytes += textBytes;
      readBytes += size;
    }
  }
  if (texts.length > 0) yield flush();
}
