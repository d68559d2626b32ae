/**
 * issue 25: no silent skip. Every message a worker refuses — a batch a quality domain or the
 * moderation book refuses (answered 400 to its client), a message not written by a gateway (not
 * an array, or events of another partition's community) — is recorded: listed by GET
 * /v1/refusals, counted on the gateway's /metrics, and the partition goes on with the next
 * message. An erasure forgets the refusals whose events named the player, and no other.
 */
import { jetstream } from '@nats-io/jetstream';
import { describe, expect, it } from 'vitest';
import { partitionSubject } from '../../src/cluster/nats.js';
import { partitionOf } from '../../src/store/partitions.js';
import { freshPostgresUrl } from '../support/postgres.js';
import { clusterConfig, keyWith, post, until } from './support.js';
import { clusterPerFile } from './per-file.js';

const cluster = clusterPerFile();

async function keys(db: string): Promise<{ ingest: string; admin: string; read: string }> {
  return { ingest: await keyWith(db, ['ingest']), admin: await keyWith(db, ['admin']), read: await keyWith(db, ['read']) };
}

describe('issue 25: refused messages are recorded, listed and counted', () => {
  it('lists a domain conflict, a second appeal, a message that is not an array and one of another partition; the partition goes on; an erasure forgets what names the player', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 2 });
    const key = await keys(db);
    const gateway = await cluster.gateway(config);
    const worker = await cluster.worker(config, 'w');
    await until('the worker to hold both partitions', () => (worker.partitions().length === 2 ? true : undefined));
    const time = Date.parse('2026-11-01T00:00:00Z');
    const home = ['c0', 'c1', 'c2', 'c3'].find((c) => partitionOf(c, 2) === 0)!;
    const away = ['c0', 'c1', 'c2', 'c3'].find((c) => partitionOf(c, 2) === 1)!;

    const conflict = await post(gateway.url, key.ingest, [{ id: 'e1', community: home, time, type: 'action', player: 'ann', domain: 'forum', op: 'edit', post: 'nope', text: 'x' }]);
    expect(conflict).toMatchObject({ status: 400, body: { error: 'BATCH_REJECTED', problems: [{ index: 0, code: 'EVENT_CONFLICT', field: 'post' }] } });
    const opening = (id: string) => ({ id, community: home, time, type: 'appeal', player: 'zed', status: 'opened', text: 'lag' });
    expect((await post(gateway.url, key.ingest, [opening('o1')])).status).toBe(200);
    expect(await post(gateway.url, key.ingest, [opening('o2')])).toMatchObject({ status: 400, body: { problems: [{ index: 0, code: 'EVENT_CONFLICT' }] } });
    // Messages no gateway wrote, straight into partition 0's subject.
    const js = jetstream(gateway.nats);
    await js.publish(partitionSubject(config.cluster, 0), '"hello"');
    await js.publish(partitionSubject(config.cluster, 0), JSON.stringify([{ id: 's1', community: away, time, type: 'action', player: 'bob', delta: 1 }]));
    // The partition goes on.
    expect(await post(gateway.url, key.ingest, [{ id: 'ok', community: home, time, type: 'action', player: 'cid', delta: 2 }])).toMatchObject({ status: 200, body: { accepted: 1 } });

    const list = async () => {
      const response = await fetch(`${gateway.url}/v1/refusals?limit=2`, { headers: { authorization: `Bearer ${key.admin}` } });
      expect(response.status).toBe(200);
      const first = (await response.json()) as { refusals: Record<string, unknown>[]; next?: number };
      const rest = first.next === undefined ? [] : ((await (await fetch(`${gateway.url}/v1/refusals?after=${first.next}`, { headers: { authorization: `Bearer ${key.admin}` } })).json()) as { refusals: Record<string, unknown>[] }).refusals;
      return [...first.refusals, ...rest];
    };
    const refusals = await list();
    expect(refusals.map((r) => [r.partition, r.communities, r.events, (r.problems as { code: string; field: string }[]).map((p) => `${p.code} ${p.field}`)])).toEqual([
      [0, [home], 1, ['EVENT_CONFLICT post']],
      [0, [home], 1, ['EVENT_CONFLICT status']],
      [0, [], 0, ['EVENT_SYNTAX ']],
      [0, [away], 1, ['EVENT_INVALID community']],
    ]);
    expect((await fetch(`${gateway.url}/v1/refusals`, { headers: { authorization: `Bearer ${key.read}` } })).status).toBe(403);
    const metrics = await (await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${key.read}` } })).text();
    expect(metrics).toMatch(/standing_cluster_refused_events\{code="EVENT_CONFLICT"\} 2/);
    expect(metrics).toMatch(/standing_cluster_refused_events\{code="EVENT_INVALID"\} 1/);
    expect(metrics).toMatch(/standing_cluster_refused_events\{code="EVENT_SYNTAX"\} 0/);

    // Erasing a player no event names forgets nothing, though its id is in every refusal's text; and is answered as serve answers it.
    const unknown = await fetch(`${gateway.url}/v1/players/E`, { method: 'DELETE', headers: { authorization: `Bearer ${key.admin}` } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'NOT_FOUND', message: 'player "E" is unknown: no stored event is by or about them; nothing was erased' });
    expect(await list()).toHaveLength(4);
    // The second appeal was zed's: erasing zed forgets it (its reason quoted the id).
    expect(JSON.stringify(refusals[1])).toContain('zed');
    const erased = await fetch(`${gateway.url}/v1/players/zed`, { method: 'DELETE', headers: { authorization: `Bearer ${key.admin}` } });
    expect(erased.status).toBe(200);
    expect(await erased.json()).toEqual({ player: 'zed', communities: [home], removed: 1, rewritten: 0 });
    const after = await list();
    expect(after).toHaveLength(3);
    expect(JSON.stringify(after)).not.toContain('zed');
  });

  it('answers the client with the worker\'s refusal when the gateway checks less than its workers (configured differently), and lists it', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 1 });
    const key = await keys(db);
    const gateway = await cluster.gateway(config);
    const worker = await cluster.worker({ ...config, maxEventDepth: 3 }, 'w');
    await until('the worker to hold the partition', () => (worker.partitions().length === 1 ? true : undefined));
    const time = Date.parse('2026-11-01T00:00:00Z');
    const deep = { id: 'deep', community: 'c0', time, type: 'action', player: 'ann', delta: 1, meta: { a: { b: { c: 1 } } } };
    const answer = await post(gateway.url, key.ingest, [{ id: 'flat', community: 'c0', time, type: 'action', player: 'bob', delta: 1 }, deep]);
    expect(answer).toMatchObject({ status: 400, body: { error: 'BATCH_REJECTED', problems: [{ index: 1, code: 'EVENT_INVALID', field: 'meta/a/b' }] } });
    const listed = (await (await fetch(`${gateway.url}/v1/refusals`, { headers: { authorization: `Bearer ${key.admin}` } })).json()) as { refusals: { events: number }[] };
    expect(listed.refusals.map((r) => r.events)).toEqual([2]);
  });
});
