/**
 * The cluster tier, what an outsider can make a gateway cost (issue 25, point 6): a health check
 * never reaches a worker (counted on the read subjects with a real NATS connection) and answers
 * as `standing serve` does over the same log; one address's idle connections leave others
 * served; an alert stream whose client does not read holds a bounded amount of the gateway;
 * history replays on a worker hold at most `maxHistoryJobs` PostgreSQL connections in all.
 * Real nats-server processes (three, replicas 3) and the real PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { connectNats } from '../../src/cluster/nats.js';
import { partitionOf } from '../../src/store/partitions.js';
import { startService } from '../../src/app/serve.js';
import { openPostgresStore, POOL_CONNECTIONS } from '../../src/store/postgres.js';
import { seededRng } from '../../src/util/random.js';
import { freshPostgresUrl, POSTGRES } from '../support/postgres.js';
import { getOn, openFrom } from '../support/raw-http.js';
import { expectBoundedCatchUp } from '../support/stalled-alert-stream.js';
import { clusterPerFile } from './per-file.js';
import { batch, clusterConfig, post, quiet, until, keyWith } from './support.js';

const cluster = clusterPerFile();
const { gateway, worker } = cluster;

describe('issue 25: a health check on a gateway', () => {
  it('never reaches a worker, with or without a key, and answers what standing serve answers over the same log', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 4 });
    const key = await keyWith(db, ['read', 'ingest']);
    const g = await gateway(config);
    const w = await worker(config, 'w1');
    await until('the worker to hold every partition', () => (w.partitions().length === 4 ? true : undefined));
    const rng = seededRng(25);
    const sent = Array.from({ length: 4 }, (_, i) => batch(rng, `h${i}`, 30, 6));
    for (const events of sent) expect((await post(g.url, key, events)).status).toBe(200);
    const communities = new Set(sent.flat().map((e) => e.community)).size;

    // Every request forwarded to a worker, counted on the read subjects of every partition.
    const watcher = await connectNats(config.cluster, 'issue 25 read watcher');
    cluster.closeAfter({ close: () => watcher.close() });
    let forwarded = 0;
    watcher.subscribe(`${config.cluster.stream}-read.>`, { callback: () => void forwarded++ });
    await watcher.flush();

    const health = (headers: Record<string, string> = {}) => fetch(`${g.url}/healthz`, { headers }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => health(i % 3 === 0 ? { authorization: `Bearer ${key}` } : {})));
    for (const answer of answers) expect(answer).toEqual({ status: 200, body: { status: 'ok', store: 'postgres', communities: expect.any(Number) as number, events: expect.any(Number) as number } });
    // The figures are the stored log's (at most a second behind it): every community sent to, 120 events.
    const reached = await until('the health figures to reach the stored log', async () => {
      const { body } = await health();
      return body.events === 120 ? body : undefined;
    });
    expect(reached).toEqual({ status: 'ok', store: 'postgres', communities, events: 120 });
    await watcher.flush();
    expect(forwarded).toBe(0);

    // The watcher does see forwarded reads: a merged route asks every partition.
    expect((await fetch(`${g.url}/v1/communities`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    await until('the merged read to be seen', async () => {
      await watcher.flush();
      return forwarded >= 4 ? true : undefined;
    });

    // standing serve over the same log answers the same body.
    const single = await startService({ ...config, port: 0 }, quiet);
    cluster.closeAfter(single);
    expect(await (await fetch(`${single.url}/healthz`)).json()).toEqual((await health()).body);
  });
});

describe('issue 25: connections to a gateway from one address', () => {
  it('are served up to maxConnectionsPerAddress, answered 503 naming it up to twice that, closed at once beyond, while other addresses are served', async () => {
    const db = await freshPostgresUrl();
    const config = { ...clusterConfig(db, cluster.nats.urls, { partitions: 1 }), maxConnectionsPerAddress: 3 };
    const g = await gateway(config);
    const sockets = [];
    for (let i = 0; i < 10; i++) sockets.push(await openFrom(g.url, '127.0.0.2'));
    for (const socket of sockets) socket.on('error', () => undefined);
    const answers = await Promise.all(sockets.map((socket) => getOn(socket, '/healthz')));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([0, 0, 0, 0, 200, 200, 200, 503, 503, 503]);
    for (const refused of answers.filter((a) => a.status === 503)) {
      expect(JSON.parse(refused.body)).toMatchObject({ error: 'TOO_MANY_CONNECTIONS', limit: 3, message: expect.stringContaining('(maxConnectionsPerAddress)') as string });
    }
    const other = await openFrom(g.url, '127.0.0.3');
    expect((await getOn(other, '/healthz')).status).toBe(200);
    for (const socket of [...sockets, other]) socket.destroy();
  });
});

describe('issue 25: an alert stream on a gateway whose client does not read', () => {
  it('catches up from after=0 page by page as the socket drains, holding a bounded amount unsent, then sends every alert once, in order', async () => {
    // No worker: nothing publishes the alerts stored below to the alert stream, so the stream's catch-up is all there is.
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 1 });
    const key = await keyWith(db, ['read']);
    const g = await gateway(config);
    const store = await openPostgresStore(db);
    cluster.closeAfter(store);
    await expectBoundedCatchUp({ url: g.url, key, server: g.app.server, store });
  });
});

/** Sessions of PostgreSQL whose application_name is `name`, now. */
async function sessionsNamed(name: string): Promise<number> {
  const client = new pg.Client({ connectionString: POSTGRES });
  await client.connect();
  try {
    return (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [name])).rows[0]!.n;
  } finally {
    await client.end();
  }
}

describe('issue 25: history replays on a worker', () => {
  it('hold at most maxHistoryJobs PostgreSQL connections of the worker, however many of its partitions are asked at once', async () => {
    // Every session of this cluster carries one name (the URL's), so pg_stat_activity counts them all.
    const name = `issue25-${randomUUID().slice(0, 8)}`;
    const db = `${await freshPostgresUrl()}&application_name=${name}`;
    const partitions = 8;
    const config = { ...clusterConfig(db, cluster.nats.urls, { partitions }), maxHistoryJobs: 3 };
    const key = await keyWith(db, ['read', 'ingest']);
    const g = await gateway(config);
    const w = await worker(config, 'w1');
    await until('the worker to hold every partition', () => (w.partitions().length === partitions ? true : undefined));
    // One community in each partition, each with a log long enough for a replay to take a while.
    const communities: string[] = [];
    for (let i = 0; communities.length < partitions; i++) if (!communities.some((c) => partitionOf(c, partitions) === partitionOf(`h${i}`, partitions))) communities.push(`h${i}`);
    const T = Date.parse('2026-11-01T00:00:00Z');
    for (const community of communities) {
      for (let b = 0; b < 2; b++) {
        const events = Array.from({ length: 1000 }, (_, i) => ({ id: `${community}-${b}-${i}`, community, time: T + b * 1000 + i, type: 'action', player: `p${i % 20}`, delta: (i % 7) - 3 }));
        expect((await post(g.url, key, events)).status).toBe(200);
      }
    }
    await until('the worker to apply every event', async () => {
      const answer = (await (await fetch(`${g.url}/v1/communities`, { headers: { authorization: `Bearer ${key}` } })).json()) as { communities?: { sequence: number }[] };
      return answer.communities?.length === partitions && answer.communities.every((c) => c.sequence === 2000) ? true : undefined;
    });
    // Two histories in each partition at once, and the sessions counted while they run.
    let most = 0;
    let running = true;
    const watching = (async () => {
      while (running) {
        most = Math.max(most, await sessionsNamed(name));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const answers = await Promise.all(
      communities.flatMap((community) =>
        ['p1', 'p2'].map(async (player) => {
          const response = await fetch(`${g.url}/v1/players/${player}/history?community=${community}&scorer=cqr&points=40`, { headers: { authorization: `Bearer ${key}` } });
          return { status: response.status, body: (await response.json()) as { error?: string } };
        }),
      ),
    );
    // An idle history thread keeps its connection (for 10 s): counted right after the answers, they are all still there.
    most = Math.max(most, await sessionsNamed(name));
    running = false;
    await watching;

    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(3);
    for (const refused of answers.filter((a) => a.status !== 200)) expect(refused).toMatchObject({ status: 503, body: { error: 'HISTORY_BUSY' } });
    // The gateway's pool, the worker's pool and its hold, and one connection per history thread of the worker.
    expect(most).toBeLessThanOrEqual(2 * POOL_CONNECTIONS + 1 + config.maxHistoryJobs);
  });
});
