/**
 * A worker applies the messages waiting on a partition together (one ingest, one append): the
 * stored log and the states are those of one message at a time, a message a quality domain
 * refuses is skipped alone, and the partition records the last stream sequence.
 */
import { jetstream } from '@nats-io/jetstream';
import { describe, expect, it } from 'vitest';
import { connectNats, ensureStream, jetstreamManager, partitionSubject } from '../../src/cluster/nats.js';
import { startWorker, type RunningWorker } from '../../src/app/worker.js';
import { openPostgresStore } from '../../src/store/postgres.js';
import { freshPostgresUrl } from '../support/postgres.js';
import { clusterConfig, liveRankings, quiet, replayRankings, storedIds, until } from './support.js';
import { clusterPerFile } from './per-file.js';

const cluster = clusterPerFile();

const time = Date.parse('2026-11-01T00:00:00Z');

describe('applying waiting messages together (issue 18)', () => {
  it('stores and applies a backlog as one message at a time would, skipping only the message a domain refuses', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 1 });
    // The backlog is in the stream before any worker runs: all of it waits.
    const nc = await connectNats(config.cluster, 'test publisher');
    await ensureStream(await jetstreamManager(nc), config.cluster);
    const js = jetstream(nc);
    const subject = partitionSubject(config.cluster, 0);
    const expected = new Map<string, string[]>([['g0', []], ['g1', []]]);
    let last = 0;
    for (let m = 0; m < 60; m++) {
      const community = `g${m % 2}`;
      const events = [
        { id: `m${m}-a`, community, time: time + m, type: 'action', player: `p${m % 5}`, delta: (m % 7) - 3 },
        // Message 31 posts again a post id message 11 used: refused whole, both its events.
        { id: `m${m}-b`, community, time: time + m, type: 'action', player: `p${(m + 1) % 5}`, domain: 'forum', op: 'post', post: m === 31 ? 'post-11' : `post-${m}`, text: 'hello' },
        // The same ids again in message 40 as in message 38: dropped as duplicates.
        ...(m === 40 ? [{ id: 'm38-a', community, time: time + m, type: 'action', player: 'p0', delta: 9 }] : []),
      ];
      last = (await js.publish(subject, JSON.stringify(events))).seq;
      if (m !== 31) expected.get(community)!.push(`m${m}-a`, `m${m}-b`);
    }
    await nc.close();

    const worker: RunningWorker = await startWorker(config, quiet, { id: 'w' });
    cluster.closeAfter(worker);
    for (const [community, ids] of expected) {
      expect(await liveRankings([worker], 0, community, ids.length)).toEqual(await replayRankings(config, community));
    }
    expect(await storedIds(db, [...expected.keys()])).toEqual(expected);
    const store = await openPostgresStore(db);
    try {
      expect(await until('the last sequence to be recorded', async () => ((await store.streamSequences(config.cluster.stream)).get(0) === last ? last : undefined))).toBe(last);
    } finally {
      await store.close();
    }
  });
});
