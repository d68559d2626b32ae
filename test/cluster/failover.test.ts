/**
 * The cluster under failures, with real processes: a worker SIGKILLed mid-ingest (workers as
 * `standing worker` child processes), and one NATS server of three SIGKILLed mid-ingest. Each test
 * has its own NATS cluster, stream and schema; bounded in count and time, never timed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../src/app/gateway.js';
import { partitionOf } from '../../src/store/partitions.js';
import { startWorker, type RunningWorker } from '../../src/app/worker.js';
import { seededRng } from '../../src/util/random.js';
import { startNatsCluster, type NatsCluster } from '../support/nats-cluster.js';
import { dropPostgresSchemas, freshPostgresUrl } from '../support/postgres.js';
import { exited } from '../../src/cluster/child-processes.js';
import { configFile, leaseReader, spawnWorker, type WorkerProcess } from './processes.js';
import { batch, clusterConfig, expectLiveEqualsReplay, sentIds, ingestKey, liveRankings, post, quiet, replayRankings, storedIds, until } from './support.js';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
  await dropPostgresSchemas();
});

async function natsCluster(): Promise<NatsCluster> {
  const nats = await startNatsCluster(3);
  cleanups.push(() => nats.stop());
  return nats;
}

async function gateway(config: Parameters<typeof startGateway>[0]): Promise<RunningGateway> {
  const g = await startGateway(config, quiet);
  cleanups.push(() => g.close());
  return g;
}

async function worker(config: Parameters<typeof startWorker>[0], id: string): Promise<RunningWorker> {
  const w = await startWorker(config, quiet, { id });
  cleanups.push(() => w.close());
  return w;
}

async function workerProcess(path: string, id: string): Promise<WorkerProcess> {
  return spawnWorker(path, id, (child) =>
    cleanups.push(async () => {
      child.kill('SIGKILL');
      await exited(child);
    }),
  );
}

const COMMUNITIES = 6;
const communities = Array.from({ length: COMMUNITIES }, (_, i) => `c${i}`);
const idsByCommunity = (batches: readonly Record<string, unknown>[][]) => sentIds(communities, batches);

/** Posts `events` until answered 200, as a client does after a 503, a 504 APPLY_PENDING or a lost connection (bounded). */
async function postUntilAcknowledged(urls: readonly string[], key: string, events: readonly unknown[]): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const answer = await post(urls[attempt % urls.length]!, key, events).catch(() => undefined);
    if (answer?.status === 200) return attempt;
    if (answer !== undefined && answer.status !== 503 && answer.status !== 504) throw new Error(`answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the batch was never acknowledged');
}

describe('the cluster under failures', () => {
  it('moves a SIGKILLed worker process’s partitions to the others, losing nothing acknowledged; results equal a replay (b)', async () => {
    const nats = await natsCluster();
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, nats.urls, { partitions: 8, leaseSeconds: 2 });
    const file = configFile(config);
    cleanups.push(() => file.remove());
    const key = await ingestKey(db);
    const g = await gateway(config);
    const leases = await leaseReader(config);
    cleanups.push(() => leases.close());
    const doomed = await workerProcess(file.path, 'doomed');
    const survivor = await workerProcess(file.path, 'survivor');
    const holders = async () => [...(await leases.held()).values()].map((v) => v.worker);
    await until('both worker processes to hold partitions', async () => {
      const now = await holders();
      return now.length === 8 && now.includes('doomed') && now.includes('survivor') ? true : undefined;
    });

    const rng = seededRng(81);
    const batches = Array.from({ length: 30 }, (_, i) => batch(rng, `b${i}`, 25, COMMUNITIES));
    for (const [i, events] of batches.entries()) {
      if (i === 12) {
        doomed.child.kill('SIGKILL');
        await doomed.exited;
      }
      const answer = await post(g.url, key, events);
      expect(answer.status).toBe(200);
    }
    // The doomed worker's leases lapse and the survivor takes every partition.
    await until('the survivor to hold every partition', async () => {
      const now = await holders();
      return now.length === 8 && now.every((w) => w === 'survivor') ? true : undefined;
    });
    const sent = idsByCommunity(batches);
    await until('every acknowledged event to be stored', async () => {
      const stored = await storedIds(db, communities);
      return communities.every((c) => stored.get(c)!.length >= sent.get(c)!.length) ? stored : undefined;
    });
    // Every acknowledged event stored once, in the order sent.
    const stored = await storedIds(db, communities);
    for (const community of communities) expect(stored.get(community)).toEqual(sent.get(community));

    // The survivor hands everything over on SIGTERM (checkpoints); a worker in this process
    // restores from those checkpoints and the stored logs: its rankings equal a replay.
    survivor.child.kill('SIGTERM');
    await survivor.exited;
    expect(survivor.child.exitCode).toBe(0);
    const observer = await worker(config, 'observer');
    for (const community of communities) {
      const partition = partitionOf(community, config.cluster.partitions);
      expect(await liveRankings([observer], partition, community, sent.get(community)!.length)).toEqual(await replayRankings(config, community));
    }
  });

  it('goes on ingesting when one NATS server of three is SIGKILLed, losing nothing acknowledged (c)', async () => {
    const nats = await natsCluster();
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, nats.urls, { partitions: 4, leaseSeconds: 2 });
    const key = await ingestKey(db);
    const gateways = [await gateway(config), await gateway(config)];
    const workers = [await worker(config, 'w1'), await worker(config, 'w2')];
    await until('both workers to hold partitions', () => (workers.every((w) => w.partitions().length === 2) ? true : undefined));

    const rng = seededRng(82);
    const batches = Array.from({ length: 30 }, (_, i) => batch(rng, `n${i}`, 25, COMMUNITIES));
    const urls = gateways.map((g) => g.url);
    for (const [i, events] of batches.entries()) {
      if (i === 10) await nats.kill(0);
      await postUntilAcknowledged(urls, key, events);
    }
    const sent = idsByCommunity(batches);
    await expectLiveEqualsReplay(config, workers, sent);
    // Retried batches applied once, each community's events in the order sent.
    const stored = await storedIds(db, communities);
    for (const community of communities) expect(stored.get(community)).toEqual(sent.get(community));
  });
});
