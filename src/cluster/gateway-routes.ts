/**
 * A gateway's POST /v1/events, answered as `standing serve` answers it (docs/deploy.md, "The
 * ingest contract"): the same body, limits, validation and error answers (../http/routes/events.ts,
 * ../events/batch.ts); a batch over several partitions checked whole by the
 * owners of the parts their state could refuse (./gateway-checks.ts); then each partition's part
 * published to the event log (./publish.ts), and the answer given once every owning worker has
 * reported its part applied or refused (./apply-outcomes.ts): `{accepted, duplicates, sequences}`
 * as serve's, or serve's 400 naming each refused event's batch index.
 */
import { randomUUID } from 'node:crypto';
import type { JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { BatchRejectedError, type BatchProblem } from '../errors.js';
import type { StandingEvent } from '../events/types.js';
import { documented } from '../http/documented.js';
import { HttpProblem } from '../http/errors.js';
import type { ServiceMetrics } from '../http/metrics.js';
import { acceptNdjson, anArray, withLines } from '../http/routes/events.js';
import { refTo } from '../http/schemas/common.js';
import { answer } from '../http/schemas/errors.js';
import { EventBatch, EventLines, IngestOutcome } from '../http/schemas/events.js';
import { validateIngest, type BatchLimits } from '../events/batch.js';
import type { ApplyOutcomes } from './apply-outcomes.js';
import type { LeaseEpochs } from './lease-epochs.js';
import { checkParts, inBatch } from './gateway-checks.js';
import type { OutcomeMessage } from './ingest-protocol.js';
import type { ClusterConfig } from './nats.js';
import { isOverMaxPayload, messageBytes, partitionParts, publishParts, type PartitionPart } from './publish.js';

const documentation = documented('ingest', {
  operationId: 'ingest',
  summary: 'Ingest a batch of events (JSON array or NDJSON), atomically and durably',
  description:
    "Answers as `standing serve` does, once every owning worker has applied the batch (stored in PostgreSQL and applied) or refused it: 200 with the same counts, 400 BATCH_REJECTED naming the same problems (nothing stored). A batch over several partitions is checked whole against the owners' states first; when another write changes a community between that check and the apply, that partition's part alone is refused (409 BATCH_PARTLY_APPLIED). 504 APPLY_PENDING: the batch is in the event log but its outcome did not arrive in time: send it again (event ids make the retry apply once).",
  tags: ['events'],
  body: refTo(EventBatch),
  response: { 200: answer(IngestOutcome, 'the batch is durable and applied') },
  errors: {
    400: ['BATCH_REJECTED', 'REQUEST_INVALID', 'BODY_UNREADABLE'],
    409: ['BATCH_PARTLY_APPLIED'],
    413: ['BODY_TOO_LARGE', 'BATCH_TOO_LARGE'],
    415: ['BODY_UNREADABLE'],
    500: ['APPLY_FAILED'],
    503: ['LOG_UNAVAILABLE', 'PARTITION_UNAVAILABLE'],
    504: ['APPLY_PENDING', 'READ_TIMEOUT'],
  },
}, 'events');

export interface GatewayIngest {
  readonly js: JetStreamClient;
  /** Where the owners' checks are asked. */
  readonly nats: NatsConnection;
  /** Each partition's current lease epoch: a stale owner's check is not taken. */
  readonly epochs: LeaseEpochs;
  /** Where the owners' outcomes arrive. */
  readonly outcomes: ApplyOutcomes;
  readonly cluster: ClusterConfig;
  readonly maxBatchEvents: number;
  readonly limits: BatchLimits;
  /** The largest message the NATS servers take (their max_payload), in bytes. */
  readonly maxPayload: number;
  readonly metrics: ServiceMetrics;
}

export function gatewayEventRoutes(app: FastifyInstance, ingest: GatewayIngest): void {
  acceptNdjson(app);
  app.post(
    '/v1/events',
    {
      ...documentation,
      config: { ...documentation.config, documentedBody: { 'application/json': refTo(EventBatch), 'application/x-ndjson': refTo(EventLines) } },
      validatorCompiler: anArray,
    },
    async (request, reply) => {
      const raw = request.body as unknown[];
      let events: StandingEvent[];
      try {
        events = validateIngest(raw, ingest.maxBatchEvents, ingest.limits, { refuseModeration: true });
      } catch (error) {
        ingest.metrics.events.inc({ outcome: 'rejected' }, raw.length);
        throw withLines(error, raw);
      }
      const parts = partitionParts(events, ingest.cluster.partitions);
      const headers = { batch: randomUUID(), outcomeTo: ingest.outcomes.subject };
      for (const part of parts) {
        const bytes = messageBytes(part, headers);
        if (bytes > ingest.maxPayload) {
          throw new HttpProblem(
            413,
            'BATCH_TOO_LARGE',
            `the events of partition ${part.partition} (communities ${[...new Set(part.events.map((e) => JSON.stringify(e.community)))].join(', ')}) make a message of ${bytes} bytes with its headers, over the NATS servers' max_payload (${ingest.maxPayload} bytes): send them in smaller batches`,
            ingest.maxPayload,
          );
        }
      }
      try {
        await checkParts(ingest.nats, ingest.epochs, ingest.cluster, parts);
      } catch (error) {
        if (error instanceof BatchRejectedError) ingest.metrics.events.inc({ outcome: 'rejected' }, raw.length);
        else retryAfter(reply, ingest.cluster);
        throw withLines(error, raw);
      }
      const waiting = ingest.outcomes.expect(headers.batch, parts.map((p) => p.partition));
      try {
        await publishParts(ingest.js, ingest.cluster, parts, headers);
      } catch (error) {
        waiting.cancel();
        // The server connected now takes less than the one the check above read (servers of one cluster differ).
        if (isOverMaxPayload(error)) {
          throw new HttpProblem(413, 'BATCH_TOO_LARGE', `a part of the batch is over the NATS servers' max_payload (${(error as Error).message}); parts of it may be stored: send it again in smaller batches`, ingest.maxPayload);
        }
        request.log.warn({ err: error }, 'publishing a batch failed');
        void reply.header('retry-after', '1');
        throw new HttpProblem(503, 'LOG_UNAVAILABLE', `the event log did not acknowledge every part of the batch (${(error as Error).message}); parts of it may be stored: send the same batch again`);
      }
      const outcomes = await waiting.settled(ingest.cluster.applyTimeoutMs);
      return answerOf(parts, outcomes, raw, ingest, reply);
    },
  );
}

function retryAfter(reply: FastifyReply, cluster: ClusterConfig): void {
  void reply.header('retry-after', String(Math.ceil(cluster.leaseSeconds)));
}

/** The batch's answer from its parts' outcomes, as serve answers a batch. */
function answerOf(parts: readonly PartitionPart[], outcomes: ReadonlyMap<number, OutcomeMessage>, raw: readonly unknown[], ingest: GatewayIngest, reply: FastifyReply): IngestOutcome {
  const missing = parts.filter((p) => !outcomes.has(p.partition)).map((p) => p.partition);
  if (missing.length > 0) {
    retryAfter(reply, ingest.cluster);
    throw new HttpProblem(
      504,
      'APPLY_PENDING',
      `the batch is durable in the event log, but the worker${missing.length === 1 ? '' : 's'} owning partition${missing.length === 1 ? '' : 's'} ${missing.join(', ')} did not report applying it within cluster.applyTimeoutMs (${ingest.cluster.applyTimeoutMs} ms): send the same batch again to learn its outcome (event ids make the retry apply once)`,
      ingest.cluster.applyTimeoutMs,
    );
  }
  let accepted = 0;
  let duplicates = 0;
  // Community names are any strings, "__proto__" included: no prototype.
  const sequences = Object.create(null) as Record<string, number>;
  const problems: BatchProblem[] = [];
  let failure: string | undefined;
  let refusedEvents = 0;
  for (const part of parts) {
    const { outcome } = outcomes.get(part.partition)!;
    if (outcome.kind === 'refused') {
      problems.push(...inBatch(part, outcome.problems));
      refusedEvents += part.events.length;
    } else if (outcome.kind === 'failed') {
      failure ??= outcome.message;
    } else if (outcome.kind === 'applied') {
      accepted += outcome.accepted;
      duplicates += outcome.duplicates;
      Object.assign(sequences, outcome.sequences);
    }
  }
  problems.sort((a, b) => a.index - b.index);
  ingest.metrics.events.inc({ outcome: 'accepted' }, accepted);
  ingest.metrics.events.inc({ outcome: 'duplicate' }, duplicates);
  ingest.metrics.events.inc({ outcome: 'rejected' }, refusedEvents);
  if (problems.length > 0 && refusedEvents === raw.length) throw withLines(new BatchRejectedError(problems), raw);
  if (problems.length > 0) {
    const refused = withLines(new BatchRejectedError(problems), raw) as BatchRejectedError;
    throw new PartlyApplied(refused.problems, { accepted, duplicates, sequences });
  }
  if (failure !== undefined) throw new HttpProblem(500, 'APPLY_FAILED', failure);
  return { accepted, duplicates, sequences };
}

/** 409 BATCH_PARTLY_APPLIED: a part refused by a write between the check and the apply. */
export class PartlyApplied extends HttpProblem {
  constructor(
    readonly problems: readonly BatchProblem[],
    readonly applied: IngestOutcome,
  ) {
    super(
      409,
      'BATCH_PARTLY_APPLIED',
      `a write changed a community between the check of the batch and its apply: the part holding ${problems.length} refused event${problems.length === 1 ? '' : 's'} was refused whole (problems), the other parts are stored and applied (applied)`,
      undefined,
      { problems, applied },
    );
  }
}
