/** `standing/service`: the service (live engine over an event store, HTTP API, alerts), as `standing serve` runs it. */
export { startService, configuredInstances, serviceLogger, type RunningService } from './service.js';
export { resolveConfig, DEFAULT_CONFIG, instanceName, type ServiceConfig, type ThresholdConfig, type WebhookConfig } from './config.js';
export { loadConfig, type ConfigFlags } from './load-config.js';
export { LiveEngine, type LiveEngineOptions, type IngestOutcome } from './live-engine.js';
export type { AppliedChange } from '../store/types.js';
export { createKey, verifyKey, allows, SCOPES } from './keys.js';
export { scoreHistory, type HistoryPoint } from './history.js';
export { buildHttpServer } from '../http/server.js';
