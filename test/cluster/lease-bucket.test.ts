/**
 * The compare-and-set lease both a worker's partitions and a gateway's webhook delivery are held
 * by (../../src/cluster/lease-bucket.ts), on a real JetStream bucket: taken only when free,
 * renewed and released only on the revision the holder last wrote, lost when someone else wrote
 * it, and not lost when NATS does not answer.
 */
import { randomUUID } from 'node:crypto';
import { Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, describe, expect, it } from 'vitest';
import { LeaseBucket } from '../../src/cluster/lease-bucket.js';
import { connectNats, whenPlaced } from '../../src/cluster/nats.js';
import { clusterPerFile } from './per-file.js';
import { until } from './support.js';

const cluster = clusterPerFile();
const connections: NatsConnection[] = [];
afterAll(async () => {
  await Promise.all(connections.map((nc) => nc.close().catch(() => undefined)));
});

/** Two holders' views of one new bucket whose keys lapse `ttlMs` after their last write. */
async function twoHolders(ttlMs: number): Promise<{ a: LeaseBucket; b: LeaseBucket; aConnection: NatsConnection }> {
  const bucket = `t-${randomUUID().slice(0, 8)}-leases`;
  const open = async () => {
    const nc = await connectNats({ nats: cluster.nats.urls }, 'standing test lease holder');
    connections.push(nc);
    return { nc, kv: await whenPlaced(() => new Kvm(nc).create(bucket, { replicas: 3, history: 1, ttl: ttlMs })) };
  };
  const a = await open();
  const b = await open();
  return { a: new LeaseBucket(a.kv), b: new LeaseBucket(b.kv), aConnection: a.nc };
}

describe('issue 26: one compare-and-set lease', () => {
  it('is taken only when free, renewed and released on the revision last written, lost once another holder wrote it', async () => {
    const { a, b } = await twoHolders(60_000);
    const first = await a.take('k', 'a');
    expect(first).toBeTypeOf('number');
    expect(await b.take('k', 'b')).toBeUndefined();

    const second = await a.renew('k', 'a', first!);
    expect(second).toBeTypeOf('number');
    expect(second).toBeGreaterThan(first!);
    // The revision before the last renewal is not the holder's any more.
    expect(await a.renew('k', 'a', first!)).toBe('lost');
    await a.release('k', first!);
    expect(await b.take('k', 'b')).toBeUndefined();

    await a.release('k', second as number);
    const taken = await b.take('k', 'b');
    expect(taken).toBeTypeOf('number');
    expect(await a.renew('k', 'a', second as number)).toBe('lost');
    expect(await b.renew('k', 'b', taken!)).toBeTypeOf('number');
  });

  it('is taken by another once its holder stopped renewing it and the bucket let it lapse; its old holder then finds it lost', async () => {
    const { a, b } = await twoHolders(1_000);
    const held = await a.take('k', 'a');
    expect(held).toBeTypeOf('number');
    const taken = await until('the lapsed lease to be taken', async () => await b.take('k', 'b'));
    expect(await a.renew('k', 'a', held!)).toBe('lost');
    expect(await b.renew('k', 'b', taken)).toBeTypeOf('number');
  });

  it('is not lost when NATS does not answer its holder: undefined, still the holder’s until it lapses', async () => {
    const { a, b, aConnection } = await twoHolders(60_000);
    const held = await a.take('k', 'a');
    expect(held).toBeTypeOf('number');
    await aConnection.close();
    expect(await a.renew('k', 'a', held!)).toBeUndefined();
    expect(await b.take('k', 'b')).toBeUndefined();
  });
});
