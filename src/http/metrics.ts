/** Prometheus metrics (prom-client) of one service, in its own registry. */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly events = new Counter({
    name: 'standing_events_total',
    help: 'Events received over HTTP, by outcome (accepted, duplicate, rejected)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly batchSeconds = new Histogram({
    name: 'standing_batch_seconds',
    help: 'Time from receiving a batch to acknowledging it durable',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly scorerSeconds = new Histogram({
    name: 'standing_scorer_ranking_seconds',
    help: 'Time to compute one ranking view, by scorer instance',
    labelNames: ['scorer'] as const,
    buckets: [0.0001, 0.001, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [this.registry],
  });
  readonly alerts = new Counter({
    name: 'standing_alerts_total',
    help: 'Alerts stored, by kind (raised, cleared)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'standing_' });
  }
}
