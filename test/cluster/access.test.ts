/**
 * issue 28 in the cluster: a key restricted to communities is refused as `standing serve` refuses
 * it, by a gateway for what it answers itself and by the worker a gateway forwards to (the routes
 * that span communities answer with the key's communities only); a player token minted by one
 * gateway opens the player's view, reports and appeals through another (the token secret is
 * PostgreSQL's, shared by every process); claims and four-eyes rules hold on the worker owning
 * the community. Real nats-server processes, real gateways and workers, the real PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { createKey, type KeyOptions } from '../../src/service/keys.js';
import { openPostgresStore } from '../../src/store/postgres.js';
import type { Scope } from '../../src/store/types.js';
import { freshPostgresUrl } from '../support/postgres.js';
import { clusterPerFile } from './per-file.js';
import { clusterConfig, post, until } from './support.js';

const cluster = clusterPerFile();

async function keysIn(db: string, wanted: Record<string, [Scope[], string, KeyOptions?]>): Promise<Record<string, string>> {
  const store = await openPostgresStore(db);
  try {
    const out: Record<string, string> = {};
    for (const [name, [scopes, label, options]] of Object.entries(wanted)) out[name] = (await createKey(store, scopes, label, options)).key;
    return out;
  } finally {
    await store.close();
  }
}

/**
 * One request; answered 503 PARTITION_UNAVAILABLE while partitions are handed between the two
 * workers as they start, it is sent again (as its Retry-After says a client should), boundedly.
 */
async function call(url: string, path: string, key: string, body?: unknown, method = body === undefined ? 'GET' : 'POST'): Promise<{ status: number; body: Record<string, unknown> }> {
  return until(`${method} ${path} answered by a partition's owner`, async () => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const answer = { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
    return answer.status === 503 && answer.body.error === 'PARTITION_UNAVAILABLE' ? undefined : answer;
  });
}

describe('issue 28: roles, tenants and the player view in the cluster', () => {
  it('answers as standing serve does: communities refused by name, a token from one gateway working at another, claims and four-eyes on the owner', async () => {
    const db = await freshPostgresUrl();
    const config = { ...clusterConfig(db, cluster.nats.urls, { partitions: 4 }), fourEyes: { appeals: true, ruleDismissals: false } };
    const keys = await keysIn(db, {
      ingest: [['ingest'], 'game'],
      euIngest: [['ingest'], 'eu game', { communities: ['eu'] }],
      euMod: [['moderate'], 'EU team', { communities: ['eu'] }],
      mia: [['senior'], 'Mia'],
      ole: [['senior'], 'Ole'],
      game: [['player-view'], 'game server'],
    });
    const a = await cluster.gateway(config);
    const b = await cluster.gateway(config);
    await cluster.worker(config, 'w1');
    await cluster.worker(config, 'w2');
    const time = Date.parse('2026-11-01T10:00:00Z');
    const events = ['eu', 'us', 'asia'].flatMap((community) => [
      { id: `${community}-1`, community, time, type: 'action', player: 'ann', delta: community === 'eu' ? -40 : 5 },
      { id: `${community}-2`, community, time: time + 1, type: 'action', player: 'kim', delta: 7 },
      { id: `${community}-3`, community, time: time + 2, type: 'report', from: 'kim', to: 'ann' },
    ]);
    expect(await post(a.url, keys.ingest!, events)).toMatchObject({ status: 200, body: { accepted: 9 } });

    // The community restriction: refused by name on forwarded routes, gateway routes and ingest alike.
    expect((await call(a.url, '/v1/queue?community=eu', keys.euMod!)).status).toBe(200);
    for (const [path, body] of [
      ['/v1/queue?community=us', undefined],
      ['/v1/players/ann/case?community=us', undefined],
      ['/v1/players/ann/notes', { community: 'us', text: 'x' }],
      ['/v1/audit?community=us', undefined],
    ] as const) {
      expect(await call(b.url, path, keys.euMod!, body), path).toMatchObject({ status: 403, body: { error: 'FORBIDDEN', message: expect.stringContaining('this request is about community "us"') } });
    }
    expect(await call(a.url, '/v1/alerts', keys.euMod!)).toMatchObject({ status: 403, body: { message: expect.stringContaining('name one') } });
    expect(await post(a.url, keys.euIngest!, [{ id: 'x-1', community: 'eu', time, type: 'action', player: 'eve', delta: 1 }, { id: 'x-2', community: 'us', time, type: 'action', player: 'eve', delta: 1 }])).toMatchObject({
      status: 403,
      body: { message: expect.stringContaining('events[1] is of community "us"') },
    });
    const player = (await call(a.url, '/v1/players/ann', keys.euMod!)).body as { communities: { community: string }[] };
    expect(player.communities.map((c) => c.community)).toEqual(['eu']);
    const communities = (await call(b.url, '/v1/communities', keys.euMod!)).body as { communities: { community: string }[] };
    expect(communities.communities.map((c) => c.community)).toEqual(['eu']);
    expect(((await call(b.url, '/v1/communities', keys.mia!)).body.communities as unknown[]).length).toBe(3);

    // Claims and four-eyes, on the worker owning "eu".
    expect((await call(a.url, '/v1/players/ann/case/claim', keys.mia!, { community: 'eu' })).status).toBe(200);
    expect(await call(b.url, '/v1/players/ann/sanctions', keys.ole!, { community: 'eu', action: 'warn', reason: 'r' })).toMatchObject({ status: 409, body: { error: 'CASE_CLAIMED', message: expect.stringContaining('claimed by "Mia"') } });
    expect((await call(a.url, '/v1/players/ann/sanctions', keys.mia!, { community: 'eu', id: 'k-mute', action: 'mute', reason: 'insults in chat' })).status).toBe(201);
    expect((await call(a.url, '/v1/players/ann/case/claim?community=eu', keys.mia!, undefined, 'DELETE')).status).toBe(200);

    // A token minted at one gateway opens ann's view at the other, and nothing of anyone else's.
    const minted = await call(a.url, '/v1/player-tokens', keys.game!, { player: 'ann', community: 'eu' });
    expect(minted.status).toBe(201);
    const token = String(minted.body.token);
    const view = await call(b.url, '/v1/players/ann/standing?community=eu', token);
    expect(view).toMatchObject({ status: 200, body: { player: 'ann', sanctions: [{ id: 'k-mute', action: 'mute', reason: 'insults in chat' }] } });
    expect(JSON.stringify(view.body)).not.toMatch(/kim|Mia/);
    expect(await call(b.url, '/v1/players/kim/standing?community=eu', token)).toMatchObject({ status: 403, body: { message: expect.stringContaining('not "ann"') } });
    expect(await call(b.url, '/v1/players/ann/standing?community=us', token)).toMatchObject({ status: 403, body: { message: expect.stringContaining('community "us"') } });
    expect((await call(b.url, '/v1/rankings/cqr?community=eu', token)).status).toBe(403);
    const appeal = await call(b.url, '/v1/players/ann/standing/appeals', token, { community: 'eu', id: 'k-ap', sanction: 'k-mute', text: 'I was quoting' });
    expect(appeal).toMatchObject({ status: 201, body: { event: { status: 'opened', sanction: 'k-mute' } } });
    expect(await call(a.url, '/v1/players/ann/appeals/k-ap/decision', keys.mia!, { community: 'eu', outcome: 'denied', reason: 'no' })).toMatchObject({ status: 409, body: { error: 'FOUR_EYES' } });
    expect((await call(a.url, '/v1/players/ann/appeals/k-ap/decision', keys.ole!, { community: 'eu', outcome: 'granted', reason: 'context' })).status).toBe(201);

    // kim learns that the report on ann was acted on, never how.
    const kim = String((await call(a.url, '/v1/player-tokens', keys.game!, { player: 'kim', community: 'eu' })).body.token);
    const reports = await call(b.url, '/v1/players/kim/reports?community=eu', kim);
    expect(reports).toMatchObject({ status: 200, body: { reports: [{ id: 'eu-3', about: 'ann', outcome: 'acted' }] } });
  });
});
