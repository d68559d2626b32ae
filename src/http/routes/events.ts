/**
 * POST /v1/events: a JSON array or an NDJSON body of events, stored and applied atomically.
 * 200 only once the batch is durable; 400 names every bad index (nothing stored); duplicates by
 * `id` are counted, not applied; a body over the byte limit or a batch over the event limit → 413.
 */
import type { FastifyInstance } from 'fastify';
import { BatchRejectedError, EventSyntaxError, type BatchProblem } from '../../errors.js';
import { isBlank, parseJsonLine, withoutCarriageReturn } from '../../events/lines.js';
import { appealOpeningProblems, opensAppeal } from '../../moderation/appeal-openings.js';
import type { HttpContext } from '../context.js';
import { documented } from '../documented.js';
import type { OneAtATime } from '../one-at-a-time.js';
import { refTo } from '../schemas/common.js';
import { answer } from '../schemas/errors.js';
import { EventBatch, EventLines, IngestOutcome } from '../schemas/events.js';

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
export function withLines(error: unknown, events: readonly unknown[]): unknown {
  const lines = ndjsonLines.get(events);
  if (lines === undefined || !(error instanceof BatchRejectedError)) return error;
  return new BatchRejectedError(error.problems.map((p) => (p.line === undefined ? { ...p, line: lines[p.index]! } : p)));
}

const ingestDocumentation = documented('ingest', {
  operationId: 'ingest',
  summary: 'Ingest a batch of events (JSON array or NDJSON), atomically and durably',
  description:
    'Answers once the batch is durable. A batch is atomic: if any event is invalid or conflicts with its community, nothing of it is stored (400 BATCH_REJECTED naming every problem). An event whose id its community already holds is counted in `duplicates` and not applied again, so a batch sent twice is applied once. Moderator events are refused here (a `moderator` or `moderatorKey` field on any event, `verdict`, `note`, `sanction`, an appeal\'s `granted` or `denied`): they come through the moderation endpoints, which need the moderate scope. An appeal with `status: "opened"` is accepted, against a sanction of its player (`sanction`, its event id) or none, one open appeal per sanction: an opening naming a sanction the player does not have, or a second open one, is refused (EVENT_CONFLICT naming `sanction`, or `status` for a second appeal naming none).',
  tags: ['events'],
  body: refTo(EventBatch),
  response: { 200: answer(IngestOutcome, 'the batch is durable and applied') },
  errors: { 400: ['BATCH_REJECTED', 'REQUEST_INVALID', 'BODY_UNREADABLE'], 413: ['BODY_TOO_LARGE', 'BATCH_TOO_LARGE'], 415: ['BODY_UNREADABLE'], 503: ['STORE_BUSY'] },
}, 'events');

/** Reads `application/x-ndjson` bodies as parseNdjson does. */
export function acceptNdjson(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-ndjson', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseNdjson(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

/** What the events route's body must be: an array (both body types parse to one); the events are checked by ingest. */
export const anArray = () => (value: unknown) => (Array.isArray(value) ? { value } : { error: new Error('the body must be a JSON array of events or NDJSON') });

export function eventRoutes(app: FastifyInstance, { live, metrics, moderation }: Pick<HttpContext, 'live' | 'metrics' | 'moderation'>, moderationWrites: OneAtATime): void {
  acceptNdjson(app);

  app.post(
    '/v1/events',
    {
      ...ingestDocumentation,
      config: { ...ingestDocumentation.config, documentedBody: { 'application/json': refTo(EventBatch), 'application/x-ndjson': refTo(EventLines) } },
      // Event validation is ours (every bad index named), not the generic schema validator's:
      // the schema documents, this only asks for an array (what both body types parse to).
      validatorCompiler: anArray,
    },
    async (request) => {
      const started = process.hrtime.bigint();
      const events = request.body as unknown[];
      try {
        // A batch opening appeals is checked against the book (each against a sanction of its
        // player, or none, and no second open one) and committed as one moderation write; every
        // event is checked on its own first, as ingest checks any batch.
        const outcome = events.some(opensAppeal)
          ? await moderationWrites(async () => {
              live.validate(events, { refuseModeration: true });
              await moderation.whenCurrent();
              const problems = appealOpeningProblems(events, moderation);
              if (problems.length > 0) throw new BatchRejectedError(problems);
              const committed = await live.ingest(events, { refuseModeration: true });
              await moderation.whenCurrent();
              return committed;
            })
          : await live.ingest(events, { refuseModeration: true });
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
