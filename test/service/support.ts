/** A real service on 127.0.0.1 (port chosen by the OS) over a real SQLite file, with keys of each scope. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { DEFAULT_CONFIG, resolveConfig, type ServiceConfig } from '../../src/service/config.js';
import { createKey } from '../../src/service/keys.js';
import { startService, type RunningService } from '../../src/app/serve.js';
import { serviceLogger } from '../../src/http/log-redaction.js';
import { checkAnswer, Contract, type OpenApiDocument } from '../support/contract.js';

export interface TestService {
  readonly service: RunningService;
  readonly url: string;
  readonly keys: { ingest: string; read: string; admin: string };
  /** The OpenAPI document the service serves, which every answer to `call` is checked against. */
  readonly contract: Contract;
  /** Everything the service logged, as text. */
  logs(): string;
  /** A request to the service; the answer is checked against the contract (ContractViolation if it breaks it). */
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
  // The document /docs/json serves, read without opening a connection (a test may count them).
  const contract = new Contract(JSON.parse((await service.app.inject({ url: '/docs/json' })).body) as OpenApiDocument);
  return {
    service,
    url: service.url,
    keys: made,
    contract,
    logs: () => chunks.join(''),
    async call(path, init = {}) {
      const { key, headers, ...rest } = init;
      const response = await fetch(`${service.url}${path}`, { ...rest, headers: { ...(key === undefined ? {} : { authorization: `Bearer ${key}` }), ...(headers as Record<string, string>) } });
      await checkAnswer(contract, rest.method ?? 'GET', path, response);
      return response;
    },
    close: () => service.close(),
  };
}

export const json = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

export { DEFAULT_CONFIG };
