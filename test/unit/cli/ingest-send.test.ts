/**
 * The retries of `standing ingest` (src/cli/ingest/send.ts) against a real HTTP server on
 * 127.0.0.1: which failures are tried again, and how long it waits (recorded, not slept).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { StandingApiError, StandingClient } from '../../../src/client/index.js';
import { LONGEST_WAIT_SECONDS, sendBatch, withRetries } from '../../../src/cli/ingest/send.js';

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A server answering its requests in turn with `answers` (status, headers, body), the last one from then on. */
async function answering(answers: readonly [number, Record<string, string>, object][]): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const server = createServer((request, response) => {
    request.resume();
    const [status, headers, body] = answers[Math.min(requests++, answers.length - 1)]!;
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}

/** Retry options that record each wait instead of sleeping it. */
function recording(retries = 5) {
  const waits: number[] = [];
  const told: string[] = [];
  return {
    waits,
    told,
    options: {
      retries,
      sleep: async (seconds: number) => void waits.push(seconds),
      onRetry: (reason: string, wait: number, attempt: number) => void told.push(`${reason}; ${wait} s; try ${attempt}`),
    },
  };
}

const busy = { error: 'TOO_MANY_CONNECTIONS', message: 'busy', limit: 1 };
const ok = { accepted: 1, duplicates: 0, appended: [] };

describe('standing ingest retries', () => {
  it('waits at most 30 s, however long Retry-After asks (86400 s here)', async () => {
    const service = await answering([
      [503, { 'retry-after': '86400' }, busy],
      [200, {}, ok],
    ]);
    const { waits, told, options } = recording();
    const outcome = await sendBatch(new StandingClient({ url: service.url, attempts: 1 }), '[]', options);
    expect(outcome.accepted).toBe(1);
    expect(LONGEST_WAIT_SECONDS).toBe(30);
    expect(waits).toEqual([30]);
    expect(told).toEqual(['the service answered 503 TOO_MANY_CONNECTIONS; 30 s; try 2']);
  });

  it('tries again on 429, 502, 503 and 504, doubling the wait from 0.5 s without Retry-After', async () => {
    const service = await answering([
      [429, {}, { error: 'RATE_LIMITED', message: 'slow down' }],
      [502, {}, { error: 'BAD_GATEWAY', message: 'proxy' }],
      [503, {}, busy],
      [504, {}, { error: 'GATEWAY_TIMEOUT', message: 'proxy' }],
      [200, {}, { maxBatchEvents: 10 }],
    ]);
    const { waits, options } = recording();
    expect(await withRetries(() => new StandingClient({ url: service.url, attempts: 1 }).limits(), options)).toEqual({ maxBatchEvents: 10 });
    expect(waits).toEqual([0.5, 1, 2, 4]);
  });

  it('tries again when the connection fails, and gives up once the retries are spent', async () => {
    const service = await answering([[200, {}, ok]]);
    const closed = servers.pop()!;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { waits, told, options } = recording(2);
    const failure = await sendBatch(new StandingClient({ url: service.url, attempts: 1 }), '[]', options).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(waits).toEqual([0.5, 1]);
    expect(told[0]).toMatch(/^the request failed \(.*ECONNREFUSED.*\); 0\.5 s; try 2$/);
  });

  it('ends at once on another answer, an abort or an error of the program', async () => {
    const service = await answering([[400, {}, { error: 'BATCH_REJECTED', message: 'no' }]]);
    const { waits, options } = recording();
    const refused = await sendBatch(new StandingClient({ url: service.url, attempts: 1 }), '[]', options).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StandingApiError);
    expect(service.requests()).toBe(1);

    const aborted = new AbortController();
    aborted.abort();
    const client = new StandingClient({ url: service.url, attempts: 1 });
    const abort = await withRetries(() => client.limits({ signal: aborted.signal }), options).catch((error: unknown) => error);
    expect((abort as Error).name).toBe('AbortError');

    let calls = 0;
    const bug = await withRetries(async () => {
      calls++;
      return (undefined as unknown as { x: { y: number } }).x.y;
    }, options).catch((error: unknown) => error);
    expect(bug).toBeInstanceOf(TypeError);
    expect(calls).toBe(1);
    expect(waits).toEqual([]);
  });
});
