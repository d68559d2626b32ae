/**
 * POST /v1/events: a JSON array or an NDJSON body of events, stored and applied atomically.
 * 200 only once the batch is durable; 400 names every bad index (nothing stored); duplicates by
 * `id` are counted, not applied; a body over the byte limit or a batch over the event limit → 413.
 */
import type { FastifyInstance } from 'fastify';
import { BatchRejectedError, EventSyntaxError, type BatchProblem } from '../../errors.js';
import { isBlank, parseJsonLine, withoutCarriageReturn } from '../../events/lines.js';
import type { HttpContext } from '../context.js';

/** The 1-based line of each event of a parsed NDJSON body, so later problems can name it too. */
const ndjsonLines = new WeakMap<readonly unknown[], readonly number[]>();

/**
 * The events of an NDJSON body, read line by line as a log file is (../../events/lines.ts: a
 * byte-order mark at the start and CRLF line ends allowed, blank lines skipped, the same message
 * for a line that is not JSON); every such line is a problem.
 */
export function parseNdjson(text: string): unknown[] {
  const events: unknown[] = [];
  const numbers: number[] = [];
  const problems: BatchProblem[] = [];
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = withoutCarriageReturn(lines[i]!);
    if (isBlank(line)) continue;
    try {
      events.push(parseJsonLine(line, { line: i + 1 }));
    } catch (error) {
      if (!(error instanceof EventSyntaxError)) throw error;
      problems.push({ index: events.length, line: i + 1, code: 'EVENT_SYNTAX', field: '', reason: error.reason });
      events.push(undefined);
    }
    numbers.push(i + 1);
  }
  if (problems.length > 0) throw new BatchRejectedError(problems);
  ndjsonLines.set(events, numbers);
  return events;
}

/** `error` with each problem's NDJSON line added, when the batch came as NDJSON. */
function withLines(error: unknown, events: readonly unknown[]): unknown {
  const lines = ndjsonLines.get(events);
  if (lines === undefined || !(error instanceof BatchRejectedError)) return error;
  return new BatchRejectedError(error.problems.map((p) => (p.line === undefined ? { ...p, line: lines[p.index]! } : p)));
}

const Outcome = {
  type: 'object',
  properties: {
    accepted: { type: 'integer', description: 'events stored and applied' },
    duplicates: { type: 'integer', description: 'events ignored: their id was already accepted' },
    sequences: { type: 'object', additionalProperties: { type: 'integer' }, description: 'last sequence reached per community' },
  },
} as const;

export function eventRoutes(app: FastifyInstance, { live, metrics }: HttpContext): void {
  app.addContentTypeParser('application/x-ndjson', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseNdjson(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  app.post(
    '/v1/events',
    {
      config: { scope: 'ingest' },
      schema: {
        summary: 'Ingest a batch of events (JSON array or NDJSON), atomically and durably',
        tags: ['events'],
        body: { type: 'array', description: 'SPEC §1 events; each is validated by standing, not by this schema' },
        response: { 200: Outcome },
      },
      // Event validation is ours (every bad index named), not the generic schema validator's.
      validatorCompiler: () => (value) => (Array.isArray(value) ? { value } : { error: new Error('the body must be a JSON array of events or NDJSON') }),
    },
    async (request) => {
      const started = process.hrtime.bigint();
      const events = request.body as unknown[];
      try {
        const outcome = await live.ingest(events);
        metrics.events.inc({ outcome: 'accepted' }, outcome.accepted);
        metrics.events.inc({ outcome: 'duplicate' }, outcome.duplicates);
        return outcome;
      } catch (error) {
        metrics.events.inc({ outcome: 'rejected' }, events.length);
        throw withLines(error, events);
      } finally {
        metrics.batchSeconds.observe(Number(process.hrtime.bigint() - started) / 1e9);
      }
    },
  );
}
