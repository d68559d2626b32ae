/**
 * The service configuration: its schema and defaults, and resolveConfig, which merges layers of
 * values over the defaults and checks the result whole: structure (typebox) and meaning (scorer
 * parameters resolve, names are unique, every threshold names a configured scorer), each error
 * naming its source, path and reason. Reading the layers from a file, the environment and flags
 * is ./load-config.ts's job: nothing here touches the file system or the process.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ValueErrorType } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import { ConfigError, ParameterError } from '../errors.js';
import { DEFAULT_MAX_EVENT_DEPTH } from '../events/limits.js';
import { formatParams } from '../params/format.js';
import { BUILTIN_DOMAINS } from '../quality/index.js';
import { instantiate, type ScorerInstance } from '../engine/engine.js';
import { DEFAULT_DEFENCES, withDefences, type Defences } from '../scorers/defences.js';
import { scorerById, scorerIds } from '../scorers/index.js';
import { DEFAULT_CHECKPOINT_SECONDS } from './live-engine/checkpoints.js';
import { compileRules, RuleConfigError, type CompiledRules } from '../moderation/rules/compile.js';
import { DEFAULT_RULES, RulesSchema } from '../moderation/rules/schema.js';

const Threshold = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    /** A scorer instance name, or a scorer id for all of its instances. */
    scorer: Type.String({ minLength: 1 }),
    /** Absolute: score < below. */
    below: Type.Optional(Type.Number()),
    /** Absolute, for scorers where high is bad (reports' bad-player points): score > above. */
    above: Type.Optional(Type.Number()),
    /** Relative: below the p-th percentile of the community's scores. */
    percentile: Type.Optional(Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 100 })),
    /** Relative: z-score below −zscore. */
    zscore: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  },
  { additionalProperties: false },
);

const Webhook = Type.Object(
  {
    url: Type.String({ pattern: '^https?://' }),
    /** Signs each delivery: header x-standing-signature = sha256=HMAC-SHA256(secret, body). */
    secret: Type.Optional(Type.String({ minLength: 1 })),
    maxAttempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })),
  },
  { additionalProperties: false },
);

const ScorerEntry = Type.Object(
  {
    scorer: Type.String({ minLength: 1 }),
    params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    name: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

export const ConfigSchema = Type.Object(
  {
    db: Type.String({ minLength: 1 }),
    host: Type.String({ minLength: 1 }),
    port: Type.Integer({ minimum: 0, maximum: 65535 }),
    publicRead: Type.Boolean(),
    logLevel: Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l))),
    scorers: Type.Array(ScorerEntry, { minItems: 1 }),
    /**
     * `recommended`: each scorer entry's parameters over its scorer's recommended defences
     * (docs/abuse.md#the-settings-to-run); `published`: over the scorer's defaults, its paper's method.
     */
    defences: Type.Union([Type.Literal('recommended'), Type.Literal('published')]),
    quality: Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown())),
    alerts: Type.Object(
      {
        thresholds: Type.Array(Threshold),
        webhooks: Type.Array(Webhook),
        /** Alerts older than this many days are deleted (0 keeps them all). */
        retentionDays: Type.Number({ minimum: 0 }),
        /** Thresholds are checked at most this often per community (ms). */
        intervalMs: Type.Integer({ minimum: 0 }),
        /** First retry delay of a webhook delivery, doubled after each failure. */
        webhookRetryMs: Type.Integer({ minimum: 1 }),
      },
      { additionalProperties: false },
    ),
    /** The attention queue's formula (docs/moderation.md#the-queue). */
    queue: Type.Object(
      {
        /** The bad tail: the worst this share of a community's ranked players, per scorer. */
        tailShare: Type.Number({ exclusiveMinimum: 0, maximum: 1 }),
        tail: Type.Number({ minimum: 0 }),
        breadth: Type.Number({ minimum: 0 }),
        alert: Type.Number({ minimum: 0 }),
        appeal: Type.Number({ minimum: 0 }),
        /** Per rule with an open proposal on the player. */
        proposal: Type.Number({ minimum: 0 }),
        recency: Type.Number({ minimum: 0 }),
        recencyHalfLifeDays: Type.Number({ exclusiveMinimum: 0 }),
        /** Players whose dated evidence is read per computation, the most attention first. */
        maxExplained: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
    /** Second opinions (docs/moderation.md#four-eyes): who may not act alone. */
    fourEyes: Type.Object(
      {
        /** An appeal is decided by someone other than the moderator who imposed the sanction it is against. */
        appeals: Type.Boolean(),
        /** A case a rule proposed (a moderator event by `rule:<name>`) is dismissed only when two moderators have dismissed it. */
        ruleDismissals: Type.Boolean(),
      },
      { additionalProperties: false },
    ),
    /** Claims on cases (docs/moderation.md#claims): how long a claim lasts when the moderator does not say, and at most. */
    claims: Type.Object(
      {
        minutes: Type.Number({ exclusiveMinimum: 0, maximum: 24 * 60 }),
        maxMinutes: Type.Number({ exclusiveMinimum: 0, maximum: 24 * 60 }),
      },
      { additionalProperties: false },
    ),
    /** Player tokens (docs/service.md#player-tokens): how long one lives when the minting key does not say, and at most. */
    playerTokens: Type.Object(
      {
        seconds: Type.Integer({ minimum: 1, maximum: 86_400 }),
        maxSeconds: Type.Integer({ minimum: 1, maximum: 86_400 }),
      },
      { additionalProperties: false },
    ),
    /** Moderation rules (docs/moderation.md#rules): conditions over what the scorers know, and what to do. */
    rules: RulesSchema,
    /** A community is checkpointed after this many events… */
    checkpointEvery: Type.Integer({ minimum: 1 }),
    /** …and no sooner than this many seconds after its last checkpoint. */
    checkpointSeconds: Type.Number({ minimum: 0 }),
    maxBatchEvents: Type.Integer({ minimum: 1 }),
    /** Deepest nesting of objects and arrays in an event (the event itself is level 1). */
    maxEventDepth: Type.Integer({ minimum: 2, maximum: 256 }),
    bodyLimitBytes: Type.Integer({ minimum: 1024 }),
    rankingRefreshMs: Type.Integer({ minimum: 0 }),
    /**
     * An event dated more than this many seconds after the service's wall clock is refused;
     * null accepts any date (for loading historical logs with future-dated events on purpose).
     */
    maxClockSkewSeconds: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
    /** History replays running at once (one thread each); one more is answered 503. */
    maxHistoryJobs: Type.Integer({ minimum: 1, maximum: 64 }),
    /** Ranking views kept for reuse (least recently read evicted first); unknown communities are never kept. */
    rankingCacheSize: Type.Integer({ minimum: 1 }),
    /** A request must arrive whole (headers and body) within this many ms, else 408 (0: no limit). */
    requestTimeoutMs: Type.Integer({ minimum: 0 }),
    /** A request's headers must arrive within this many ms, else 408; at most requestTimeoutMs. */
    headersTimeoutMs: Type.Integer({ minimum: 1 }),
    /** An idle kept-alive connection is closed after this many ms. */
    keepAliveTimeoutMs: Type.Integer({ minimum: 1 }),
    /** A connection with no bytes either way for this many ms is closed (0: never). */
    connectionTimeoutMs: Type.Integer({ minimum: 0 }),
    /** Open connections answered normally; beyond, 503 and the connection is closed. */
    maxConnections: Type.Integer({ minimum: 1 }),
    /**
     * Open connections from one client address (an IPv6 address's /64) answered normally; as
     * many again get 503 and are closed; beyond, each is closed at once, unanswered.
     */
    maxConnectionsPerAddress: Type.Integer({ minimum: 1 }),
    /** Open alert streams (GET /v1/alerts/stream) in all (503 beyond)… */
    maxStreams: Type.Integer({ minimum: 1 }),
    /** …and per key, or per client address for reads without a key (429 beyond). */
    maxStreamsPerKey: Type.Integer({ minimum: 1 }),
    /** Requests per minute per key, or per client address for reads without a key (429 beyond; 0: no limit). */
    rateLimitPerMinute: Type.Integer({ minimum: 0 }),
    /** `standing gateway` and `standing worker` only (docs/deploy.md). */
    cluster: Type.Object(
      {
        /** NATS servers to connect to (any of them; the client follows the cluster). */
        nats: Type.Array(Type.String({ pattern: '^(nats|tls)://' }), { minItems: 1 }),
        /** The JetStream stream holding the events. */
        stream: Type.String({ pattern: '^[A-Za-z0-9_-]+$' }),
        /** Partitions of the stream, fixed when it is created (a stream of another count is refused). */
        partitions: Type.Integer({ minimum: 1, maximum: 1024 }),
        /** Copies JetStream keeps of the stream and the lease buckets (1 on one server, 3 in a cluster). */
        replicas: Type.Integer({ minimum: 1, maximum: 5 }),
        /** A worker's lease on a partition lapses this many seconds after its last renewal. */
        leaseSeconds: Type.Number({ minimum: 1, maximum: 600 }),
        /** How long JetStream remembers a message id to drop a repeated publish (s). */
        duplicateWindowSeconds: Type.Number({ minimum: 1 }),
        /** How long a gateway waits for the worker owning a partition to answer a read (ms). */
        readTimeoutMs: Type.Integer({ minimum: 100, maximum: 600_000 }),
        /** How long a gateway waits for the owning workers to report a published batch applied (ms). */
        applyTimeoutMs: Type.Integer({ minimum: 100, maximum: 600_000 }),
        /**
         * When the NATS servers write JetStream to disk, as the operator set them (a client cannot
         * read it): `always` (nats-server 2.10.0 or later with `sync_interval: always`) or `interval`.
         */
        serverSync: Type.Union([Type.Literal('always'), Type.Literal('interval')]),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export type ServiceConfig = Static<typeof ConfigSchema>;
export type ThresholdConfig = Static<typeof Threshold>;
export type WebhookConfig = Static<typeof Webhook>;
export type QueueConfig = ServiceConfig['queue'];
export type FourEyesConfig = ServiceConfig['fourEyes'];
export type ClaimsConfig = ServiceConfig['claims'];
export type PlayerTokensConfig = ServiceConfig['playerTokens'];

export const DEFAULT_CONFIG: ServiceConfig = Object.freeze({
  db: './standing.sqlite',
  host: '127.0.0.1',
  port: 8080,
  publicRead: false,
  logLevel: 'info',
  scorers: [{ scorer: 'cqr' }, { scorer: 'reliability' }, { scorer: 'chat' }, { scorer: 'reports' }],
  defences: DEFAULT_DEFENCES,
  quality: {},
  alerts: { thresholds: [{ name: 'cqr-below-50', scorer: 'cqr', below: -50 }], webhooks: [], retentionDays: 0, intervalMs: 1000, webhookRetryMs: 1000 },
  queue: Object.freeze({ tailShare: 0.1, tail: 1, breadth: 0.5, alert: 0.5, appeal: 2, proposal: 1, recency: 0.5, recencyHalfLifeDays: 7, maxExplained: 2000 }),
  fourEyes: Object.freeze({ appeals: false, ruleDismissals: false }),
  claims: Object.freeze({ minutes: 15, maxMinutes: 120 }),
  playerTokens: Object.freeze({ seconds: 900, maxSeconds: 3600 }),
  rules: DEFAULT_RULES,
  checkpointEvery: 50_000,
  checkpointSeconds: DEFAULT_CHECKPOINT_SECONDS,
  maxBatchEvents: 10_000,
  maxEventDepth: DEFAULT_MAX_EVENT_DEPTH,
  bodyLimitBytes: 4 * 1024 * 1024,
  rankingRefreshMs: 2000,
  maxClockSkewSeconds: 300,
  maxHistoryJobs: 2,
  rankingCacheSize: 1000,
  requestTimeoutMs: 60_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  connectionTimeoutMs: 120_000,
  maxConnections: 500,
  maxConnectionsPerAddress: 100,
  maxStreams: 100,
  maxStreamsPerKey: 20,
  rateLimitPerMinute: 0,
  cluster: { nats: ['nats://127.0.0.1:4222'], stream: 'standing-events', partitions: 32, replicas: 1, leaseSeconds: 10, duplicateWindowSeconds: 120, readTimeoutMs: 10_000, applyTimeoutMs: 30_000, serverSync: 'interval' },
}) as ServiceConfig;

/** One source of configuration values, named in errors (`--config`, STANDING_PORT, flags, …). */
export interface Layer {
  readonly source: string;
  readonly values: Record<string, unknown>;
}

/** The sections whose keys merge across layers (one level deep); any other key's value replaces the earlier one. */
const MERGED_SECTIONS: ReadonlySet<string> = new Set(['alerts', 'cluster', 'queue', 'rules', 'fourEyes', 'claims', 'playerTokens']);

/** Merges layers over the defaults (objects one level deep: the keys of `alerts`, `queue`, `rules` and the other MERGED_SECTIONS merge) and checks the result. */
export function resolveConfig(layers: readonly Layer[], observers?: { source: string; value: string }): ServiceConfig {
  let merged: Record<string, unknown> = structuredClone(DEFAULT_CONFIG) as unknown as Record<string, unknown>;
  const sourceOf = new Map<string, string>();
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer.values)) {
      sourceOf.set(key, layer.source);
      const base = merged[key];
      merged[key] = MERGED_SECTIONS.has(key) && isObject(base) && isObject(value) ? { ...base, ...value } : value;
      // The rules' breaker merges one level deeper: `{"rules": {"breaker": {"share": 0.1}}}` keeps the other defaults.
      if (key === 'rules' && isObject(base) && isObject(value) && isObject(base.breaker) && isObject(value.breaker)) (merged[key] as Record<string, unknown>).breaker = { ...base.breaker, ...value.breaker };
    }
  }
  if (observers !== undefined) {
    const scorers = (Array.isArray(merged.scorers) ? [...merged.scorers] : []) as Record<string, unknown>[];
    const index = scorers.findIndex((s) => isObject(s) && s.scorer === 'trust');
    if (index < 0) scorers.push({ scorer: 'trust', params: { observers: observers.value } });
    else scorers[index] = { ...scorers[index], params: { ...(scorers[index]!.params as object), observers: observers.value } };
    merged = { ...merged, scorers };
    sourceOf.set('scorers', observers.source);
  }
  const source = (path: string) => sourceOf.get(path.split(/[.[]/)[0]!) ?? 'defaults';
  const thresholdsGiven = layers.some((l) => isObject(l.values.alerts) && 'thresholds' in l.values.alerts);
  if (!thresholdsGiven && isObject(merged.alerts) && Array.isArray(merged.scorers)) {
    // The default threshold watches cqr: it goes away, unlike a configured one, when cqr does.
    const ids = new Set((merged.scorers as { scorer?: unknown }[]).map((s) => s.scorer));
    merged.alerts = { ...merged.alerts, thresholds: DEFAULT_CONFIG.alerts.thresholds.filter((t) => ids.has(t.scorer)) };
  }
  const error = Value.Errors(ConfigSchema, merged).First();
  if (error !== undefined) {
    const path = error.path.slice(1).replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.');
    const reason = error.type === ValueErrorType.ObjectAdditionalProperties ? 'is not a configuration key' : (literalsOf(error.schema) ?? error.message.toLowerCase());
    throw new ConfigError(source(path), path, `${reason}${error.value === undefined ? '' : `, got ${JSON.stringify(error.value)}`}`);
  }
  const config = merged as ServiceConfig;
  checkMeaning(config, source);
  return config;
}

/** For a union of literals (`defences`, `logLevel`): "must be "a", "b" or "c"". */
function literalsOf(schema: object): string | undefined {
  const values = (schema as { anyOf?: readonly { const?: unknown }[] }).anyOf?.map((member) => member.const);
  if (values === undefined || values.length === 0 || values.some((v) => typeof v !== 'string')) return undefined;
  const quoted = values.map((v) => JSON.stringify(v));
  return `must be ${quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What a scorer entry's instance is resolved from under `defences`: its parameters over the
 * setting's preset (../scorers/defences.ts).
 */
export function entryParams(entry: ServiceConfig['scorers'][number], defences: Defences): Record<string, unknown> {
  return withDefences(entry.scorer, defences, entry.params);
}

/**
 * The name a scorer entry's instance gets under `defences`: its `name`, else the scorer id
 * followed by the parameters that differ from the setting's defaults, so the setting alone never
 * changes a name (`cqr`, `cqr T=Infinity,k=Infinity`, `trust observers=a,b`, and `reports` under
 * either setting).
 */
export function instanceName(entry: ServiceConfig['scorers'][number], defences: Defences = DEFAULT_DEFENCES): string {
  if (entry.name !== undefined) return entry.name;
  const scorer = scorerById(entry.scorer)!;
  const params = scorer.params.resolve(entryParams(entry, defences)) as Record<string, unknown>;
  const defaults = scorer.params.resolve(entryParams({ scorer: entry.scorer }, defences)) as Record<string, unknown>;
  const changed = Object.fromEntries(Object.entries(params).filter(([key, value]) => formatParams({ v: value }) !== formatParams({ v: defaults[key] })));
  return Object.keys(changed).length === 0 ? scorer.id : `${scorer.id} ${formatParams(changed)}`;
}

function checkMeaning(config: ServiceConfig, source: (path: string) => string): void {
  if (config.requestTimeoutMs > 0 && config.headersTimeoutMs > config.requestTimeoutMs) {
    throw new ConfigError(source('headersTimeoutMs'), 'headersTimeoutMs', `must be at most requestTimeoutMs (${config.requestTimeoutMs}), got ${config.headersTimeoutMs}`);
  }
  if (config.claims.minutes > config.claims.maxMinutes) {
    throw new ConfigError(source('claims'), 'claims.minutes', `must be at most claims.maxMinutes (${config.claims.maxMinutes}), got ${config.claims.minutes}`);
  }
  if (config.playerTokens.seconds > config.playerTokens.maxSeconds) {
    throw new ConfigError(source('playerTokens'), 'playerTokens.seconds', `must be at most playerTokens.maxSeconds (${config.playerTokens.maxSeconds}), got ${config.playerTokens.seconds}`);
  }
  const names = new Set<string>();
  config.scorers.forEach((entry, i) => {
    const path = `scorers[${i}]`;
    const scorer = scorerById(entry.scorer);
    if (scorer === undefined) throw new ConfigError(source(path), `${path}.scorer`, `"${entry.scorer}" is not a scorer (known: ${scorerIds().join(', ')})`);
    let params: Record<string, unknown>;
    try {
      params = scorer.params.resolve(entryParams(entry, config.defences)) as Record<string, unknown>;
    } catch (error) {
      if (error instanceof ParameterError) throw new ConfigError(source(path), `${path}.params.${error.key}`, `${error.reason}${presetNote(entry, config.defences, error.key)}`);
      throw error;
    }
    if (scorer.id === 'trust' && (params.observers as readonly string[]).length === 0) {
      throw new ConfigError(source(path), `${path}.params.observers`, 'is required for trust: the players whose view the ranking shows (or pass --observers)');
    }
    const name = instanceName(entry, config.defences);
    if (names.has(name)) throw new ConfigError(source(path), `${path}.name`, `"${name}" is used by two scorer entries; give one a "name"`);
    names.add(name);
  });
  const ids = new Set(config.scorers.map((s) => s.scorer));
  config.alerts.thresholds.forEach((t, i) => {
    const path = `alerts.thresholds[${i}]`;
    const kinds = [t.below, t.above, t.percentile, t.zscore].filter((v) => v !== undefined).length;
    if (kinds !== 1) throw new ConfigError(source(path), path, 'needs exactly one of "below", "above", "percentile" and "zscore"');
    if (!names.has(t.scorer) && !ids.has(t.scorer)) {
      throw new ConfigError(source(path), `${path}.scorer`, `"${t.scorer}" is neither a configured scorer nor a scorer instance (configured: ${[...names].join(', ')})`);
    }
  });
  try {
    compileRules(config.rules, [...names]);
  } catch (error) {
    if (error instanceof RuleConfigError) throw new ConfigError(source('rules'), `rules.list[${error.index}]${error.field === '' ? '' : `.${error.field}`}`, error.reason);
    throw error;
  }
  for (const [name, options] of Object.entries(config.quality)) {
    const domain = BUILTIN_DOMAINS.find((d) => d.name === name);
    if (domain === undefined) throw new ConfigError(source('quality'), `quality.${name}`, `is not a quality domain (known: ${BUILTIN_DOMAINS.map((d) => d.name).join(', ')})`);
    try {
      domain.options.resolve(options);
    } catch (error) {
      if (error instanceof ParameterError) throw new ConfigError(source('quality'), `quality.${name}.${error.key}`, error.reason);
      throw error;
    }
  }
}

/**
 * For a parameter refused under the recommended defences that the entry does not set itself: the
 * preset set it, and how to change that.
 */
function presetNote(entry: ServiceConfig['scorers'][number], defences: Defences, key: string): string {
  if (defences !== 'recommended' || (entry.params !== undefined && Object.hasOwn(entry.params, key))) return '';
  const preset = entryParams({ scorer: entry.scorer }, defences);
  if (!Object.hasOwn(preset, key)) return '';
  return ` (${formatParams({ [key]: preset[key] })} comes from the recommended defences: set ${key} in this entry's params too, or "defences": "published")`;
}

/** The scorer instances a configuration asks for, fresh, each made under its `defences` setting. */
export function configuredInstances(config: ServiceConfig): ScorerInstance[] {
  return config.scorers.map((entry) => ({
    ...instantiate(scorerById(entry.scorer)!, entryParams(entry, config.defences), instanceName(entry, config.defences)),
    defences: config.defences,
  }));
}

/** The configuration's rules, compiled for its scorer instances (resolveConfig checked they compile). */
export function configuredRules(config: ServiceConfig): CompiledRules {
  return compileRules(config.rules, config.scorers.map((entry) => instanceName(entry, config.defences)));
}
