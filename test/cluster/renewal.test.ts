/**
 * Lease renewal apart from hand-overs (../../src/cluster/worker.ts): a hand-over whose checkpoint
 * cannot finish (PostgreSQL's checkpoint table locked by another session) keeps the worker's other
 * leases, and its own, renewed until it is released.
 */
import { jetstream } from '@nats-io/jetstream';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { connectNats, ensureStream, jetstreamManager, partitionSubject } from '../../src/cluster/nats.js';
import { partitionOf } from '../../src/store/partitions.js';
import { startWorker } from '../../src/app/worker.js';
import { freshPostgresUrl } from '../support/postgres.js';
import { leaseReader } from './processes.js';
import { clusterConfig, liveRankings, quiet, until } from './support.js';
import { clusterPerFile } from './per-file.js';

const cluster = clusterPerFile();

const time = Date.parse('2026-11-01T00:00:00Z');

describe('lease renewal (issue 18)', () => {
  it('issue 18: a hand-over stuck on its checkpoint lets no lease lapse, its own included, until it is released', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 2, leaseSeconds: 1 });
    const slow = { ...config, checkpointEvery: 1_000_000 };
    // A community in each partition, with an event not checkpointed yet: handing over checkpoints it.
    const names = ['c0', 'c1', 'c2', 'c3', 'c4', 'c5'];
    const community = [0, 1].map((p) => names.find((c) => partitionOf(c, 2) === p)!);
    const nc = await connectNats(config.cluster, 'test publisher');
    await ensureStream(await jetstreamManager(nc), config.cluster);
    const js = jetstream(nc);
    for (const [p, c] of community.entries()) await js.publish(partitionSubject(config.cluster, p), JSON.stringify([{ id: `e${p}`, community: c, time, type: 'action', player: 'p', delta: 1 }]));
    await nc.close();

    const first = await startWorker(slow, quiet, { id: 'first' });
    cluster.closeAfter(first);
    for (const [p, c] of community.entries()) await liveRankings([first], p, c, 1);

    const locker = new pg.Client({ connectionString: db });
    await locker.connect();
    const leases = await leaseReader(config);
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE checkpoint_chunks IN ACCESS EXCLUSIVE MODE');
      // A second worker: the first hands one partition over, and its checkpoint waits on the lock.
      const second = await startWorker(config, quiet, { id: 'second' });
      cluster.closeAfter(second);
      await until('the first worker to start handing a partition over', () => (first.partitions().length === 1 ? true : undefined));
      const before = await leases.held();
      // Three lease lengths with the hand-over stuck: every lease is renewed meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const during = await leases.held();
      expect([...during].map(([p, v]) => [p, v.worker]).sort()).toEqual([
        [0, 'first'],
        [1, 'first'],
      ]);
      expect(second.partitions()).toEqual([]);
      expect(before.size).toBe(2);
      await locker.query('COMMIT');
      const owned = await until('each worker to hold one partition', () =>
        first.partitions().length === 1 && second.partitions().length === 1 ? [first.partitions(), second.partitions()] : undefined,
      );
      expect(owned.flat().sort()).toEqual([0, 1]);
    } finally {
      await locker.end();
      await leases.close();
    }
  });
});
