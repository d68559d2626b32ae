/**
 * What `standing ingest` does, loaded only when it runs: reads the limits of the service, sends
 * the log in batches within them (./batches.ts), one at a time and in order, each request tried
 * again while the service asks for a wait or the connection fails (./send.ts), with a progress bar on
 * a terminal; names the line of each event the service refuses.
 */
import cliProgress from 'cli-progress';
import { StandingApiError, StandingClient } from '../../client/index.js';
import type { IngestLimits } from '../../client/types.js';
import { openEventSource } from '../../events/ndjson.js';
import { CommandError } from '../errors.js';
import { print } from '../output.js';
import { ingestBatches, type IngestBatch } from './batches.js';
import { RefusedLinesError } from './refused.js';
import { sendBatch, withRetries } from './send.js';

export interface IngestRequest {
  readonly file: string;
  readonly url: string;
  readonly key: string;
  /** Events a batch holds at most (the service's maxBatchEvents when undefined or larger). */
  readonly batch?: number;
  readonly retries: number;
}

/** `error` from the service, as the command reports it. */
function serviceError(url: string, error: unknown, context: string): unknown {
  if (error instanceof StandingApiError) return new CommandError(`${url} answered ${error.status} ${error.code}: ${error.message}${context}`);
  if (error instanceof TypeError) {
    const cause = (error as { cause?: { message?: string } }).cause;
    return new CommandError(`cannot reach ${url} (${cause?.message ?? error.message})${context}`);
  }
  return error;
}

function progressBar(size: number | undefined): cliProgress.SingleBar | undefined {
  if (process.stderr.isTTY !== true) return undefined;
  const format = size === undefined ? 'ingest: {events} events sent' : 'ingest [{bar}] {percentage}% | {events} events sent';
  const bar = new cliProgress.SingleBar({ stream: process.stderr, format, hideCursor: true }, cliProgress.Presets.shades_classic);
  bar.start(size ?? 1, 0, { events: 0 });
  return bar;
}

export async function ingestCommand(request: IngestRequest): Promise<void> {
  const { url } = request;
  const client = new StandingClient({ url, key: request.key, attempts: 1 });
  let limits: IngestLimits;
  try {
    limits = await withRetries(() => client.limits(), {
      retries: request.retries,
      onRetry: (reason, wait, attempt) => process.stderr.write(`standing: GET /v1/limits: ${reason}; trying again in ${wait} s (try ${attempt} of ${request.retries + 1})\n`),
    });
  } catch (error) {
    throw serviceError(url, error, ' (reading the limits of a batch, GET /v1/limits)');
  }
  const source = openEventSource(request.file);
  const bar = progressBar(source.size);
  let events = 0;
  let batches = 0;
  let accepted = 0;
  let duplicates = 0;
  const stored = (batch: IngestBatch) => (batch.lines[0] === 1 ? '' : `; lines before ${batch.lines[0]} are stored`);
  try {
    for await (const batch of ingestBatches(source, { maxEvents: Math.min(request.batch ?? Infinity, limits.maxBatchEvents), maxBytes: limits.bodyLimitBytes })) {
      const first = batch.lines[0]!;
      const last = batch.lines.at(-1)!;
      let outcome;
      try {
        outcome = await sendBatch(client, batch.body, {
          retries: request.retries,
          onRetry: (reason, wait, attempt) => process.stderr.write(`standing: lines ${first}–${last}: ${reason}; trying again in ${wait} s (try ${attempt} of ${request.retries + 1})\n`),
        });
      } catch (error) {
        if (error instanceof StandingApiError && error.code === 'BATCH_REJECTED' && error.problems !== undefined) {
          throw new RefusedLinesError(source.name, error.problems.map((p) => ({ ...p, line: batch.lines[p.index]! })), [first, last]);
        }
        throw serviceError(url, error, ` (sending lines ${first}–${last}${stored(batch)})`);
      }
      batches++;
      events += batch.lines.length;
      accepted += outcome.accepted;
      duplicates += outcome.duplicates;
      bar?.update(source.size === undefined ? 0 : Math.min(batch.readBytes, source.size), { events });
    }
  } finally {
    if (bar !== undefined) {
      if (source.size !== undefined) bar.update(source.size);
      bar.stop();
    }
  }
  print(`${source.name}: ${events} events sent to ${url} in ${batches} batches: ${accepted} accepted, ${duplicates} duplicates (already held)`);
}
