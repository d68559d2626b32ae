/**
 * Waits until a freshly started cluster serves every partition where it will stay: `standing
 * cluster-local` says it runs only then. Workers start one after another, so the first takes every
 * partition and hands the excess over once the others are seen; a partition handed over goes
 * unserved until another worker's next rebalance (up to a third of the lease length), and reads of
 * it answer 503 meanwhile. Settled: every partition's lease is held with its claim made, no worker
 * holds more than its share ceil(partitions / workers) (so none is about to hand one over), and
 * every partition answers a read on its read subject.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { Leases } from './leases.js';
import { connectNats, openBuckets, type ClusterConfig } from './nats.js';
import { readSubject, type ForwardedRequest } from './read-protocol.js';

/** How long a start may take to settle (ms). */
export const SETTLE_WITHIN_MS = 90_000;

/** Whether each partition's read subject answers (any answer: a worker serves it). */
async function everyPartitionAnswers(nats: NatsConnection, cluster: ClusterConfig): Promise<boolean> {
  const request: ForwardedRequest = { method: 'GET', url: '/v1/communities', headers: {} };
  const answers = await Promise.all(
    Array.from({ length: cluster.partitions }, (_, partition) =>
      nats.request(readSubject(cluster, partition), JSON.stringify(request), { timeout: 2_000 }).then(
        () => true,
        () => false,
      ),
    ),
  );
  return answers.every(Boolean);
}

/** Resolves once the cluster of `workers` workers has settled; rejects after `withinMs`, saying what was missing. */
export async function settled(cluster: ClusterConfig, workers: number, withinMs = SETTLE_WITHIN_MS): Promise<void> {
  const nats = await connectNats(cluster, 'standing cluster-local');
  try {
    const leases = new Leases((await openBuckets(nats, cluster)).leases, 'cluster-local');
    const share = Math.ceil(cluster.partitions / workers);
    const deadline = Date.now() + withinMs;
    let missing = 'the leases were not listed';
    for (;;) {
      const held = await leases.held().catch(() => undefined);
      if (held !== undefined) {
        const perWorker = new Map<string, number>();
        for (const lease of held.values()) perWorker.set(lease.worker, (perWorker.get(lease.worker) ?? 0) + 1);
        const claimed = [...held.values()].filter((lease) => lease.epoch > 0).length;
        const over = [...perWorker].filter(([, count]) => count > share);
        if (claimed < cluster.partitions) missing = `${cluster.partitions - claimed} of ${cluster.partitions} partitions were not claimed by a worker`;
        else if (over.length > 0) missing = `${over.map(([worker, count]) => `${worker} held ${count}`).join(', ')}, over its share of ${share}`;
        else if (!(await everyPartitionAnswers(nats, cluster))) missing = 'a partition did not answer reads';
        else return;
      }
      if (Date.now() > deadline) throw new Error(`the workers did not settle within ${withinMs / 1000} s: ${missing}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await nats.close();
  }
}
