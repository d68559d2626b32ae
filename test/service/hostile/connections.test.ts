/**
 * Connections and caches are bounded (issue 14, point 6): slow clients are cut off by the
 * header and request timeouts, connections and alert streams over their caps get the documented
 * answer while existing clients go on, reads of made-up communities keep no ranking, and a key
 * sent in a query string never reaches the log.
 */
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../../src/service/keys.js';
import { getOn, openFrom } from '../../support/raw-http.js';
import { json, startTestService, type TestService } from '../support.js';

const action = (player: string, delta: number, community = 'default') => ({ type: 'action', time: '2026-11-21T10:00:00Z', player, delta, community });

/** Everything the server sends on `socket` until it closes the connection. */
function untilClosed(socket: Socket): Promise<string> {
  let text = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return new Promise((resolve) => socket.once('close', () => resolve(text)));
}

/** Writes one byte of `text` every `ms` until the socket closes; returns how much was written. */
async function trickle(socket: Socket, text: string, ms: number): Promise<number> {
  let sent = 0;
  while (!socket.destroyed && !socket.writableEnded && sent < text.length) {
    socket.write(text[sent++]!);
    await new Promise((resolve) => setTimeout(resolve, ms));
  }
  return sent;
}

describe('issue 14: slow clients are cut off', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
  });
  afterAll(() => t.close());

  it('a header trickle (slowloris) is answered 408 and closed by the header timeout, while others are served', async () => {
    const socket = await openFrom(t.url);
    const answer = untilClosed(socket);
    // Far more header bytes than the timeout lets through, one every 40 ms.
    const header = `GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: ${'a'.repeat(2000)}\r\n\r\n`;
    const sent = trickle(socket, header, 40);
    expect((await t.call('/healthz')).status).toBe(200);
    const text = await answer;
    expect(socket.destroyed).toBe(true);
    expect(await sent).toBeLessThan(header.length);
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'REQUEST_TIMEOUT', message: expect.stringContaining('headersTimeoutMs (300 ms)') as string });
    expect((await t.call('/healthz')).status).toBe(200);
  });

  it('headers over 16 KiB get 431 and the connection is closed', async () => {
    const socket = await openFrom(t.url);
    const answer = untilClosed(socket);
    socket.write(`GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nx-big: ${'b'.repeat(20_000)}\r\n\r\n`);
    expect(await answer).toMatch(/^HTTP\/1\.1 431 .*"error":"HEADERS_TOO_LARGE"/s);
  });

  it('a body trickle is cut off by the request timeout', async () => {
    const socket = await openFrom(t.url);
    const answer = untilClosed(socket);
    const body = JSON.stringify([action('slow', 1)]).padEnd(4000, ' ');
    socket.write(`POST /v1/events HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${t.keys.ingest}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`);
    const sent = trickle(socket, body, 40);
    expect(await answer).toMatch(/^HTTP\/1\.1 408 .*"error":"REQUEST_TIMEOUT".*requestTimeoutMs \(600 ms\)/s);
    expect(socket.destroyed).toBe(true);
    expect(await sent).toBeLessThan(body.length);
    expect(((await (await t.call('/v1/communities', { key: t.keys.read })).json()) as { communities: unknown[] }).communities).toEqual([]);
  });
});

describe('issue 14: idle connections are closed', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ connectionTimeoutMs: 300, keepAliveTimeoutMs: 200 });
  });
  afterAll(() => t.close());

  it('a connection that sends nothing is closed by connectionTimeoutMs, a kept-alive idle one by keepAliveTimeoutMs', async () => {
    const silent = await openFrom(t.url);
    expect(await untilClosed(silent)).toBe('');
    const kept = await openFrom(t.url);
    expect((await getOn(kept, '/healthz')).status).toBe(200);
    await new Promise<void>((resolve) => kept.once('close', () => resolve()));
    expect(kept.destroyed).toBe(true);
  });
});

describe('issue 14: an alert stream and connectionTimeoutMs', () => {
  let t: TestService;
  // Seconds, not milliseconds: the heartbeat comes every 1.5 s, so only an event-loop stall over 1.5 s could let the
  // 3 s timeout pass between two heartbeats, which a busy machine does not cause.
  beforeAll(async () => {
    t = await startTestService({ connectionTimeoutMs: 3000 });
  });
  afterAll(() => t.close());

  it('an alert stream outlives connectionTimeoutMs: its heartbeat comes more often', async () => {
    const controller = new AbortController();
    const stream = await t.call('/v1/alerts/stream', { key: t.keys.read, signal: controller.signal });
    expect(stream.status).toBe(200);
    // A silent connection opened after the stream began: the timeout closes it after it would have closed a stream without a heartbeat.
    const silent = await openFrom(t.url);
    let silentClosed = false;
    const silentText = untilClosed(silent).then((text) => {
      silentClosed = true;
      return text;
    });
    const reader = stream.body!.getReader();
    let text = '';
    let ended = false;
    // Read until the silent one is closed and three heartbeats came: at least 3 × 1.5 s = 4.5 s of stream (an interval
    // never fires early), past the 3 s timeout.
    while (!ended && (!silentClosed || (text.match(/: ping/g) ?? []).length < 3)) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      ended = chunk.done;
      text += new TextDecoder().decode(chunk.value);
    }
    expect(ended).toBe(false);
    expect(text).toMatch(/^: standing alerts\n\n: ping\n\n: ping\n\n: ping\n\n/);
    expect(await silentText).toBe('');
    controller.abort();
  });
});

describe('issue 14: connections over maxConnections', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ maxConnections: 3 });
  });
  afterAll(() => t.close());

  it('get 503 naming the limit and are closed, while the connections within it keep working', async () => {
    const held = await Promise.all([openFrom(t.url), openFrom(t.url), openFrom(t.url)]);
    for (const socket of held) expect((await getOn(socket, '/healthz')).status).toBe(200);
    const extra = await openFrom(t.url);
    const closed = untilClosed(extra);
    extra.write('GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
    const text = await closed;
    expect(text).toMatch(/^HTTP\/1\.1 503/);
    expect(text).toMatch(/connection: close/i);
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { error: string; message: string; limit: number };
    expect(body).toEqual({ error: 'TOO_MANY_CONNECTIONS', message: expect.stringContaining('maxConnections') as string, limit: 3 });
    for (const socket of held) expect((await getOn(socket, '/healthz')).status).toBe(200);
    // A freed place is taken again.
    const gone = untilClosed(held[0]!);
    held[0]!.end();
    await gone;
    let again: Socket | undefined;
    for (let attempt = 0; attempt < 50 && again === undefined; attempt++) {
      const socket = await openFrom(t.url);
      const answer = await getOn(socket, '/healthz');
      if (answer.status === 200) again = socket;
      else socket.destroy();
    }
    expect(again).toBeDefined();
    for (const socket of [...held, again!]) socket.destroy();
  });
});

describe('issue 14: alert streams over maxStreamsPerKey and maxStreams', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ maxStreams: 3, maxStreamsPerKey: 2 });
  });
  afterAll(() => t.close());

  it('a key over its cap gets 429, anyone over the total cap 503, and open streams go on', async () => {
    const controllers: AbortController[] = [];
    const stream = (key: string) => {
      const controller = new AbortController();
      controllers.push(controller);
      return t.call('/v1/alerts/stream', { key, signal: controller.signal });
    };
    const first = await stream(t.keys.read);
    expect((await stream(t.keys.read)).status).toBe(200);
    const perKey = await stream(t.keys.read);
    expect(perKey.status).toBe(429);
    expect(await perKey.json()).toEqual({ error: 'TOO_MANY_STREAMS', message: expect.stringContaining('maxStreamsPerKey') as string, limit: 2 });
    const other = (await createKey(t.service.store, ['read'])).key;
    const third = (await createKey(t.service.store, ['read'])).key;
    expect((await stream(other)).status).toBe(200);
    const total = await stream(third);
    expect(total.status).toBe(503);
    expect(await total.json()).toEqual({ error: 'TOO_MANY_STREAMS', message: expect.stringContaining('maxStreams)') as string, limit: 3 });

    // The first stream still hears alerts, and other reads still answer.
    const reader = first.body!.getReader();
    await t.call('/v1/events', { ...json([action('sinks', -80)]), key: t.keys.ingest });
    await t.service.alerts.flush();
    let text = '';
    while (!text.includes('"player":"sinks"')) text += new TextDecoder().decode((await reader.read()).value);
    expect((await t.call('/v1/alerts', { key: third })).status).toBe(200);

    // Closing a stream frees its place.
    controllers[0]!.abort();
    let reopened = 0;
    for (let attempt = 0; attempt < 100 && reopened !== 200; attempt++) {
      const again = await stream(third);
      reopened = again.status;
      if (reopened !== 200) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(reopened).toBe(200);
    for (const controller of controllers) controller.abort();
  });
});

describe('issue 14: the ranking cache is bounded', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ rankingCacheSize: 20 });
  });
  afterAll(() => t.close());

  it('thousands of reads of unknown communities keep nothing; known ones keep at most rankingCacheSize views', async () => {
    const base = t.service.views.size;
    const names = Array.from({ length: 2000 }, (_, i) => `nowhere-${i}`);
    for (let i = 0; i < names.length; i += 30) {
      const answers = await Promise.all(
        names.slice(i, i + 30).map((name, j) => t.call(j % 2 === 0 ? `/v1/rankings/cqr?community=${name}` : `/v1/players/p?community=${name}`, { key: t.keys.read })),
      );
      for (const answer of answers) expect([200, 404]).toContain(answer.status);
    }
    expect(t.service.views.size).toBe(base);
    const empty = (await (await t.call('/v1/rankings/cqr?community=nowhere-7', { key: t.keys.read })).json()) as { total: number };
    expect(empty.total).toBe(0);

    await t.call('/v1/events', { ...json(Array.from({ length: 40 }, (_, i) => action('p', i + 1, `c${i}`))), key: t.keys.ingest });
    for (let i = 0; i < 40; i++) {
      const answer = (await (await t.call(`/v1/rankings/cqr?community=c${i}`, { key: t.keys.read })).json()) as { rows: unknown[] };
      expect(answer.rows).toEqual([expect.objectContaining({ player: 'p', community: `c${i}`, actions: 1 })]);
    }
    expect(t.service.views.size).toBe(20);
    // An evicted view is computed again, the same.
    const again = (await (await t.call('/v1/rankings/cqr?community=c0', { key: t.keys.read })).json()) as { rows: unknown[] };
    expect(again.rows).toEqual([expect.objectContaining({ player: 'p', community: 'c0', actions: 1 })]);
    expect(t.service.views.size).toBe(20);
  });
});

describe('issue 14: keys in query strings', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ publicRead: false });
  });
  afterAll(() => t.close());

  it('are never taken as keys and never written to the log', async () => {
    const secret = t.keys.read.slice(17);
    const paths = [
      `/v1/rankings/cqr?key=${t.keys.read}`,
      `/v1/rankings/cqr?api_key=${encodeURIComponent(t.keys.read)}&limit=5`,
      `/v1/rankings/cqr?token=${t.keys.read}`,
      `/v1/rankings/cqr?community=${t.keys.read}`,
      `/v1/alerts/stream?access_token=${t.keys.read}`,
      `/v1/communities?x=${t.keys.read}`,
    ];
    for (const path of paths) expect((await t.call(path)).status).toBe(401);
    expect((await t.call(`/v1/rankings/cqr?key=${t.keys.read}`, { key: t.keys.read })).status).toBe(400);
    const logs = t.logs();
    expect(logs).toContain('/v1/rankings/cqr?key=[redacted]');
    expect(logs).toContain(`/v1/rankings/cqr?community=${t.keys.read.slice(0, 17)}[redacted]`);
    expect(logs).not.toContain(secret);
  });
});

describe('issue 14: requests over rateLimitPerMinute', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ rateLimitPerMinute: 5 });
  });
  afterAll(() => t.close());

  it('get 429 naming the limit, per verified key: others, and forged copies of a key, spend nothing of it', async () => {
    for (let i = 0; i < 5; i++) expect((await t.call('/v1/communities', { key: t.keys.read })).status).toBe(200);
    const over = await t.call('/v1/communities', { key: t.keys.read });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await over.json()).toEqual({ error: 'TOO_MANY_REQUESTS', message: expect.stringContaining('limit of 5 requests this minute (rateLimitPerMinute)') as string, limit: 5 });
    expect((await t.call('/healthz')).status).toBe(200);
    // Someone naming the ingest key's id with a wrong secret is refused before being counted.
    const forged = `${t.keys.ingest.slice(0, 17)}${'x'.repeat(43)}`;
    for (let i = 0; i < 10; i++) expect((await t.call('/v1/events', { ...json([]), key: forged })).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await t.call('/v1/events', { ...json([action('ok', 1)]), key: t.keys.ingest })).status).toBe(200);
    expect((await t.call('/v1/events', { ...json([action('ok', 1)]), key: t.keys.ingest })).status).toBe(429);
  });
});
