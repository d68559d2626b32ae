/**
 * The HTTP API as clients see it: real requests to a started service over a real SQLite file.
 * The tests share one service, each in a community of its own (and with players of its own where
 * it erases one), so none depends on what another did before it.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/service/keys.js';
import { serviceLogger } from '../../src/http/log-redaction.js';
import { json, startTestService, tempDb, type TestService } from './support.js';

const T0 = '2026-11-01T10:00:00Z';
const action = (player: string, delta: number, extra: Record<string, unknown> = {}) => ({ type: 'action', time: T0, player, delta, ...extra });
/** `action` in `community`. */
const actionIn = (community: string) => (player: string, delta: number, extra: Record<string, unknown> = {}) => action(player, delta, { community, ...extra });

const THRESHOLDS = [
  { name: 'cqr-low', scorer: 'cqr', below: -50 },
  { name: 'reports-high', scorer: 'reports', above: 100 },
];
const SCORERS = [
  { scorer: 'cqr' },
  { scorer: 'cqr', params: { T: 'Infinity', x: 0, k: 'Infinity' } },
  { scorer: 'reliability' },
  { scorer: 'chat' },
  { scorer: 'trust', params: { observers: 'mod' } },
  { scorer: 'reports' },
];

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ scorers: SCORERS, alerts: { thresholds: THRESHOLDS, webhooks: [], retentionDays: 0, intervalMs: 0, webhookRetryMs: 10 }, bodyLimitBytes: 4096, maxBatchEvents: 20 });
});
afterAll(async () => t.close());

describe('HTTP API: keys and scopes', () => {
  it('binds 127.0.0.1 and answers health checks without a key', async () => {
    expect(t.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await t.call('/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', store: 'sqlite' });
  });

  it('refuses writes without a key, with an unknown key, and with a key lacking the scope', async () => {
    const batch = json([action('ann', 1)]);
    expect((await t.call('/v1/events', batch)).status).toBe(401);
    expect((await t.call('/v1/events', { ...batch, key: 'stk_aaaaaaaaaaaa_' + 'b'.repeat(43) })).status).toBe(401);
    expect((await t.call('/v1/events', { ...batch, key: 'not a key' })).status).toBe(401);
    const forbidden = await t.call('/v1/events', { ...batch, key: t.keys.read });
    expect(forbidden.status).toBe(403);
    expect(((await forbidden.json()) as { message: string }).message).toMatch(/lacks scope "ingest"/);
    expect((await t.call('/v1/rankings/cqr')).status).toBe(401);
    expect((await t.call('/v1/rankings/cqr', { key: t.keys.ingest })).status).toBe(403);
    expect((await t.call('/v1/rankings/cqr', { key: t.keys.admin })).status).toBe(200);
  });

  it('serves reads without a key with publicRead, and still no write', async () => {
    const open = await startTestService({ publicRead: true });
    try {
      expect((await open.call('/v1/rankings/cqr')).status).toBe(200);
      expect((await open.call('/v1/events', json([action('ann', 1)]))).status).toBe(401);
      expect((await open.call('/v1/players/ann', { method: 'DELETE' })).status).toBe(401);
      expect((await open.call('/v1/players/ann', { method: 'DELETE', key: open.keys.read })).status).toBe(403);
    } finally {
      await open.close();
    }
  });

  it('refuses a revoked key', async () => {
    const { key } = await createKey(t.service.store, ['read']);
    expect((await t.call('/v1/communities', { key })).status).toBe(200);
    await t.service.store.revokeKey(/^stk_([A-Za-z0-9]{12})_/.exec(key)![1]!, new Date().toISOString());
    expect((await t.call('/v1/communities', { key })).status).toBe(401);
  });
});

describe('HTTP API: ingest', () => {
  it('stores a JSON array and answers once it is durable, with the sequences reached', async () => {
    const ingest = actionIn('ingest-array');
    const response = await t.call('/v1/events', { ...json([ingest('ann', 12, { id: 'a1' }), ingest('bob', -60, { id: 'b1' })]), key: t.keys.ingest });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ accepted: 2, duplicates: 0, sequences: { 'ingest-array': 2 } });
    expect((await t.service.store.read('ingest-array')).length).toBe(2);
  });

  it('accepts NDJSON, and counts duplicates by id without applying them', async () => {
    const ingest = actionIn('ingest-ndjson');
    expect((await t.call('/v1/events', { ...json([ingest('ann', 12, { id: 'a1' }), ingest('bob', -60, { id: 'b1' })]), key: t.keys.ingest })).status).toBe(200);
    const body = [ingest('ann', 12, { id: 'a1' }), ingest('cid', 30, { id: 'c1' })].map((e) => JSON.stringify(e)).join('\n');
    const response = await t.call('/v1/events', { method: 'POST', body: `${body}\n\n`, headers: { 'content-type': 'application/x-ndjson' }, key: t.keys.ingest });
    expect(await response.json()).toEqual({ accepted: 1, duplicates: 1, sequences: { 'ingest-ndjson': 3 } });
    const ann = (await (await t.call('/v1/players/ann?community=ingest-ndjson', { key: t.keys.read })).json()) as { communities: { scores: { scorer: string; score: number }[] }[] };
    expect(ann.communities[0]!.scores.find((s) => s.scorer === 'cqr')!.score).toBe(12);
  });

  it('refuses a batch with bad events with 400 naming each index and field, storing nothing', async () => {
    const ingest = actionIn('ingest-refused');
    const response = await t.call('/v1/events', {
      ...json([ingest('dan', 1), { type: 'action', time: T0, community: 'ingest-refused', player: '' }, ingest('eve', 2), { type: 'rating', time: 'soon', community: 'ingest-refused', from: 'a', to: 'b', value: 1 }]),
      key: t.keys.ingest,
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; problems: { index: number; field: string }[] };
    expect(body.error).toBe('BATCH_REJECTED');
    expect(body.problems.map((p) => [p.index, p.field])).toEqual([
      [1, 'player'],
      [3, 'time'],
    ]);
    expect(await t.service.store.read('ingest-refused')).toEqual([]);
  });

  it('issue 15: names the line of an NDJSON body that is not JSON, in the words the log reader uses', async () => {
    const response = await t.call('/v1/events', { method: 'POST', body: `${JSON.stringify(action('dan', 1))}\n{oops\n`, headers: { 'content-type': 'application/x-ndjson' }, key: t.keys.ingest });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { problems: unknown[] }).problems).toEqual([{ index: 1, line: 2, code: 'EVENT_SYNTAX', field: '', reason: expect.stringMatching(/^is not valid JSON \(/) }]);
  });

  it('names the line of an invalid event in an NDJSON body, blank lines counted', async () => {
    const body = `${JSON.stringify(action('dan', 1))}\n\n${JSON.stringify({ ...action('dan', 1), delta: 'x' })}\n`;
    const response = await t.call('/v1/events', { method: 'POST', body, headers: { 'content-type': 'application/x-ndjson' }, key: t.keys.ingest });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { problems: unknown[] }).problems).toEqual([{ index: 1, line: 3, code: 'EVENT_INVALID', field: 'delta', reason: 'must be a number' }]);
  });

  it('answers malformed and non-array bodies with 400, too large ones with 413', async () => {
    const ingest = actionIn('ingest-too-large');
    const bad = await t.call('/v1/events', { method: 'POST', body: '[{"type":', headers: { 'content-type': 'application/json' }, key: t.keys.ingest });
    expect(bad.status).toBe(400);
    expect((await t.call('/v1/events', { ...json({ type: 'action' }), key: t.keys.ingest })).status).toBe(400);
    const big = await t.call('/v1/events', { ...json(Array.from({ length: 100 }, (_, i) => ingest(`p${i}`, i, { note: 'x'.repeat(40) }))), key: t.keys.ingest });
    expect(big.status).toBe(413);
    const many = await t.call('/v1/events', { ...json(Array.from({ length: 21 }, (_, i) => ingest(`p${i}`, i))), key: t.keys.ingest });
    expect(many.status).toBe(413);
    expect(await many.json()).toMatchObject({ error: 'BATCH_TOO_LARGE', limit: 20 });
    expect(await t.service.store.read('ingest-too-large')).toEqual([]);
  });

  it('refuses a domain action that conflicts with the community state, with 400 and its index', async () => {
    const response = await t.call('/v1/events', {
      ...json([{ type: 'action', time: T0, player: 'ann', domain: 'forum', op: 'edit', post: 'nope', text: 'x' }]),
      key: t.keys.ingest,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { problems: unknown[] }).problems).toEqual([{ index: 0, code: 'EVENT_CONFLICT', field: 'post', reason: '"nope" does not exist' }]);
  });
});

describe('HTTP API: reads', () => {
  beforeAll(async () => {
    const events = [
      action('ann', 12),
      action('bob', -60),
      action('cid', 30),
      { type: 'match.start', time: T0, match: 'm1', players: ['ann', 'bob'] },
      { type: 'disconnect', time: T0, player: 'bob' },
      { type: 'rating', time: T0, from: 'mod', to: 'ann', value: 1 },
      { type: 'rating', time: T0, from: 'ann', to: 'bob', value: -1 },
      { type: 'report', time: T0, from: 'ann', to: 'bob' },
      { type: 'played', time: T0, player: 'bob', games: 3 },
      { type: 'chat', time: T0, from: 'ann', to: ['bob', 'cid'] },
    ].map((e) => ({ ...e, community: 'reads' }));
    expect((await t.call('/v1/events', { ...json(events), key: t.keys.ingest })).status).toBe(200);
  });

  it("GET /v1/players/:id gives every scorer instance's score and rank, band and confidence for reliability", async () => {
    const response = await t.call('/v1/players/bob?community=reads', { key: t.keys.read });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { player: string; communities: { community: string; scores: Record<string, unknown>[] }[] };
    expect(body.player).toBe('bob');
    const scores = Object.fromEntries(body.communities[0]!.scores.map((s) => [s.scorer as string, s]));
    expect(Object.keys(scores).sort()).toEqual(['chat', 'cqr', 'cqr T=Infinity,x=0,k=Infinity', 'reliability', 'reports', 'trust observers=mod']);
    expect(scores.cqr).toMatchObject({ score: -60, rank: 3, of: 3 });
    expect(scores.reliability).toMatchObject({ score: -1, confidence: 1, band: 'red' });
    expect((scores['trust observers=mod']!.score as number) < 0).toBe(true);
    expect((await t.call('/v1/players/nobody?community=reads', { key: t.keys.read })).status).toBe(404);
  });

  it('GET /v1/rankings/:scorer pages, orders, and picks instances by name or parameters', async () => {
    const first = (await (await t.call('/v1/rankings/cqr?limit=2&community=reads', { key: t.keys.read })).json()) as { total: number; rows: { player: string; rank: number }[] };
    expect(first.total).toBe(3);
    expect(first.rows.map((r) => [r.rank, r.player])).toEqual([
      [1, 'cid'],
      [2, 'ann'],
    ]);
    const worst = (await (await t.call('/v1/rankings/cqr?order=desc&limit=1&community=reads', { key: t.keys.read })).json()) as { rows: { player: string }[] };
    expect(worst.rows.map((r) => r.player)).toEqual(['bob']);
    const paged = (await (await t.call('/v1/rankings/cqr?offset=2&community=reads', { key: t.keys.read })).json()) as { rows: { player: string }[] };
    expect(paged.rows.map((r) => r.player)).toEqual(['bob']);
    const byParams = await t.call(`/v1/rankings/cqr?community=reads&params=${encodeURIComponent('T=Infinity,x=0,k=Infinity')}`, { key: t.keys.read });
    expect(((await byParams.json()) as { scorer: string }).scorer).toBe('cqr T=Infinity,x=0,k=Infinity');
    expect((await t.call('/v1/rankings/cqr?params=T=9&community=reads', { key: t.keys.read })).status).toBe(404);
    expect((await t.call('/v1/rankings/cqr?params=T=3&community=reads', { key: t.keys.read })).status).toBe(400); // k=4 > T
    expect((await t.call('/v1/rankings/nope?community=reads', { key: t.keys.read })).status).toBe(404);
    expect((await t.call('/v1/rankings/cqr?limit=0&community=reads', { key: t.keys.read })).status).toBe(400);
    // A numeric column, both ways (rank order is cid, ann, bob: highest score first).
    const byScore = async (order: string) =>
      ((await (await t.call(`/v1/rankings/cqr?sort=score&order=${order}&community=reads`, { key: t.keys.read })).json()) as { rows: { player: string }[] }).rows.map((r) => r.player);
    expect(await byScore('asc')).toEqual(['bob', 'ann', 'cid']);
    expect(await byScore('desc')).toEqual(['cid', 'ann', 'bob']);
    const range = (await (await t.call('/v1/rankings/cqr?community=reads', { key: t.keys.read })).json()) as { range: unknown };
    expect(range.range).toEqual({ min: -60, max: 30 });
    const badSort = await t.call('/v1/rankings/cqr?sort=nope&community=reads', { key: t.keys.read });
    expect(badSort.status).toBe(400);
    expect(((await badSort.json()) as { message: string }).message).toBe('rankings parameter "sort" "nope" is not a column of this ranking (columns: rank, player, score, community, actions)');
    const byPlayer = (await (await t.call('/v1/rankings/cqr?sort=player&community=reads', { key: t.keys.read })).json()) as { rows: { player: string }[] };
    expect(byPlayer.rows.map((r) => r.player)).toEqual(['ann', 'bob', 'cid']);
    const personal = (await (await t.call('/v1/rankings/trust?params=observers=ann&community=reads', { key: t.keys.read })).json()) as { rows: { player: string; score: number }[] };
    expect(personal.rows.map((r) => [r.player, r.score])).toEqual([['mod', 0], ['bob', -1]]); // ann, the observer, is pinned, not ranked (spec §4)
  });

  it('GET /v1/players/:id/explain names what makes up the score', async () => {
    const response = await t.call('/v1/players/bob/explain?scorer=reports&community=reads', { key: t.keys.read });
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain('"ann"');
    expect((await t.call('/v1/players/bob/explain?scorer=cqr&community=reads', { key: t.keys.read })).status).toBe(200); // the instance named "cqr"
    expect((await t.call('/v1/players/bob/explain?scorer=chess&community=reads', { key: t.keys.read })).status).toBe(404);
    expect((await t.call('/v1/players/bob/explain?scorer=reliability&community=elsewhere', { key: t.keys.read })).status).toBe(404);
  });

  it('GET /v1/players/:id/history gives the score over event time', async () => {
    const response = await t.call('/v1/players/bob/history?scorer=cqr&points=4&community=reads', { key: t.keys.read });
    const body = (await response.json()) as { points: { sequence: number; score: number | null }[] };
    expect(body.points.length).toBeGreaterThan(0);
    expect(body.points.at(-1)).toMatchObject({ score: -60 });
    expect(body.points.every((p, i) => i === 0 || p.sequence > body.points[i - 1]!.sequence)).toBe(true);
  });

  it('serves Prometheus metrics and the OpenAPI document', async () => {
    const metrics = await (await t.call('/metrics', { key: t.keys.read })).text();
    expect(metrics).toMatch(/standing_events_total\{outcome="accepted"\} \d+/);
    expect(metrics).toContain('standing_batch_seconds_bucket');
    const docs = (await (await t.call('/docs/json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(docs.paths)).toEqual(expect.arrayContaining(['/v1/events', '/v1/players/{id}', '/v1/rankings/{scorer}', '/v1/alerts', '/healthz']));
    expect((await t.call('/docs')).status).toBeLessThan(400);
  });
});

describe('HTTP API: alerts', () => {
  it('raises an alert once when a score crosses its threshold, stores it and streams it over SSE', async () => {
    const action = actionIn('alerts-raise');
    const controller = new AbortController();
    const stream = await t.call('/v1/alerts/stream', { key: t.keys.read, signal: controller.signal });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = stream.body!.getReader();
    await t.call('/v1/events', { ...json([action('zed', -80)]), key: t.keys.ingest });
    await t.service.alerts.flush();
    let text = '';
    while (!text.includes('"player":"zed"')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect(text).toMatch(/id: \d+\nevent: alert\ndata: \{.*"kind":"raised"/);
    // The threshold names the scorer id: both cqr instances watch it.
    const alerts = (await (await t.call('/v1/alerts?player=zed', { key: t.keys.read })).json()) as { alerts: { kind: string; threshold: string; scorer: string }[] };
    const newest = (await (await t.call('/v1/alerts?order=desc&limit=1', { key: t.keys.read })).json()) as { alerts: { id: number }[] };
    expect(newest.alerts).toHaveLength(1);
    expect(alerts.alerts.map((a) => [a.scorer, a.kind, a.threshold])).toEqual([
      ['cqr', 'raised', 'cqr-low'],
      ['cqr T=Infinity,x=0,k=Infinity', 'raised', 'cqr-low'],
    ]);
    // Still below: nothing new. Back above, then below again: cleared, then raised again.
    await t.call('/v1/events', { ...json([action('zed', -5)]), key: t.keys.ingest });
    await t.service.alerts.flush();
    for (let i = 0; i < 8; i++) await t.call('/v1/events', { ...json([action('zed', 40)]), key: t.keys.ingest });
    await t.service.alerts.flush();
    for (let i = 0; i < 8; i++) await t.call('/v1/events', { ...json([action('zed', -40)]), key: t.keys.ingest });
    await t.service.alerts.flush();
    const after = (await (await t.call('/v1/alerts?player=zed&scorer=cqr', { key: t.keys.read })).json()) as { alerts: { kind: string }[] };
    expect(after.alerts.map((a) => a.kind)).toEqual(['raised', 'cleared', 'raised']);
  });

  it('replays missed alerts to an SSE client that reconnects with Last-Event-ID', async () => {
    // yan falls below the threshold (raised, for both cqr instances), then comes back (cleared).
    const action = actionIn('alerts-replay');
    await t.call('/v1/events', { ...json([action('yan', -80)]), key: t.keys.ingest });
    for (let i = 0; i < 8; i++) await t.call('/v1/events', { ...json([action('yan', 40)]), key: t.keys.ingest });
    await t.service.alerts.flush();
    const all = (await (await t.call('/v1/alerts?player=yan', { key: t.keys.read })).json()) as { alerts: { id: number }[] };
    expect(all.alerts.length).toBeGreaterThan(2);
    const controller = new AbortController();
    const stream = await t.call('/v1/alerts/stream?player=yan', { key: t.keys.read, signal: controller.signal, headers: { 'last-event-id': String(all.alerts[0]!.id) } });
    const reader = stream.body!.getReader();
    let text = '';
    while ((text.match(/event: alert/g) ?? []).length < all.alerts.length - 1) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect([...text.matchAll(/id: (\d+)/g)].map((m) => Number(m[1]))).toEqual(all.alerts.slice(1).map((a) => a.id));
  });
});

describe('HTTP API: webhooks', () => {
  it('delivers alerts signed, retrying after a failure', async () => {
    const received: { body: string; signature: string | undefined }[] = [];
    let calls = 0;
    const hook = createServer((request: IncomingMessage, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        calls++;
        if (calls === 1) {
          response.writeHead(500).end();
          return;
        }
        received.push({ body, signature: request.headers['x-standing-signature'] as string | undefined });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    const s = await startTestService({ alerts: { thresholds: [{ name: 'low', scorer: 'cqr', below: -50 }], webhooks: [{ url, secret: 's3cret' }], retentionDays: 0, intervalMs: 0, webhookRetryMs: 10 } });
    try {
      await s.call('/v1/events', { ...json([action('ann', -99)]), key: s.keys.ingest });
      await s.service.alerts.flush();
      await s.service.webhooks.settled();
      expect(calls).toBe(2);
      expect(received).toHaveLength(1);
      const { body, signature } = received[0]!;
      expect(signature).toBe(`sha256=${createHmac('sha256', 's3cret').update(body).digest('hex')}`);
      expect(JSON.parse(body)).toMatchObject({ alerts: [{ player: 'ann', kind: 'raised', threshold: 'low', score: -99 }] });
    } finally {
      await s.close();
      hook.close();
    }
  });
});

describe('issue 24: DELETE /v1/players/:id of a player no stored event names', () => {
  it('answers 404 NOT_FOUND, changing nothing, as does erasing the same player twice', async () => {
    const twice = actionIn('erasure-twice');
    expect((await t.call('/v1/events', { ...json([twice('erased-twice', 5), twice('stays', 7)]), key: t.keys.ingest })).status).toBe(200);
    const before = JSON.stringify(await t.service.store.read('erasure-twice'));

    const unknown = await t.call('/v1/players/never-seen', { method: 'DELETE', key: t.keys.admin });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'NOT_FOUND', message: 'player "never-seen" is unknown: no stored event is by or about them; nothing was erased' });
    expect(JSON.stringify(await t.service.store.read('erasure-twice'))).toBe(before);

    expect((await t.call('/v1/players/erased-twice', { method: 'DELETE', key: t.keys.admin })).status).toBe(200);
    const again = await t.call('/v1/players/erased-twice', { method: 'DELETE', key: t.keys.admin });
    expect(again.status).toBe(404);
    expect(((await again.json()) as { error: string }).error).toBe('NOT_FOUND');
    expect((await t.call('/v1/players/stays?community=erasure-twice', { key: t.keys.read })).status).toBe(200);
  });
});

describe('HTTP API: erasure, restart, logs', () => {
  it('DELETE /v1/players/:id needs admin, erases the player and recomputes', async () => {
    // Players of this test's own: an erasure reaches every community.
    const erasure = actionIn('erasure');
    const events = [erasure('erased', 12), erasure('kept', -60), { type: 'chat', time: T0, community: 'erasure', from: 'kept', to: ['erased'] }];
    expect((await t.call('/v1/events', { ...json(events), key: t.keys.ingest })).status).toBe(200);
    expect((await t.call('/v1/players/erased', { method: 'DELETE', key: t.keys.read })).status).toBe(403);
    const response = await t.call('/v1/players/erased', { method: 'DELETE', key: t.keys.admin });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ player: 'erased', communities: ['erasure'] });
    expect((await t.call('/v1/players/erased', { key: t.keys.read })).status).toBe(404);
    const kept = (await (await t.call('/v1/players/kept?community=erasure', { key: t.keys.read })).json()) as { communities: { scores: { scorer: string; score: number }[] }[] };
    expect(kept.communities[0]!.scores.find((s) => s.scorer === 'cqr')!.score).toBe(-60);
    expect(JSON.stringify(await t.service.store.read('erasure'))).not.toContain('"erased"');
  });

  it('restarts on the same store with the same scores, keys and alerts', async () => {
    const db = tempDb();
    const config = { db, checkpointEvery: 7, alerts: { thresholds: [{ name: 'low', scorer: 'cqr', below: -20 }], webhooks: [], retentionDays: 0, intervalMs: 0, webhookRetryMs: 10 } };
    const first = await startTestService(config);
    for (let b = 0; b < 5; b++) {
      const batch = Array.from({ length: 4 }, (_, i) => action(`p${(b + i) % 5}`, ((b * 4 + i) * 37) % 61 - 30));
      expect((await first.call('/v1/events', { ...json(batch), key: first.keys.ingest })).status).toBe(200);
    }
    await first.service.alerts.flush();
    const ranking = await (await first.call('/v1/rankings/cqr', { key: first.keys.read })).json();
    const alerts = await (await first.call('/v1/alerts', { key: first.keys.read })).json();
    await first.close();
    const second = await startTestService(config, first.keys);
    try {
      expect(await (await second.call('/v1/rankings/cqr', { key: second.keys.read })).json()).toEqual(ranking);
      await second.call('/v1/events', { ...json([action('p0', 0)]), key: second.keys.ingest });
      await second.service.alerts.flush();
      // Nobody crossed anything new: the open alerts were restored, not raised again.
      expect(await (await second.call('/v1/alerts', { key: second.keys.read })).json()).toEqual(alerts);
    } finally {
      await second.close();
    }
  });

  it('never writes a key to the logs', async () => {
    await t.call('/v1/rankings/cqr', { key: t.keys.read });
    await t.call('/v1/events', { ...json([action('log', 1, { community: 'logs' })]), headers: { 'x-api-key': t.keys.ingest, 'content-type': 'application/json' } });
    const logs = t.logs();
    expect(logs).toContain('"url":"/v1/rankings/cqr"');
    for (const key of Object.values(t.keys)) expect(logs).not.toContain(key.slice(17));
    expect(logs).toContain(`"keyId":"${t.keys.read.split('_')[1]!}"`); // which key: yes; the key: no
    // Headers are not logged by default; if a serializer ever logs them, they are redacted.
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString()), done()) });
    serviceLogger('info', sink).info({ req: { headers: { authorization: `Bearer ${t.keys.read}`, 'x-api-key': t.keys.ingest } } }, 'request');
    expect(lines.join('')).toContain('"authorization":"[redacted]"');
    expect(lines.join('')).not.toContain(t.keys.ingest);
  });
});
