/**
 * A gateway's GET /v1/refusals (admin): every message of the event log a worker refused whole
 * (../store/refusals.ts), oldest first, paged by id; and the gauge of refused events by problem
 * code on its /metrics, read from the same list when scraped. A refusal's client was answered
 * with its problems when it waited for them; this list is where an operator finds every one,
 * including those whose client had given up (504 APPLY_PENDING).
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { Gauge } from 'prom-client';
import { documented } from '../http/documented.js';
import type { ServiceMetrics } from '../http/metrics.js';
import { refTo } from '../http/schemas/common.js';
import { BatchProblem } from '../http/schemas/errors.js';
import type { PartitionWrites } from '../store/partitions.js';

const RefusalsQuery = Type.Object(
  {
    after: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'only refusals with a larger id' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'the most refusals answered' })),
  },
  { additionalProperties: false },
);

const Refusal = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    stream: Type.String(),
    partition: Type.Integer({ minimum: 0 }),
    streamSequence: Type.Integer({ minimum: 1, description: 'the refused message in the event log' }),
    refusedAt: Type.String({ description: 'when the worker refused it (ISO 8601)' }),
    communities: Type.Array(Type.String(), { description: 'the communities its events name' }),
    events: Type.Integer({ minimum: 0, description: 'how many events it held' }),
    problems: Type.Array(refTo(BatchProblem), { description: "why, each index counted in the message's events" }),
  },
  { additionalProperties: false },
);

const RefusalPage = Type.Object(
  {
    refusals: Type.Array(Refusal),
    next: Type.Optional(Type.Integer({ minimum: 1, description: 'pass as `after` for the next page; absent on the last' })),
  },
  { additionalProperties: false },
);

export function gatewayRefusalsRoute(app: FastifyInstance, store: PartitionWrites, metrics: ServiceMetrics): void {
  new Gauge({
    name: 'standing_cluster_refused_events',
    help: 'Events in messages of the event log a worker refused whole, by the code of the first problem (EVENT_SYNTAX, EVENT_INVALID, EVENT_CONFLICT); the list is GET /v1/refusals',
    labelNames: ['code'] as const,
    registers: [metrics.registry],
    async collect() {
      this.reset();
      for (const [code, events] of await store.refusedByCode()) this.set({ code }, events);
    },
  });
  app.get<{ Querystring: Static<typeof RefusalsQuery> }>(
    '/v1/refusals',
    documented('admin', {
      operationId: 'refusals',
      summary: 'Messages of the event log a worker refused whole (cluster gateways only)',
      description:
        "Each part of a batch an owning worker refused after the event log stored it, with its problems: its client was answered 400 or 409 when it waited, but not when it gave up first (504 APPLY_PENDING). Oldest first. The events themselves are not kept; an erasure forgets every refusal whose events named the player.",
      tags: ['events'],
      querystring: RefusalsQuery,
      response: { 200: RefusalPage },
      errors: { 400: ['REQUEST_INVALID'] },
    }, 'every'),
    async (request) => {
      const limit = request.query.limit ?? 100;
      const refusals = await store.refusals(request.query.after ?? 0, limit + 1);
      const page = refusals.slice(0, limit);
      return refusals.length > limit ? { refusals: page, next: page[page.length - 1]!.id } : { refusals: page };
    },
  );
}
