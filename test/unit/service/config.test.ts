/** The service configuration: defaults < file < environment < flags, checked whole with clear errors. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { RECOMMENDED_CHAT_DEFENCES, RECOMMENDED_RELIABILITY_DEFENCES, RECOMMENDED_REPORTS_DEFENCES, RECOMMENDED_TRUST_DEFENCES, reports } from '../../../src/index.js';
import { configuredInstances, DEFAULT_CONFIG, instanceName } from '../../../src/service/config.js';
import { loadConfig } from '../../../src/service/load-config.js';

function file(body: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'standing-config-')), 'standing.json');
  writeFileSync(path, JSON.stringify(body));
  return path;
}

function error(run: () => unknown): ConfigError {
  try {
    run();
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('no ConfigError');
}

describe('service configuration', () => {
  it('has safe defaults: SQLite file, 127.0.0.1, reads need a key, frozen', () => {
    const config = loadConfig({}, {});
    expect(config).toMatchObject({ db: './standing.sqlite', host: '127.0.0.1', port: 8080, publicRead: false });
    expect(Object.isFrozen(DEFAULT_CONFIG)).toBe(true);
    expect(config.scorers.map((entry) => instanceName(entry))).toEqual(['cqr', 'reliability', 'chat', 'reports']);
  });

  it('layers file, environment and flags, later ones winning; alerts merge key by key', () => {
    const path = file({ port: 9000, host: '0.0.0.0', db: 'file.sqlite', alerts: { retentionDays: 30 } });
    const config = loadConfig({ config: path, db: 'flag.sqlite' }, { STANDING_PORT: '9100', STANDING_PUBLIC_READ: 'true', STANDING_DB: 'env.sqlite' });
    expect(config).toMatchObject({ port: 9100, host: '0.0.0.0', db: 'flag.sqlite', publicRead: true });
    expect(config.alerts.retentionDays).toBe(30);
    expect(config.alerts.thresholds).toEqual(DEFAULT_CONFIG.alerts.thresholds);
    expect(loadConfig({}, { STANDING_CONFIG: path }).port).toBe(9000);
  });

  it('adds trust with --observers, or completes a configured trust entry', () => {
    expect(loadConfig({ observers: 'mod1,mod2' }, {}).scorers.map((entry) => instanceName(entry))).toEqual(['cqr', 'reliability', 'chat', 'reports', 'trust observers=mod1,mod2']);
    const path = file({ scorers: [{ scorer: 'trust', params: { ttlMax: 48 } }] });
    expect(loadConfig({ config: path }, { STANDING_OBSERVERS: 'm' }).scorers.map((entry) => instanceName(entry))).toEqual(['trust observers=m,ttlMax=48']);
  });

  it('issue 15: takes an inherited property of the scorer table for no scorer', () => {
    expect(error(() => loadConfig({ config: file({ scorers: [{ scorer: 'constructor' }] }) }, {})).message).toMatch(/scorers\[0\]\.scorer "constructor" is not a scorer/);
  });

  it('names the source, the path and the reason of every error', () => {
    expect(error(() => loadConfig({ port: 'x' }, {})).message).toBe('--port: port must be a port number, got "x"');
    expect(error(() => loadConfig({}, { STANDING_PUBLIC_READ: 'yes' })).message).toBe('STANDING_PUBLIC_READ: publicRead must be true or false, got "yes"');
    const path = file({ scorers: [{ scorer: 'cqr' }, { scorer: 'cqr' }] });
    expect(error(() => loadConfig({ config: path }, {})).message).toBe(`${path}: scorers[1].name "cqr" is used by two scorer entries; give one a "name"`);
    expect(error(() => loadConfig({ config: file({ scorers: [{ scorer: 'elo' }] }) }, {})).message).toMatch(/scorers\[0\]\.scorer "elo" is not a scorer/);
    expect(error(() => loadConfig({ config: file({ scorers: [{ scorer: 'trust' }] }) }, {})).path).toBe('scorers[0].params.observers');
    expect(error(() => loadConfig({ config: file({ alerts: { thresholds: [{ name: 'a', scorer: 'cqr', below: 1, zscore: 2 }] } }) }, {})).reason).toMatch(/exactly one of/);
    expect(error(() => loadConfig({ config: file({ quality: { chess: {} } }) }, {})).path).toBe('quality.chess');
    expect(error(() => loadConfig({ config: file({ quality: { forum: { words: 'x' } } }) }, {})).path).toBe('quality.forum.words');
    expect(error(() => loadConfig({ config: file({ alerts: { webhooks: [{ url: 'ftp://x' }] } }) }, {})).path).toBe('alerts.webhooks[0].url');
    expect(error(() => loadConfig({ config: '/nonexistent/standing.json' }, {})).message).toMatch(/^--config: \(configuration\) cannot read/);
    const broken = file({});
    writeFileSync(broken, '{ not json');
    expect(error(() => loadConfig({ config: broken }, {})).source).toBe(broken);
  });

  it('bounds connections, streams and the ranking cache by default (the rate limit is off); a header timeout may not outlast the request timeout', () => {
    expect(loadConfig({}, {})).toMatchObject({
      requestTimeoutMs: 60_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 5_000,
      connectionTimeoutMs: 120_000,
      maxConnections: 500,
      maxConnectionsPerAddress: 100,
      maxStreams: 100,
      maxStreamsPerKey: 20,
      rateLimitPerMinute: 0,
      rankingCacheSize: 1000,
    });
    const path = file({ requestTimeoutMs: 5000, headersTimeoutMs: 6000 });
    expect(error(() => loadConfig({ config: path }, {})).message).toBe(`${path}: headersTimeoutMs must be at most requestTimeoutMs (5000), got 6000`);
    expect(loadConfig({ config: file({ requestTimeoutMs: 0, headersTimeoutMs: 6000 }) }, {}).headersTimeoutMs).toBe(6000);
    expect(error(() => loadConfig({ config: file({ maxConnections: 0 }) }, {})).path).toBe('maxConnections');
  });

  it('has the queue weights of docs/moderation.md, frozen; a file, STANDING_QUEUE and --queue set some of them, key by key', () => {
    expect(loadConfig({}, {}).queue).toEqual({ tailShare: 0.1, tail: 1, breadth: 0.5, alert: 0.5, appeal: 2, proposal: 1, recency: 0.5, recencyHalfLifeDays: 7, maxExplained: 2000 });
    expect(Object.isFrozen(DEFAULT_CONFIG.queue)).toBe(true);
    const path = file({ queue: { appeal: 3, tail: 2 } });
    expect(loadConfig({ config: path }, {}).queue).toMatchObject({ appeal: 3, tail: 2, breadth: 0.5 });
    expect(loadConfig({ config: path }, { STANDING_QUEUE: 'appeal=4, recencyHalfLifeDays=2' }).queue).toMatchObject({ appeal: 4, tail: 2, recencyHalfLifeDays: 2 });
    expect(loadConfig({ config: path, queue: 'tail=0' }, { STANDING_QUEUE: 'appeal=4' }).queue).toMatchObject({ appeal: 4, tail: 0 });
  });

  it('refuses an unknown queue weight, a value out of range and a value that is not a number, naming the source', () => {
    expect(error(() => loadConfig({ config: file({ queue: { urgency: 1 } }) }, {})).message).toMatch(/queue\.urgency is not a configuration key/);
    expect(error(() => loadConfig({}, { STANDING_QUEUE: 'tailShare=0' })).message).toMatch(/^STANDING_QUEUE: queue\.tailShare expected number to be greater than 0, got 0$/);
    expect(error(() => loadConfig({ queue: 'tail=-1' }, {})).message).toMatch(/^flags: queue\.tail expected number to be greater or equal to 0, got -1$/);
    expect(error(() => loadConfig({ queue: 'tail=lots' }, {})).message).toBe('--queue: queue.tail must be a number, got "lots"');
    expect(error(() => loadConfig({ queue: 'tail' }, {})).message).toBe('--queue: queue "tail" is not key=value');
  });
});

describe('issue 28: the defences setting', () => {
  const params = (config: ReturnType<typeof loadConfig>, name: string) => configuredInstances(config).find((i) => i.name === name)!.params;

  it('is recommended by default: each entry over its scorer\'s recommended defences, explicit params winning, names unchanged', () => {
    const config = loadConfig({}, {});
    expect(config.defences).toBe('recommended');
    expect(params(config, 'reports')).toMatchObject(RECOMMENDED_REPORTS_DEFENCES);
    expect(params(config, 'chat')).toMatchObject(RECOMMENDED_CHAT_DEFENCES);
    expect(params(config, 'reliability')).toMatchObject(RECOMMENDED_RELIABILITY_DEFENCES);
    expect(configuredInstances(config).map((i) => i.defences)).toEqual(['recommended', 'recommended', 'recommended', 'recommended']);
    const own = loadConfig({ config: file({ scorers: [{ scorer: 'reports', params: { judgmentSplit: 2 } }, { scorer: 'trust', params: { observers: 'm', minFlow: 0 } }] }) }, {});
    expect(params(own, 'reports judgmentSplit=2')).toMatchObject({ ...RECOMMENDED_REPORTS_DEFENCES, judgmentSplit: 2 });
    expect(params(own, 'trust observers=m,minFlow=0')).toMatchObject({ minFlow: 0, flowDamping: RECOMMENDED_TRUST_DEFENCES.flowDamping });
  });

  it('published: every entry over its scorer\'s defaults, the paper\'s method; from a file, STANDING_DEFENCES or --defences', () => {
    const path = file({ defences: 'published', scorers: [{ scorer: 'reports' }, { scorer: 'reports', params: { sharedMatchDays: 30 } }] });
    const config = loadConfig({ config: path }, {});
    expect(config.scorers.map((entry) => instanceName(entry, config.defences))).toEqual(['reports', 'reports sharedMatchDays=30']);
    expect(params(config, 'reports')).toEqual(reports.params.defaults);
    expect(loadConfig({}, { STANDING_DEFENCES: 'published' }).defences).toBe('published');
    expect(loadConfig({ defences: 'recommended' }, { STANDING_DEFENCES: 'published' }).defences).toBe('recommended');
    // Under recommended, the second entry is the first: a name relative to that setting's defaults.
    expect(error(() => loadConfig({ config: path }, { STANDING_DEFENCES: 'recommended' })).message).toMatch(/scorers\[1\]\.name "reports" is used by two scorer entries/);
    const [, off] = [{ scorer: 'reports' }, { scorer: 'reports', params: { sharedMatchDays: 0, oneVoicePerMatch: false } }].map((entry) => instanceName(entry, 'recommended'));
    expect(off).toBe('reports sharedMatchDays=0,oneVoicePerMatch=false');
  });

  it('refuses a setting that is neither, and says when a refused parameter came from the recommended defences', () => {
    expect(error(() => loadConfig({ defences: 'safe' }, {})).message).toBe('--defences: defences must be "recommended" or "published", got "safe"');
    expect(error(() => loadConfig({}, { STANDING_DEFENCES: 'none' })).message).toBe('STANDING_DEFENCES: defences must be "recommended" or "published", got "none"');
    expect(error(() => loadConfig({ config: file({ defences: true }) }, {})).message).toMatch(/: defences must be "recommended" or "published", got true$/);
    const off = error(() => loadConfig({ config: file({ scorers: [{ scorer: 'reports', params: { sharedMatchDays: 0 } }] }) }, {}));
    expect(off.path).toBe('scorers[0].params.oneVoicePerMatch');
    expect(off.message).toMatch(/oneVoicePerMatch=true comes from the recommended defences: set oneVoicePerMatch in this entry's params too, or "defences": "published"\)$/);
    expect(loadConfig({ config: file({ scorers: [{ scorer: 'reports', params: { sharedMatchDays: 0, oneVoicePerMatch: false } }] }) }, {}).scorers).toHaveLength(1);
  });
});
