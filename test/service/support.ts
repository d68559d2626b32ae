/** A real service on 127.0.0.1 (port chosen by the OS) over a real SQLite file, with keys of each scope. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { DEFAULT_CONFIG, resolveConfig, type ServiceConfig } from '../../src/service/config.js';
import { createKey } from '../../src/service/keys.js';
import { serviceLogger, startService, type RunningService } from '../../src/service/service.js';

export interface TestService {
  readonly service: RunningService;
  readonly url: string;
  readonly keys: { ingest: string; read: string; admin: string };
  /** Everything the service logged, as text. */
  logs(): string;
  call(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  close(): Promise<void>;
}

export function tempDb(): string {
  return join(mkdtempSync(join(tmpdir(), 'standing-http-')), 'events.sqlite');
}

export async function startTestService(values: Partial<ServiceConfig> = {}, keys?: TestService['keys']): Promise<TestService> {
  const config = resolveConfig([{ source: 'test', values: { db: tempDb(), port: 0, logLevel: 'debug', rankingRefreshMs: 0, checkpointSeconds: 0, ...values } }]);
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const service = await startService(config, serviceLogger(config.logLevel, sink));
  const made = keys ?? {
    ingest: (await createKey(service.store, ['ingest'])).key,
    read: (await createKey(service.store, ['read'])).key,
    admin: (await createKey(service.store, ['admin'])).key,
  };
  return {
    service,
    url: service.url,
    keys: made,
    logs: () => chunks.join(''),
    call(path, init = {}) {
      const { key, headers, ...rest } = init;
      return fetch(`${service.url}${path}`, { ...rest, headers: { ...(key === undefined ? {} : { authorization: `Bearer ${key}` }), ...(headers as Record<string, string>) } });
    },
    close: () => service.close(),
  };
}

export const json = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

export { DEFAULT_CONFIG };
