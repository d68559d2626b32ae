/**
 * The event stream's identity (../../src/cluster/nats.ts): a stream deleted and made again gets a
 * new one, and a worker refuses to consume it from the sequence PostgreSQL stored for the old one
 * (its sequences restart at 1: the new stream's acknowledged messages would be skipped).
 */
import { Writable } from 'node:stream';
import { jetstream } from '@nats-io/jetstream';
import pg from 'pg';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { connectNats, ensureStream, jetstreamManager, partitionSubject } from '../../src/cluster/nats.js';
import { startWorker } from '../../src/app/worker.js';
import { openPostgresStore } from '../../src/store/postgres.js';
import { freshPostgresUrl } from '../support/postgres.js';
import { clusterConfig, quiet, storedIds, until } from './support.js';
import { clusterPerFile } from './per-file.js';

const cluster = clusterPerFile();

const time = Date.parse('2026-11-01T00:00:00Z');
const message = (id: string) => JSON.stringify([{ id, community: 'c', time, type: 'action', player: 'p', delta: 1 }]);

describe('the stream made again (issue 18)', () => {
  it('issue 18: a worker refuses a stream deleted and made again, naming it, rather than skip its messages', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 1 });
    const nc = await connectNats(config.cluster, 'test publisher');
    try {
      const jsm = await jetstreamManager(nc);
      const first = await ensureStream(jsm, config.cluster);
      expect(await ensureStream(jsm, config.cluster)).toEqual(first);
      const js = jetstream(nc);
      for (const id of ['a', 'b', 'c']) await js.publish(partitionSubject(config.cluster, 0), message(id));
      const worker = await startWorker(config, quiet, { id: 'before' });
      try {
        await until('the three messages to be stored', async () => ((await storedIds(db, ['c'])).get('c')!.length === 3 ? true : undefined));
      } finally {
        await worker.close();
      }

      await jsm.streams.delete(config.cluster.stream);
      const second = await ensureStream(jsm, config.cluster);
      expect(second.name).toBe(first.name);
      expect(second.id).not.toBe(first.id);
      // Sequence 1 of the new stream: below the 3 PostgreSQL stored for the old one.
      await js.publish(partitionSubject(config.cluster, 0), message('d'));

      const lines: string[] = [];
      const logger = pino({ level: 'error' }, new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString()), done()) }));
      const after = await startWorker(config, logger, { id: 'after' });
      try {
        const refusal = await until('the claim to be refused', () => lines.find((line) => line.includes('StreamMismatchError')));
        expect(refusal).toContain(`instance ${first.id}, the stream now is instance ${second.id}`);
        expect(await after.runner(0)).toBeUndefined();
        // Refused again and again: each time after a longer backoff, logged.
        // Not NATS being away: the backoff doubles.
        expect(JSON.parse(refusal)).toMatchObject({ failures: 1, natsAway: false, retryInMs: 1000 });
        await until('the second refusal', () => lines.find((line) => line.includes('StreamMismatchError') && (JSON.parse(line) as { failures?: number }).failures === 2), 30_000);
        expect(JSON.parse(lines.find((line) => line.includes('StreamMismatchError') && (JSON.parse(line) as { failures?: number }).failures === 2)!)).toMatchObject({ natsAway: false, retryInMs: 2000 });
      } finally {
        await after.close();
      }
      const store = await openPostgresStore(db);
      try {
        // Nothing was claimed: the partition's sequence is the old stream's still.
        expect(await store.streamSequences(config.cluster.stream)).toEqual(new Map([[0, 3]]));
      } finally {
        await store.close();
      }
    } finally {
      await nc.close();
    }
  });

  it('issue 25: a worker refuses a stream whose last sequence is below the one PostgreSQL stored (acknowledged messages lost), rather than pass over the new ones', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 1 });
    const nc = await connectNats(config.cluster, 'test publisher');
    try {
      const jsm = await jetstreamManager(nc);
      await ensureStream(jsm, config.cluster);
      const js = jetstream(nc);
      for (const id of ['a', 'b']) await js.publish(partitionSubject(config.cluster, 0), message(id));
      const worker = await startWorker(config, quiet, { id: 'before' });
      try {
        await until('the two messages to be stored', async () => ((await storedIds(db, ['c'])).get('c')!.length === 2 ? true : undefined));
      } finally {
        await worker.close();
      }
      // As after a power cut that lost acknowledged messages: PostgreSQL records more than the stream holds.
      const store = await openPostgresStore(db);
      const client = new pg.Client({ connectionString: db });
      await client.connect();
      try {
        await client.query('UPDATE partitions SET stream_sequence = 5 WHERE stream = $1', [config.cluster.stream]);
      } finally {
        await client.end();
      }
      await js.publish(partitionSubject(config.cluster, 0), message('new'));
      const lines: string[] = [];
      const logger = pino({ level: 'error' }, new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString()), done()) }));
      const after = await startWorker(config, logger, { id: 'after' });
      try {
        const refusal = await until('the start to be refused', () => lines.find((line) => line.includes('StreamBehindError')));
        expect(refusal).toContain("PostgreSQL records its events through stream sequence 5, but the stream's last sequence is 3");
        expect(await after.runner(0)).toBeUndefined();
      } finally {
        await after.close();
      }
      try {
        expect(await store.streamSequences(config.cluster.stream)).toEqual(new Map([[0, 5]]));
        expect((await storedIds(db, ['c'])).get('c')).toEqual(['a', 'b']);
      } finally {
        await store.close();
      }
    } finally {
      await nc.close();
    }
  });
});
