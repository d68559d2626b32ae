/**
 * `standing ingest` against a real service over real HTTP: a log sent in batches within the
 * service's limits ends as the same log posted whole; a batch whose answer is lost, or that the
 * service asks to wait with, is sent again and applied once; a refused line is named; stdin works.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startTestService, type TestService } from '../service/support.js';

const SCORERS = [{ scorer: 'cqr' }, { scorer: 'reliability' }, { scorer: 'chat' }, { scorer: 'trust', params: { observers: 'mod' } }, { scorer: 'reports' }];
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute)).toISOString();

/** A log of every kind of event, most without ids, two of them equal, with a blank line and CRLF line ends. */
function log(): string {
  // The example matches (community fibs) moved into the default community, with the rest.
  const events: object[] = readFileSync('examples/matches.ndjson', 'utf8').trim().split('\n').map((line) => ({ ...(JSON.parse(line) as object), community: 'default' }));
  for (let i = 0; i < 24; i++) events.push({ type: 'action', time: at(i), player: `p${i % 5}`, delta: ((i * 37) % 41) - 20 });
  events.push({ type: 'action', time: at(30), player: 'p1', delta: 7 }, { type: 'action', time: at(30), player: 'p1', delta: 7 });
  events.push({ type: 'rating', time: at(31), from: 'mod', to: 'p2', value: 1 }, { type: 'rating', time: at(31), from: 'p2', to: 'p3', value: -1, id: 'r-1' });
  events.push({ type: 'report', time: at(32), from: 'p2', to: 'p3' }, { type: 'played', time: at(32), player: 'p3', games: 2 });
  events.push({ type: 'chat', time: at(33), from: 'p1', to: ['p2', 'p3'] });
  const lines = events.map((e) => JSON.stringify(e));
  lines.splice(10, 0, '');
  return `${lines.join('\r\n')}\r\n`;
}

const dir = mkdtempSync(join(tmpdir(), 'standing-ingest-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const LOG = log();
const EVENTS = LOG.split('\r\n').filter((line) => line !== '').length;

const config = { scorers: SCORERS, maxClockSkewSeconds: null, maxBatchEvents: 7, bodyLimitBytes: 1024 };
let t: TestService;
beforeAll(async () => {
  t = await startTestService(config);
});
afterAll(() => t.close());

/** Every ranking the service holds, by scorer instance. */
async function rankings(service: TestService): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const { name } of SCORERS.map((s) => ({ name: s.scorer === 'trust' ? 'trust observers=mod' : s.scorer }))) {
    out[name] = ((await (await service.call(`/v1/rankings/${encodeURIComponent(name)}?limit=1000`, { key: service.keys.read })).json()) as { rows: unknown }).rows;
  }
  return out;
}

describe('standing ingest', () => {
  it('sends a log in batches within the service limits, and the service ends as with the log posted whole', async () => {
    const path = file('log.ndjson', LOG);
    const run = await runCli(['ingest', path, '--url', t.url, '--key', t.keys.ingest]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // 7 events a batch at most (maxBatchEvents), fewer when 1 KiB (bodyLimitBytes) is reached first.
    const batches = Number(/in (\d+) batches/.exec(run.stdout)![1]);
    expect(batches).toBeGreaterThanOrEqual(Math.ceil(EVENTS / 7));
    expect(run.stdout).toBe(`${path}: ${EVENTS} events sent to ${t.url} in ${batches} batches: ${EVENTS} accepted, 0 duplicates (already held)\n`);
    expect((await t.service.store.read('default')).length).toBe(EVENTS);

    const whole = await startTestService({ ...config, maxBatchEvents: 1000, bodyLimitBytes: 1 << 20 });
    try {
      const posted = await whole.call('/v1/events', { method: 'POST', body: LOG, headers: { 'content-type': 'application/x-ndjson' }, key: whole.keys.ingest });
      expect(await posted.json()).toMatchObject({ accepted: EVENTS, duplicates: 0 });
      expect(await rankings(t)).toEqual(await rankings(whole));
    } finally {
      await whole.close();
    }

    // The same log again: every event is held already, by its own id or the one its line gave it.
    const again = await runCli(['ingest', path, '--url', t.url, '--key', t.keys.ingest, '--batch', '3']);
    expect(again.stdout).toContain(`${EVENTS} events sent to ${t.url} in ${Math.ceil(EVENTS / 3)} batches: 0 accepted, ${EVENTS} duplicates`);
  });

  it('reads standard input, with the key from STANDING_KEY', async () => {
    const s = await startTestService(config);
    try {
      const run = await runCli(['ingest', '-', '--url', `${s.url}/`], LOG, { STANDING_KEY: s.keys.ingest });
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^stdin: ${EVENTS} events sent to ${s.url} in \\d+ batches: ${EVENTS} accepted, 0 duplicates`));
      expect((await s.service.store.read('default')).length).toBe(EVENTS);
    } finally {
      await s.close();
    }
  });

  it('reads the limits again, and sends again a batch whose answer was lost or that the service asked to wait with, applying it once', async () => {
    const s = await startTestService(config);
    // Between the command and the service: the first GET /v1/limits is answered 503 with
    // Retry-After: 0; the first batch is applied but its answer lost (the connection closed), the
    // second try of it is answered 503 with Retry-After: 0; the rest pass.
    let posts = 0;
    let gets = 0;
    const proxy = await listen(async (request, response) => {
      const body = await text(request);
      const isPost = request.method === 'POST';
      if (isPost) posts++;
      else gets++;
      if ((isPost && posts === 2) || (!isPost && gets === 1)) {
        response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' }).end(JSON.stringify({ error: 'TOO_MANY_CONNECTIONS', message: 'busy', limit: 1 }));
        return;
      }
      const answer = await fetch(`${s.url}${request.url}`, { method: request.method, headers: forwarded(request), ...(isPost ? { body } : {}) });
      const answerText = await answer.text();
      if (isPost && posts === 1) {
        request.socket.destroy();
        return;
      }
      response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(answerText);
    });
    try {
      const path = file('retried.ndjson', LOG);
      const run = await runCli(['ingest', path, '--url', proxyUrl(proxy), '--key', s.keys.ingest, '--batch', '5']);
      expect(run.code).toBe(0);
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(3);
      expect(lines.shift()).toBe('standing: GET /v1/limits: the service answered 503 TOO_MANY_CONNECTIONS; trying again in 0 s (try 2 of 6)');
      expect(lines[0]).toMatch(/^standing: lines 1–5: the request failed \(.*\); trying again in 0\.5 s \(try 2 of 6\)$/);
      expect(lines[1]).toBe('standing: lines 1–5: the service answered 503 TOO_MANY_CONNECTIONS; trying again in 0 s (try 3 of 6)');
      expect(run.stdout).toContain(`${EVENTS} events sent to ${proxyUrl(proxy)} in ${Math.ceil(EVENTS / 5)} batches: ${EVENTS - 5} accepted, 5 duplicates`);
      expect((await s.service.store.read('default')).length).toBe(EVENTS);
    } finally {
      proxy.close();
      await s.close();
    }
  });

  it('names the line of an event the service refuses, and of a line that is not JSON; what came before is stored', async () => {
    const s = await startTestService(config);
    try {
      const good = (i: number) => JSON.stringify({ type: 'action', time: at(i), player: 'ann', delta: 1 });
      const bad = file('bad.ndjson', [good(0), good(1), good(2), good(3), JSON.stringify({ type: 'action', time: at(4), player: 'ann', delta: 'x' }), good(5)].join('\n'));
      const refused = await runCli(['ingest', bad, '--url', s.url, '--key', s.keys.ingest, '--batch', '3']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(`standing: ${bad} line 5: field "delta" must be a number (the service refused lines 4–6: nothing of them is stored, every line before them is)\n`);
      expect((await s.service.store.read('default')).length).toBe(3);

      const garbled = file('garbled.ndjson', `${good(6)}\n{oops\n`);
      const syntax = await runCli(['ingest', garbled, '--url', s.url, '--key', s.keys.ingest]);
      expect(syntax.code).toBe(1);
      expect(syntax.stderr).toMatch(new RegExp(`^standing: ${garbled} line 2: is not valid JSON \\(`));

      const huge = file('huge.ndjson', JSON.stringify({ type: 'action', time: at(7), player: 'ann', delta: 1, note: 'x'.repeat(2000) }));
      const tooLarge = await runCli(['ingest', huge, '--url', s.url, '--key', s.keys.ingest]);
      expect(tooLarge.stderr).toMatch(new RegExp(`^standing: ${huge} line 1: field \\(event\\) is \\d+ bytes, over the 1024 bytes a request to the service may hold \\(bodyLimitBytes\\)`));
    } finally {
      await s.close();
    }
  });

  it('refuses a command line it cannot run with exit status 2, and a key the service refuses with 1', async () => {
    const path = file('usage.ndjson', LOG);
    const noKey = await runCli(['ingest', path, '--url', t.url], undefined, { STANDING_KEY: undefined });
    expect([noKey.code, noKey.stderr]).toEqual([2, 'standing: ingest needs a key with the ingest scope: --key or STANDING_KEY\n']);
    const noUrl = await runCli(['ingest', path, '--key', 'k']);
    expect([noUrl.code, noUrl.stderr]).toEqual([2, expect.stringContaining("standing: required option '--url <url>' not specified")]);
    const badUrl = await runCli(['ingest', path, '--url', 'ftp://x', '--key', 'k']);
    expect([badUrl.code, badUrl.stderr]).toEqual([2, 'standing: --url expects an http or https URL, got "ftp://x"\n']);
    const badBatch = await runCli(['ingest', path, '--url', t.url, '--key', 'k', '--batch', '0']);
    expect([badBatch.code, badBatch.stderr]).toEqual([2, 'standing: --batch expects a positive integer, got "0"\n']);
    const readKey = await runCli(['ingest', path, '--url', t.url, '--key', t.keys.read]);
    expect(readKey.code).toBe(1);
    expect(readKey.stderr).toMatch(/^standing: .* answered 403 FORBIDDEN: key \w+ lacks scope "ingest" .*\(reading the limits of a batch, GET \/v1\/limits\)\n$/);
  });
});

function listen(handler: (request: IncomingMessage, response: ServerResponse) => Promise<void>): Promise<Server> {
  const server = createServer((request, response) => void handler(request, response));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const proxyUrl = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

function text(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => resolve(body));
  });
}

function forwarded(request: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['authorization', 'content-type', 'accept']) if (typeof request.headers[name] === 'string') out[name] = request.headers[name];
  return out;
}
