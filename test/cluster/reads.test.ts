/**
 * The cluster tier, reads and alerts: gateways answer every read with the JSON a single-node
 * service gives over the same stored log, carrying the stream sequence it reflects; an alert
 * raised before a failover reaches an SSE client and a webhook receiver once (test (g)).
 * Real nats-server processes (three, replicas 3) and the real PostgreSQL.
 */
import { createServer, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { StandingClient, type Alert } from '../../src/client/index.js';
import { readSubject } from '../../src/cluster/read-protocol.js';
import { partitionOf } from '../../src/store/partitions.js';
import type { ServiceConfig } from '../../src/service/config.js';
import { startService } from '../../src/app/serve.js';
import { seededRng } from '../../src/util/random.js';
import { freshPostgresUrl } from '../support/postgres.js';
import { batch, clusterConfig, post, quiet, until, keyWith } from './support.js';
import { clusterPerFile } from './per-file.js';

const cluster = clusterPerFile();
const { gateway, worker } = cluster;

interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly streamSequence: number | undefined;
}

async function get(url: string, key: string, path: string): Promise<Answer> {
  const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const header = response.headers.get('x-standing-stream-sequence');
  return { status: response.status, body: await response.json(), streamSequence: header === null ? undefined : Number(header) };
}

const COMMUNITIES = 5;
const communities = Array.from({ length: COMMUNITIES }, (_, i) => `c${i}`);

describe('cluster reads', () => {
  it('answers rankings, players, explanations, history, the queue, cases and the audit log through either gateway as a single-node service over the same log, with the stream sequence', async () => {
    const db = await freshPostgresUrl();
    const base = clusterConfig(db, cluster.nats.urls, { partitions: 4 });
    // No thresholds: the single-node service must find the same open alerts (none) when it starts; alerts have their own test.
    const config: ServiceConfig = { ...base, alerts: { ...base.alerts, thresholds: [] } };
    const key = await keyWith(db, ['read', 'ingest']);
    const gateways = [await gateway(config), await gateway(config)];
    const workers = [await worker(config, 'w1'), await worker(config, 'w2')];
    await until('both workers to hold partitions', () => (workers.every((w) => w.partitions().length === 2) ? true : undefined));
    const rng = seededRng(5);
    const sent = new Map(communities.map((c) => [c, 0]));
    const acknowledged = new Map<string, number>();
    for (let i = 0; i < 8; i++) {
      const events = batch(rng, `r${i}`, 25, COMMUNITIES);
      const answer = await post(gateways[i % 2]!.url, key, events);
      expect(answer.status).toBe(200);
      for (const e of events) sent.set(e.community as string, sent.get(e.community as string)! + 1);
      // Answered once applied: a read through the other gateway right after shows every event of it
      // (the community list is never cached; a ranking view may be, for rankingRefreshMs, as on one machine).
      const listed = await get(gateways[(i + 1) % 2]!.url, key, '/v1/communities');
      for (const [community, sequence] of Object.entries(answer.body.sequences as Record<string, number>)) {
        expect((listed.body as { communities: { community: string; sequence: number }[] }).communities.find((c) => c.community === community)?.sequence).toBeGreaterThanOrEqual(sequence);
        const read = await get(gateways[(i + 1) % 2]!.url, key, `/v1/rankings/cqr?community=${community}`);
        expect(read.streamSequence).toBeGreaterThan(0);
        acknowledged.set(community, read.streamSequence!);
      }
    }
    // Moderation through the gateways: an action goes to the owner of the community in its body.
    const moderator = await keyWith(db, ['moderate']);
    const act = async (url: string, path: string, body: Record<string, unknown>) => {
      const response = await fetch(`${url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${moderator}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const note = await act(gateways[0]!.url, '/v1/players/p1/notes', { community: 'c1', id: 'n1', text: 'watch' });
    expect(note).toMatchObject({ status: 201, body: { community: 'c1', duplicate: false } });
    expect(await act(gateways[1]!.url, '/v1/players/p1/notes', { community: 'c1', id: 'n1', text: 'watch' })).toMatchObject({ status: 200, body: { duplicate: true } });
    expect((await act(gateways[1]!.url, '/v1/players/p2/sanctions', { community: 'c3', id: 's1', action: 'warn', reason: 'spam' })).status).toBe(201);
    for (const community of ['c1', 'c3']) sent.set(community, sent.get(community)! + 1);
    // Moderator events come through the moderation routes only, on a gateway as on one machine.
    const forged = await post(gateways[0]!.url, key, [{ community: 'c1', time: Date.parse('2026-11-01T00:00:00Z'), type: 'note', player: 'p1', text: 'forged', moderator: 'me' }]);
    expect(forged.status).toBe(400);
    // Each community's ranking, through each gateway, once its partition has applied every event.
    const scorers = config.scorers.map((s) => s.scorer);
    for (const community of communities) {
      for (const g of gateways) {
        const answer = await until(`${community}'s ranking to include its ${sent.get(community)} events`, async () => {
          const a = await get(g.url, key, `/v1/rankings/cqr?community=${community}`);
          return a.status === 200 && (a.body as { sequence: number }).sequence === sent.get(community) ? a : undefined;
        });
        expect(answer.streamSequence).toBeGreaterThanOrEqual(acknowledged.get(community)!);
      }
    }
    // The same log, read by standing serve.
    const single = await startService({ ...config, port: 0, checkpointSeconds: 0, checkpointEvery: 1_000_000 }, quiet);
    cluster.closeAfter(single);
    const paths: string[] = ['/v1/communities', '/v1/scorers', '/v1/limits', '/v1/players/nobody', '/v1/audit', '/v1/players/p1/case?community=c1', '/v1/players/p2/case?community=c3'];
    for (const community of communities) {
      for (const scorer of scorers) paths.push(`/v1/rankings/${scorer}?community=${community}&limit=100`);
      paths.push(`/v1/rankings/cqr?community=${community}&order=desc&sort=score&limit=3&offset=1`, `/v1/queue?community=${community}`);
      const ranking = (await get(single.url, key, `/v1/rankings/cqr?community=${community}&limit=2`)).body as { rows: { player: string }[] };
      for (const { player } of ranking.rows) {
        paths.push(`/v1/players/${player}`, `/v1/players/${player}?community=${community}`, `/v1/players/${player}/history?community=${community}&scorer=cqr&points=7`);
        for (const scorer of scorers) paths.push(`/v1/players/${player}/explain?community=${community}&scorer=${scorer}&limit=5`);
      }
    }
    paths.push('/v1/rankings/nothing?community=c0', '/v1/players/p1/explain?community=c0&scorer=nothing', '/v1/rankings/cqr?community=c0&limit=-1');
    let compared = 0;
    for (const [i, path] of paths.entries()) {
      const expected = await get(single.url, moderator, path);
      const through = await get(gateways[i % 2]!.url, moderator, path);
      expect({ path, status: through.status, body: through.body }).toEqual({ path, status: expected.status, body: expected.body });
      const community = /community=(c\d)/.exec(path)?.[1];
      if (community !== undefined && through.status === 200) {
        expect(through.streamSequence).toBeGreaterThanOrEqual(acknowledged.get(community)!);
        compared++;
      }
    }
    // Every ranking, and per community at least two players' scores, histories and cqr explanations.
    expect(compared).toBeGreaterThanOrEqual(COMMUNITIES * (scorers.length + 2) + COMMUNITIES * 2 * 3);
    // The communities span partitions of both workers: the merged answers (communities, players) came from both.
    expect(new Set(communities.map((c) => partitionOf(c, 4))).size).toBeGreaterThan(2);
  });

  it('answers a read whose partition no worker serves with 503 PARTITION_UNAVAILABLE and Retry-After', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 2 });
    const key = await keyWith(db, ['read']);
    const g = await gateway(config);
    const response = await fetch(`${g.url}/v1/rankings/cqr?community=c0`, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe(String(config.cluster.leaseSeconds));
    const body = (await response.json()) as { error: string; message: string };
    expect(body.error).toBe('PARTITION_UNAVAILABLE');
    expect(body.message).toContain(`partition ${partitionOf('c0', 2)} (community "c0")`);
  });
});

/** An OpenAPI document's operations, by `METHOD /path`. */
async function operations(url: string): Promise<{ operations: Map<string, unknown>; components: unknown }> {
  const document = (await (await fetch(`${url}/docs/json`)).json()) as { paths: Record<string, Record<string, unknown>>; components: unknown };
  const found = new Map<string, unknown>();
  for (const [path, methods] of Object.entries(document.paths)) for (const [method, operation] of Object.entries(methods)) found.set(`${method.toUpperCase()} ${path}`, operation);
  return { operations: found, components: document.components };
}

describe('issue 26: a gateway registers every route of standing serve, from the same declarations', () => {
  it("documents every operation of serve's OpenAPI document alike, but the ingest and erasure it answers its own way, and adds GET /v1/refusals", async () => {
    const config = clusterConfig(await freshPostgresUrl(), cluster.nats.urls, { partitions: 2 });
    const g = await gateway(config);
    const single = cluster.closeAfter(await startService({ ...config, db: await freshPostgresUrl() }, quiet));
    const [served, through] = [await operations(single.url), await operations(g.url)];
    const own = new Set(['POST /v1/events', 'DELETE /v1/players/{id}']);
    expect([...through.operations.keys()].filter((op) => !served.operations.has(op))).toEqual(['GET /v1/refusals']);
    expect([...served.operations.keys()].filter((op) => !through.operations.has(op))).toEqual([]);
    for (const [op, operation] of served.operations) if (!own.has(op)) expect({ op, operation: through.operations.get(op) }).toEqual({ op, operation });
    expect(through.components).toEqual(served.components);
  });

  it('counts forwarded requests against its rate limit, as it counts those it answers itself', async () => {
    const db = await freshPostgresUrl();
    const config = { ...clusterConfig(db, cluster.nats.urls, { partitions: 1 }), rateLimitPerMinute: 3 };
    const key = await keyWith(db, ['read']);
    const g = await gateway(config);
    await worker(config, 'w');
    // Asked on NATS, not through the gateway, which would count the asking.
    const ask = JSON.stringify({ method: 'GET', url: '/healthz', headers: {} });
    await until('the partition to answer reads', () => g.nats.request(readSubject(config.cluster, 0), ask, { timeout: 1_000 }).then(() => true, () => undefined));
    const read = () => fetch(`${g.url}/v1/rankings/cqr?community=c0`, { headers: { authorization: `Bearer ${key}` } });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await read());
    expect(answers.map((a) => [a.status, a.headers.get('x-ratelimit-remaining')])).toEqual([
      [200, '2'],
      [200, '1'],
      [200, '0'],
      [429, '0'],
    ]);
    expect(await answers[3]!.json()).toMatchObject({ error: 'TOO_MANY_REQUESTS', limit: 3 });
  });
});

describe('cluster alerts', () => {
  it('delivers an alert raised before a failover once: through SSE on a gateway and to a webhook (g)', async () => {
    const received: Alert[][] = [];
    const receiver: Server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push((JSON.parse(body) as { alerts: Alert[] }).alerts);
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    cluster.closeAfter({ close: () => new Promise<void>((resolve) => receiver.close(() => resolve())) });
    const address = receiver.address();
    const hook = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/hook`;

    const db = await freshPostgresUrl();
    const base = clusterConfig(db, cluster.nats.urls, { partitions: 2 });
    const config: ServiceConfig = { ...base, alerts: { ...base.alerts, thresholds: [{ name: 'low', scorer: 'cqr', below: -50 }], intervalMs: 20, webhooks: [{ url: hook }], webhookRetryMs: 20 } };
    const key = await keyWith(db, ['read', 'ingest']);
    const [g1, g2] = [await gateway(config), await gateway(config)];
    const first = await worker(config, 'first');
    await until('the worker to hold both partitions', () => (first.partitions().length === 2 ? true : undefined));

    // An SSE client on each gateway (from alert 0: none is missed however late the stream opens).
    const streams = [g1, g2].map((g) => {
      const seen: Alert[] = [];
      const controller = new AbortController();
      const done = new StandingClient({ url: g.url, key }).streamAlerts({ after: 0 }, (alert) => seen.push(alert), { signal: controller.signal }).catch(() => undefined);
      return { seen, stop: async () => (controller.abort(), await done) };
    });
    cluster.closeAfter({ close: async () => void (await Promise.all(streams.map((s) => s.stop()))) });

    const T = Date.parse('2026-11-01T10:00:00Z');
    const action = (id: string, player: string, delta: number) => ({ id, community: 'c0', time: T, type: 'action', player, delta });
    expect((await post(g1.url, key, [action('a1', 'ann', 5), action('b1', 'bob', -60)])).status).toBe(200);
    const raised = (list: readonly Alert[]) => list.filter((a) => a.kind === 'raised').map((a) => a.player);
    await until('bob’s alert on both streams and the webhook', () =>
      streams.every((s) => raised(s.seen).includes('bob')) && raised(received.flat()).includes('bob') ? true : undefined,
    );

    // Failover: the worker loses NATS (as if killed) and a second one takes its partitions over;
    // the gateway delivering webhooks stops and the other one takes the delivery over.
    await first.nats.close();
    const second = await worker(config, 'second');
    await until('the second worker to hold both partitions', () => (second.partitions().length === 2 ? true : undefined));
    const holder = g1.webhooks!.holding ? g1 : g2;
    const other = holder === g1 ? g2 : g1;
    const otherStream = streams[holder === g1 ? 1 : 0]!;
    await holder.close();

    // bob stays below; cid goes below: only cid's alert is new.
    expect((await post(other.url, key, [action('b2', 'bob', -10), action('c1', 'cid', -70)])).status).toBe(200);
    await until('cid’s alert on the remaining stream and the webhook', () =>
      raised(otherStream.seen).includes('cid') && raised(received.flat()).includes('cid') ? true : undefined,
    );
    // Anything late would have come with cid's alert or before it: the order is the stream's.
    expect(otherStream.seen.map((a) => [a.player, a.kind])).toEqual([
      ['bob', 'raised'],
      ['cid', 'raised'],
    ]);
    expect(received.flat().map((a) => [a.player, a.kind])).toEqual([
      ['bob', 'raised'],
      ['cid', 'raised'],
    ]);
    const stored = (await get(other.url, key, '/v1/alerts')).body as { alerts: Alert[] };
    expect(stored.alerts).toEqual(otherStream.seen);
    expect(received.flat()).toEqual(otherStream.seen);
  });
});
