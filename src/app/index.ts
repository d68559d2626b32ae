/** `standing/service`: the service (live engine over an event store, HTTP API, alerts), as `standing serve` runs it. */
export { startService, type RunningService } from './serve.js';
export { serviceLogger } from '../http/log-redaction.js';
export { resolveConfig, DEFAULT_CONFIG, instanceName, configuredInstances, type ServiceConfig, type ThresholdConfig, type WebhookConfig } from '../service/config.js';
export { loadConfig, type ConfigFlags } from '../service/load-config.js';
export { LiveEngine, type LiveEngineOptions, type IngestOutcome } from '../service/live-engine.js';
export type { AppliedChange } from '../store/types.js';
export { createKey, verifyKey, allows, SCOPES } from '../service/keys.js';
export { scoreHistory, type HistoryPoint } from '../service/history.js';
export { buildHttpServer } from '../http/server.js';
