/**
 * The live engine's options from a configuration, as `standing serve` and each partition a
 * `standing worker` holds open their engine: the configured scorer instances, the built-in quality
 * domains, the moderation rules, the checkpoint cadence and the batch limits, and the warnings a
 * restore logs.
 */
import type { Logger } from 'pino';
import { BUILTIN_DOMAINS } from '../quality/index.js';
import type { QualityStageOptions } from '../quality/stage.js';
import { configuredInstances, configuredRules, type ServiceConfig } from '../service/config.js';
import type { LiveEngineOptions } from '../service/live-engine.js';
import type { EventStore } from '../store/types.js';

/** The quality stage every role runs: the built-in domains, with the configuration's options. */
export function qualityOf(config: Pick<ServiceConfig, 'quality'>): QualityStageOptions {
  return { domains: BUILTIN_DOMAINS, options: config.quality };
}

/**
 * A live engine's options over `store`: fresh scorer instances of the configuration. `logged`
 * goes into every warning the engine's restore logs (a worker's partition number).
 */
export function engineOptions(config: ServiceConfig, store: EventStore, logger: Logger, logged: Readonly<Record<string, unknown>> = {}): LiveEngineOptions {
  return {
    store,
    instances: configuredInstances(config),
    quality: qualityOf(config),
    checkpointEvery: config.checkpointEvery,
    checkpointSeconds: config.checkpointSeconds,
    maxBatchEvents: config.maxBatchEvents,
    maxClockSkewSeconds: config.maxClockSkewSeconds,
    maxEventDepth: config.maxEventDepth,
    rules: { compiled: configuredRules(config), tailShare: config.queue.tailShare },
    onRulesFailed: (error) => logger.error({ ...logged, err: error }, "storing the rules' events failed: tried again after the next batch"),
    onCheckpointError: (error) => logger.warn({ ...logged, community: error.community, state: error.state, reason: error.reason }, 'checkpoint unreadable, community replayed from its log'),
    onSkipped: (community, sequence, error) => logger.warn({ ...logged, community, sequence, reason: (error as Error).message }, 'stored event refused on replay, skipped'),
  };
}
