/**
 * The cluster tier: real nats-server processes (a three-node JetStream cluster, replicas 3) and
 * the real PostgreSQL, gateways and workers in this process. Each test has its own stream,
 * buckets and schema.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startWorker, type RunningWorker } from '../../src/app/worker.js';
import { openPostgresStore } from '../../src/store/postgres.js';
import { partitionOf, PartitionFencedError } from '../../src/store/partitions.js';
import { seededRng } from '../../src/util/random.js';
import { ROOT } from '../support/cli.js';
import { freshPostgresUrl } from '../support/postgres.js';
import { batch, clusterConfig, expectLiveEqualsReplay, sentIds, ingestKey, liveRankings, post, quiet, storedIds, until } from './support.js';
import { clusterPerFile } from './per-file.js';

const cluster = clusterPerFile();
const { gateway, worker } = cluster;

const COMMUNITIES = 6;
const communities = Array.from({ length: COMMUNITIES }, (_, i) => `c${i}`);
const idsByCommunity = (batches: readonly Record<string, unknown>[][]) => sentIds(communities, batches);

describe('the cluster', () => {
  it('ingests through two gateways into two workers: every ranking equals a single-process replay of its community (a)', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls);
    const key = await ingestKey(db);
    const gateways = [await gateway(config), await gateway(config)];
    const workers = [await worker(config, 'w1'), await worker(config, 'w2')];
    await until('both workers to hold partitions', () => (workers.every((w) => w.partitions().length === 4) ? true : undefined));
    const rng = seededRng(18);
    const batches = Array.from({ length: 24 }, (_, i) => batch(rng, `a${i}`, 30, COMMUNITIES));
    // Two clients at once, one per gateway.
    await Promise.all(
      [0, 1].map(async (side) => {
        for (let i = side; i < batches.length; i += 2) {
          const answer = await post(gateways[side]!.url, key, batches[i]!);
          expect(answer.status).toBe(200);
          expect(answer.body.accepted).toBe(30);
        }
      }),
    );
    const sent = idsByCommunity(batches);
    await expectLiveEqualsReplay(config, workers, sent);
    const stored = await storedIds(db, communities);
    for (const community of communities) expect([...stored.get(community)!].sort()).toEqual([...sent.get(community)!].sort());
    // No partition runs twice.
    const owned = workers.flatMap((w) => w.partitions());
    expect(new Set(owned).size).toBe(owned.length);
  });

  it('applies the same event ids sent through two gateways, and sent again, once (f)', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls);
    const key = await ingestKey(db);
    const [g1, g2] = [await gateway(config), await gateway(config)];
    const workers = [await worker(config, 'w1')];
    const events = batch(seededRng(6), 'f', 40, COMMUNITIES);
    const first = await post(g1.url, key, events);
    const second = await post(g2.url, key, events);
    expect(first).toMatchObject({ status: 200, body: { accepted: 40, duplicates: 0 } });
    // Answered as serve answers a repeat: the worker drops every event whose id it holds.
    expect(second).toMatchObject({ status: 200, body: { accepted: 0, duplicates: 40 } });
    // The same ids cut otherwise (one community's events alone, then every other event again) are new messages: the worker drops them.
    const one = events.filter((e) => e.community === 'c0');
    expect((await post(g2.url, key, one)).status).toBe(200);
    expect((await post(g1.url, key, [...events].reverse())).status).toBe(200);
    const marker = [{ id: 'f-last', community: 'c0', time: Date.parse('2026-11-02T00:00:00Z'), type: 'action', player: 'p0', delta: 1 }];
    expect((await post(g1.url, key, marker)).status).toBe(200);
    const sent = idsByCommunity([events, marker]);
    const partition = partitionOf('c0', config.cluster.partitions);
    await liveRankings(workers, partition, 'c0', sent.get('c0')!.length);
    // Every partition has applied its communities' events before the log is read.
    for (const community of communities) await liveRankings(workers, partitionOf(community, config.cluster.partitions), community, sent.get(community)!.length);
    const stored = await storedIds(db, communities);
    for (const community of communities) expect(stored.get(community)).toEqual(sent.get(community));
  });

  it('issue 24: applies the batch that made reliability throw (a 2024 drop against a bot in a community at 2026), as a single process does', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls);
    const key = await ingestKey(db);
    const g = await gateway(config);
    const workers = [await worker(config, 'w1')];
    const events = readFileSync(join(ROOT, 'test/fixtures/fixed/issue-24-old-drop-against-bot.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((line): Record<string, unknown> => ({ ...(JSON.parse(line) as Record<string, unknown>), community: 'c0' }));
    expect(await post(g.url, key, events)).toMatchObject({ status: 200, body: { accepted: 4, duplicates: 0 } });
    await expectLiveEqualsReplay(config, workers, new Map([['c0', events.map((e) => e.id as string)]]));
    expect((await storedIds(db, ['c0'])).get('c0')).toEqual(events.map((e) => e.id));
  });

  it('refuses the writes of a worker whose lease expired: the new holder claimed a newer epoch (d)', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 2, leaseSeconds: 1 });
    const key = await ingestKey(db);
    const g = await gateway(config);
    const old = await worker({ ...config, checkpointEvery: 1_000_000 }, 'old');
    const events = batch(seededRng(4), 'd', 20, 1); // community c0
    const partition = partitionOf('c0', 2);
    expect((await post(g.url, key, events)).status).toBe(200);
    await liveRankings([old], partition, 'c0', 20);
    const stale = (await old.runner(partition))!;
    // The old worker stops hearing from NATS: it can renew nothing, and its leases lapse.
    await old.nats.close();
    const next = await worker(config, 'next');
    await until('the new worker to hold the partition', () => (next.partitions().includes(partition) ? true : undefined));
    const taken = (await until('its runner', () => next.runner(partition)))!;
    expect(taken.claim.epoch).toBeGreaterThan(stale.claim.epoch);
    // The old runner's state has 20 events not checkpointed: it tries to write them, and an event more.
    await expect(stale.live.checkpoint()).rejects.toThrow(PartitionFencedError);
    await expect(stale.live.ingest([{ id: 'd-stale', community: 'c0', time: Date.parse('2026-11-01T00:00:00Z'), type: 'action', player: 'p1', delta: 5 }])).rejects.toThrow(
      PartitionFencedError,
    );
    const store = await openPostgresStore(db);
    try {
      expect((await store.read('c0')).map((s) => s.event.id)).toEqual(events.map((e) => e.id));
      expect(await store.loadCheckpoints('c0')).toBeUndefined();
      // The new holder writes.
      await store.saveCheckpointSetsFenced(new Map(), taken.claim);
      await expect(store.appendFenced([], stale.claim, 1)).rejects.toThrow(PartitionFencedError);
    } finally {
      await store.close();
    }
  });

  it('spreads the partitions over a third worker when it joins (e)', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 8 });
    const workers = [await worker(config, 'w1'), await worker(config, 'w2')];
    const spread = (list: readonly RunningWorker[], most: number) => {
      const owned = list.map((w) => w.partitions());
      const all = owned.flat();
      return all.length === 8 && new Set(all).size === 8 && owned.every((o) => o.length <= most && o.length > 0) ? owned : undefined;
    };
    await until('two workers to hold 4 partitions each', () => spread(workers, 4));
    workers.push(await worker(config, 'w3'));
    const owned = await until('three workers to hold at most 3 partitions each', () => spread(workers, 3));
    expect(owned[2]!.length).toBeGreaterThanOrEqual(2);
  });

  it('issue 18: closing a worker whose NATS connection is gone still closes its PostgreSQL connections', async () => {
    const application = `standing-close-${process.pid}-${Date.now()}`;
    const db = `${await freshPostgresUrl()}&application_name=${application}`;
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 1 });
    const w = await startWorker(config, quiet, { id: 'closing' });
    await until('its partition to run', () => w.runner(0));
    const connections = async () => {
      const client = new pg.Client({ connectionString: db.replace(`&application_name=${application}`, '') });
      await client.connect();
      try {
        return Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1', [application])).rows[0]!.n);
      } finally {
        await client.end();
      }
    };
    expect(await connections()).toBeGreaterThan(0);
    await w.nats.close();
    // Draining a closed connection fails: close() says so, and has closed the store all the same.
    await expect(w.close()).rejects.toThrow();
    // Bounded below pg's own idle timeout (10 s), which would end an unclosed pool's idle connections too.
    expect(await until('its connections to end', async () => ((await connections()) === 0 ? 0 : undefined), 5_000)).toBe(0);
  });
});
