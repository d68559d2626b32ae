/**
 * Prometheus metrics (prom-client) of one service, in its own registry. Labels are bounded by
 * the configuration (scorer instances, outcomes, kinds), never by the data: convergence of the
 * iterative scorers is reported per scorer instance (the last computation, a count of those
 * that did not converge, and how many communities' latest computation did not), not per community.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ComputationStats } from '../scorers/scorer.js';

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
  readonly alertStreamsWaiting = new Gauge({
    name: 'standing_alert_streams_waiting',
    help: 'Alert streams (GET /v1/alerts/stream) whose catch-up waits for its client to take what was written',
    registers: [this.registry],
  });
  readonly alertStreamsBehind = new Counter({
    name: 'standing_alert_streams_behind_total',
    help: 'Alert streams closed because their client fell too far behind (it reconnects with Last-Event-ID)',
    registers: [this.registry],
  });

  readonly computations = new Counter({
    name: 'standing_scorer_computations_total',
    help: 'Ranking computations of an iterative scorer (trust, reports), by scorer instance and whether they converged',
    labelNames: ['scorer', 'converged'] as const,
    registers: [this.registry],
  });
  readonly iterations = new Gauge({
    name: 'standing_scorer_iterations',
    help: 'Iterations of the last ranking computation of an iterative scorer, by scorer instance (any community)',
    labelNames: ['scorer'] as const,
    registers: [this.registry],
  });
  readonly residual = new Gauge({
    name: 'standing_scorer_residual',
    help: 'Final residual of the last ranking computation of an iterative scorer, by scorer instance',
    labelNames: ['scorer'] as const,
    registers: [this.registry],
  });
  readonly converged = new Gauge({
    name: 'standing_scorer_converged',
    help: 'Whether the last ranking computation of an iterative scorer converged (1) or stopped at its iteration limit (0), by scorer instance',
    labelNames: ['scorer'] as const,
    registers: [this.registry],
  });
  readonly unconverged = new Gauge({
    name: 'standing_scorer_unconverged_communities',
    help: 'Communities whose latest ranking computation did not converge, by scorer instance',
    labelNames: ['scorer'] as const,
    registers: [this.registry],
  });
  /** Per scorer instance, the communities whose latest computation did not converge. */
  private readonly unconvergedIn = new Map<string, Set<string>>();

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'standing_' });
  }

  /** Records how one ranking computation of an iterative scorer ended. */
  observeComputation(scorer: string, community: string, stats: ComputationStats): void {
    this.computations.inc({ scorer, converged: String(stats.converged) });
    this.iterations.set({ scorer }, stats.iterations);
    this.residual.set({ scorer }, stats.residual);
    this.converged.set({ scorer }, stats.converged ? 1 : 0);
    const set = this.unconvergedIn.get(scorer) ?? this.unconvergedIn.set(scorer, new Set()).get(scorer)!;
    if (stats.converged) set.delete(community);
    else set.add(community);
    this.unconverged.set({ scorer }, set.size);
  }
}
