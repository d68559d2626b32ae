/**
 * A gateway's POST /v1/events: the same body, limits, validation and error answers as the
 * single-node service (../http/routes/events.ts, ../service/live-engine/validate-batch.ts), then
 * the batch is published to the event log (./publish.ts) and answered once JetStream has
 * acknowledged every message of it: durable and ordered, applied by the owning workers soon after.
 */
import type { JetStreamClient } from '@nats-io/jetstream';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { BatchTooLargeError } from '../errors.js';
import type { StandingEvent } from '../events/types.js';
import { documented } from '../http/documented.js';
import { HttpProblem } from '../http/errors.js';
import type { ServiceMetrics } from '../http/metrics.js';
import { acceptNdjson, anArray, withLines } from '../http/routes/events.js';
import { Dictionary, refTo } from '../http/schemas/common.js';
import { EventBatch, EventLines } from '../http/schemas/events.js';
import { validateBatch, type BatchLimits } from '../service/live-engine/validate-batch.js';
import type { ClusterConfig } from './nats.js';
import { communityMessages, isOverMaxPayload, messageBytes, publishBatch } from './publish.js';

export const PublishedBatch = Type.Object(
  {
    published: Type.Integer({ minimum: 0, description: 'events in messages the event log stored' }),
    repeated: Type.Integer({ minimum: 0, description: "events in messages the event log dropped as repeats of one it holds (same ids, within its duplicate window)" }),
    streamSequences: Dictionary(Type.Integer({ minimum: 1 }), "per community, the stream sequence of its part of the batch"),
  },
  { additionalProperties: false, description: 'every part of the batch is durable in the event log' },
);

const documentation = documented('ingest', {
  operationId: 'ingestCluster',
  summary: 'Ingest a batch of events into the cluster: validated, then durable in the event log',
  description:
    "Answers once the event log (NATS JetStream) has acknowledged every community's part of the batch. Each community's part is atomic; a batch over several communities is not: after an error, send the same batch again (events with ids apply once). Duplicates by id are dropped by the worker that applies the events, not counted here.",
  tags: ['events'],
  body: refTo(EventBatch),
  response: { 200: PublishedBatch },
  errors: { 400: ['BATCH_REJECTED', 'REQUEST_INVALID', 'BODY_UNREADABLE'], 413: ['BODY_TOO_LARGE', 'BATCH_TOO_LARGE'], 415: ['BODY_UNREADABLE'], 503: ['LOG_UNAVAILABLE'] },
});

export interface GatewayIngest {
  readonly js: JetStreamClient;
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
        if (raw.length > ingest.maxBatchEvents) throw new BatchTooLargeError(raw.length, ingest.maxBatchEvents);
        events = validateBatch(raw, ingest.limits, { refuseModeration: true });
      } catch (error) {
        ingest.metrics.events.inc({ outcome: 'rejected' }, raw.length);
        throw withLines(error, raw);
      }
      for (const message of communityMessages(events, ingest.cluster.partitions)) {
        const bytes = messageBytes(message);
        if (bytes > ingest.maxPayload) {
          throw new HttpProblem(
            413,
            'BATCH_TOO_LARGE',
            `the events of community ${JSON.stringify(message.community)} make a message of ${bytes} bytes with its headers, over the NATS servers' max_payload (${ingest.maxPayload} bytes): send them in smaller batches`,
            ingest.maxPayload,
          );
        }
      }
      try {
        const outcome = await publishBatch(ingest.js, ingest.cluster, events);
        ingest.metrics.events.inc({ outcome: 'accepted' }, outcome.published);
        ingest.metrics.events.inc({ outcome: 'duplicate' }, outcome.repeated);
        return outcome;
      } catch (error) {
        // The server connected now takes less than the one the check above read (servers of one cluster differ).
        if (isOverMaxPayload(error)) {
          throw new HttpProblem(413, 'BATCH_TOO_LARGE', `a part of the batch is over the NATS servers' max_payload (${(error as Error).message}); parts of it may be stored: send it again in smaller batches`, ingest.maxPayload);
        }
        request.log.warn({ err: error }, 'publishing a batch failed');
        void reply.header('retry-after', '1');
        throw new HttpProblem(503, 'LOG_UNAVAILABLE', `the event log did not acknowledge every part of the batch (${(error as Error).message}); parts of it may be stored: send the same batch again`);
      }
    },
  );
}
