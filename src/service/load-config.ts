/**
 * Where the service configuration comes from: defaults, then a JSON file (`--config`, or
 * STANDING_CONFIG), then environment variables, then flags, each later source overriding the
 * earlier; ./config.ts merges and checks them.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import { splitAssignment } from '../params/format.js';
import { DEFENCES, isDefences } from '../scorers/defences.js';
import { resolveConfig, type Layer, type ServiceConfig } from './config.js';

/** Flags (already parsed) that map onto the configuration. */
export interface ConfigFlags {
  readonly config?: string;
  readonly db?: string;
  readonly host?: string;
  readonly port?: string;
  readonly publicRead?: boolean;
  readonly logLevel?: string;
  /** `trust` observers: adds (or completes) a trust instance with them. */
  readonly observers?: string;
  /** Seconds, or `off`. */
  readonly maxClockSkew?: string;
  /** NATS servers (`standing gateway` and `standing worker`), each flag one or several, comma-separated. */
  readonly nats?: readonly string[];
  /** Queue weights as `key=value,…` (`tail=1,appeal=3`): merged over the `queue` section. */
  readonly queue?: string;
  /** `recommended` or `published`: the `defences` setting. */
  readonly defences?: string;
}

const ENV: readonly [string, keyof ServiceConfig | 'config' | 'observers'][] = [
  ['STANDING_CONFIG', 'config'],
  ['STANDING_DB', 'db'],
  ['STANDING_HOST', 'host'],
  ['STANDING_PORT', 'port'],
  ['STANDING_PUBLIC_READ', 'publicRead'],
  ['STANDING_LOG_LEVEL', 'logLevel'],
  ['STANDING_OBSERVERS', 'observers'],
  ['STANDING_MAX_CLOCK_SKEW_SECONDS', 'maxClockSkewSeconds'],
  ['STANDING_NATS', 'cluster'],
  ['STANDING_QUEUE', 'queue'],
  ['STANDING_DEFENCES', 'defences'],
];

function readFileLayer(path: string, source: string): Layer {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(source, '', `cannot read ${path}: ${(error as Error).message}`);
  }
  const invalid = (reason: string) => new ConfigError(path, '', `is not a valid configuration: ${reason}`);
  let values: unknown;
  try {
    values = JSON.parse(text);
  } catch (error) {
    throw invalid((error as Error).message);
  }
  if (typeof values !== 'object' || values === null || Array.isArray(values)) throw invalid('must be a JSON object');
  return { source: path, values: values as Record<string, unknown> };
}

function coerce(source: string, key: string, raw: string): unknown {
  if (key === 'port') {
    if (!/^\d+$/.test(raw)) throw new ConfigError(source, 'port', `must be a port number, got "${raw}"`);
    return Number(raw);
  }
  if (key === 'publicRead') {
    if (!/^(true|false|1|0)$/.test(raw)) throw new ConfigError(source, 'publicRead', `must be true or false, got "${raw}"`);
    return raw === 'true' || raw === '1';
  }
  if (key === 'maxClockSkewSeconds') {
    if (raw === 'off') return null;
    if (!/^\d+(\.\d+)?$/.test(raw)) throw new ConfigError(source, 'maxClockSkewSeconds', `must be a number of seconds or "off", got "${raw}"`);
    return Number(raw);
  }
  if (key === 'cluster') return { nats: natsServers(raw) };
  if (key === 'queue') return queueWeights(source, raw);
  if (key === 'defences' && !isDefences(raw)) throw new ConfigError(source, 'defences', `must be ${DEFENCES.map((d) => `"${d}"`).join(' or ')}, got "${raw}"`);
  return raw;
}

/** NATS server URLs from comma-separated text. */
function natsServers(raw: string): string[] {
  return raw
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
}

/** `tail=1, appeal=3` → {tail: 1, appeal: 3}; each value a number (the schema checks names and ranges). */
function queueWeights(source: string, raw: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of raw.split(',')) {
    if (part.trim() === '') continue;
    const assignment = splitAssignment(part);
    if (assignment === undefined) throw new ConfigError(source, 'queue', `"${part.trim()}" is not key=value`);
    const value = Number(assignment.value);
    if (assignment.value === '' || !Number.isFinite(value)) throw new ConfigError(source, `queue.${assignment.key}`, `must be a number, got "${assignment.value}"`);
    out[assignment.key] = value;
  }
  return out;
}

/**
 * The configuration one JSON file gives over the defaults, checked whole, with no environment or
 * flags (`standing backtest --rules FILE`): errors name `path`.
 */
export function configFromFile(path: string, source: string): ServiceConfig {
  return resolveConfig([readFileLayer(path, source)]);
}

/**
 * The configuration from defaults, `base` (the demo's settings), file, environment and flags,
 * checked whole.
 */
export function loadConfig(flags: ConfigFlags = {}, env: NodeJS.ProcessEnv = process.env, base?: Layer): ServiceConfig {
  const layers: Layer[] = base === undefined ? [] : [base];
  const file = flags.config ?? env.STANDING_CONFIG;
  if (file !== undefined) layers.push(readFileLayer(file, flags.config !== undefined ? '--config' : 'STANDING_CONFIG'));
  let observers: { source: string; value: string } | undefined;
  for (const [name, key] of ENV) {
    const raw = env[name];
    if (raw === undefined || key === 'config') continue;
    if (key === 'observers') observers = { source: name, value: raw };
    else layers.push({ source: name, values: { [key]: coerce(name, key, raw) } });
  }
  const flagValues: Record<string, unknown> = {};
  for (const key of ['db', 'host', 'logLevel'] as const) if (flags[key] !== undefined) flagValues[key] = flags[key];
  if (flags.port !== undefined) flagValues.port = coerce('--port', 'port', flags.port);
  if (flags.publicRead !== undefined) flagValues.publicRead = flags.publicRead;
  if (flags.maxClockSkew !== undefined) flagValues.maxClockSkewSeconds = coerce('--max-clock-skew', 'maxClockSkewSeconds', flags.maxClockSkew);
  if (flags.nats !== undefined) flagValues.cluster = { nats: flags.nats.flatMap(natsServers) };
  if (flags.queue !== undefined) flagValues.queue = coerce('--queue', 'queue', flags.queue);
  if (flags.defences !== undefined) flagValues.defences = coerce('--defences', 'defences', flags.defences);
  if (flags.observers !== undefined) observers = { source: '--observers', value: flags.observers };
  layers.push({ source: 'flags', values: flagValues });
  return resolveConfig(layers, observers);
}
