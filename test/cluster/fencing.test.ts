/**
 * issue 25, points 2 and 3: one community per request, the same answer from `standing serve` and a
 * gateway; a partition start that fails releases everything it took; a gateway ignores the read
 * answers of a stale owner (an older lease epoch). Real nats-server processes (three, replicas 3)
 * and the real PostgreSQL.
 */
import { jetstream, StorageType } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { connectNats, ensureStream, jetstreamManager } from '../../src/cluster/nats.js';
import { partitionOf } from '../../src/store/partitions.js';
import { PartitionRunner, type RunnerOptions } from '../../src/cluster/partition-runner.js';
import { readSubject, type ForwardedAnswer } from '../../src/cluster/read-protocol.js';
import type { ServiceConfig } from '../../src/service/config.js';
import { historyJobsOf } from '../../src/service/history-jobs.js';
import { partitionAssembly } from '../../src/app/worker.js';
import { startService } from '../../src/app/serve.js';
import { openPostgresStore } from '../../src/store/postgres.js';
import { freshPostgresUrl } from '../support/postgres.js';
import { clusterConfig, post, quiet, until, keyWith } from './support.js';
import { clusterPerFile } from './per-file.js';

const cluster = clusterPerFile();

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

async function call(url: string, key: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Two communities of different partitions of `partitions`. */
function twoPartitions(partitions: number): [string, string] {
  const names = ['eu', 'na', 'asia', 'oce', 'sa', 'af'];
  const a = names[0]!;
  return [a, names.find((n) => partitionOf(n, partitions) !== partitionOf(a, partitions))!];
}

describe('issue 25: one community per request', () => {
  it('refuses a moderation action whose query names another community than its body, with the same 400 on standing serve and through a gateway, and records nothing', async () => {
    const db = await freshPostgresUrl();
    const config: ServiceConfig = clusterConfig(db, cluster.nats.urls, { partitions: 4 });
    const [a, b] = twoPartitions(4);
    expect(partitionOf('default', 4) === partitionOf(a, 4) && partitionOf('default', 4) === partitionOf(b, 4)).toBe(false);
    const moderator = await keyWith(db, ['senior']);
    const gateway = await cluster.gateway(config);
    await cluster.worker(config, 'w');
    await until('the worker to hold every partition', async () => ((await call(gateway.url, moderator, 'GET', '/healthz')).status === 200 ? true : undefined));
    const serveDb = await freshPostgresUrl();
    const serveKey = await keyWith(serveDb, ['senior']);
    const serve = cluster.closeAfter(await startService({ ...config, db: serveDb, port: 0 }, quiet));

    const mismatched: [string, Record<string, unknown>, RegExp][] = [
      [`/v1/players/v/sanctions?community=${a}`, { community: b, action: 'warn', reason: 'spam' }, new RegExp(`querystring/community names "${a}" and body/community names "${b}"`)],
      [`/v1/players/x/notes?community=${a}`, { text: 'hi' }, new RegExp(`querystring/community names "${a}" and body/community names none, so the action's community is "default"`)],
      [`/v1/players/x/notes?community=${a}&community=${b}`, { community: a, text: 'hi' }, /querystring\/community is given more than once/],
      [`/v1/players/v/appeals?community=${b}`, { community: a, text: 'sorry' }, /querystring\/community names/],
      [`/v1/players/v/verdicts?community=${b}`, { outcome: 'upheld', reason: 'seen' }, /querystring\/community names/],
      [`/v1/reports/verdicts?community=${a}`, { community: b, from: 'x', to: 'v', outcome: 'dismissed', reason: 'no' }, /querystring\/community names/],
      [`/v1/players/v/appeals/ap1/decision?community=${a}`, { community: b, outcome: 'denied', reason: 'no' }, /querystring\/community names/],
    ];
    for (const [path, body, message] of mismatched) {
      const single = await call(serve.url, serveKey, 'POST', path, body);
      const through = await call(gateway.url, moderator, 'POST', path, body);
      expect({ path, ...single }).toMatchObject({ path, status: 400, body: { error: 'REQUEST_INVALID', message: expect.stringMatching(message) } });
      expect({ path, ...through }).toEqual({ path, ...single });
    }

    // The same community in both places is one community: recorded there, by serve and through the gateway.
    for (const [url, key] of [
      [serve.url, serveKey],
      [gateway.url, moderator],
    ] as const) {
      expect(await call(url, key, 'POST', `/v1/players/x/notes?community=${a}`, { community: a, id: 'n1', text: 'hi' })).toMatchObject({ status: 201, body: { community: a } });
      expect(await call(url, key, 'POST', `/v1/players/v/sanctions`, { community: b, id: 's1', action: 'warn', reason: 'spam' })).toMatchObject({ status: 201, body: { community: b } });
    }
    // Nothing of the refused requests was recorded anywhere: each deployment's audit log holds the two accepted actions.
    const audit = async (url: string, key: string) => ((await call(url, key, 'GET', '/v1/audit?order=oldest')).body.entries as { community: string; event: { id: string } }[]).map((e) => [e.community, e.event.id]);
    expect(await audit(serve.url, serveKey)).toEqual([
      [a, 'n1'],
      [b, 's1'],
    ]);
    const communities = await until('the worker to apply both actions', async () => {
      const listed = (await call(gateway.url, moderator, 'GET', '/v1/communities')).body.communities as { community: string }[];
      return listed.length === 2 ? listed.map((c) => c.community) : undefined;
    });
    expect(communities).toEqual([a, b].sort());
    expect(await audit(gateway.url, moderator)).toEqual(await audit(serve.url, serveKey));
    // The sanction is in b's book, where b's owner sees it: the case shows it.
    const record = (await call(gateway.url, moderator, 'GET', `/v1/players/v/case?community=${b}`)).body.record as { sanctions: { id: string }[] };
    expect(record.sanctions.map((s) => s.id)).toEqual(['s1']);
  });
});

/** Every answer to one forwarded GET of `url` on partition `partition`'s read subject, collected for `windowMs` (a bound, not a measure). */
async function allAnswers(nc: NatsConnection, config: ServiceConfig, partition: number, url: string, windowMs = 3_000): Promise<ForwardedAnswer[]> {
  const answers: ForwardedAnswer[] = [];
  const request = JSON.stringify({ method: 'GET', url, headers: {} });
  for await (const reply of await nc.requestMany(readSubject(config.cluster, partition), request, { strategy: 'timer', maxWait: windowMs })) answers.push(reply.json<ForwardedAnswer>());
  return answers;
}

/** A runner's options over its own connection and store (closed by `close`). */
async function runnerOptions(config: ServiceConfig): Promise<{ options: Omit<RunnerOptions, 'stream'>; nc: NatsConnection; close(): Promise<void> }> {
  const store = await openPostgresStore(config.db);
  const nc = await connectNats(config.cluster, 'issue 25 partition runner');
  const history = historyJobsOf(config);
  const options = { config, store, js: jetstream(nc), jsm: await jetstreamManager(nc), nats: nc, partition: 0, logger: quiet, onFailure: () => undefined, assembly: partitionAssembly(config, quiet, history) };
  return { options, nc, close: async () => (await nc.close(), await history.close(), await store.close()) };
}

describe('issue 25: a partition start is all or nothing, and a stale owner is not read', () => {
  it('releases what a start took when the consumer cannot be made: the read subject has no responder, and the next start is its only one', async () => {
    const config = clusterConfig(await freshPostgresUrl(), cluster.nats.urls, { partitions: 1 });
    const { options, close } = await runnerOptions(config);
    const asker = cluster.closeAfter(await connectNats(config.cluster, 'issue 25 asker'));
    try {
      // A stream of the right name and description whose subjects do not hold the partition's: JetStream refuses the consumer.
      const { jsm } = options;
      const name = config.cluster.stream;
      await jsm.streams.add({ name, subjects: [`${name}-elsewhere.>`], storage: StorageType.File, num_replicas: 1, description: 'standing event log: 1 partitions, instance i25' });
      const stream = await ensureStream(jsm, config.cluster);
      await expect(PartitionRunner.start({ ...options, stream })).rejects.toThrow(/filter subject/i);
      // Interest leaves the other servers of the NATS cluster a moment after the unsubscribe: asked until none is left (bounded).
      const left = await until('no responder to be left on the read subject', async () => {
        const outcome = await asker.request(readSubject(config.cluster, 0), JSON.stringify({ method: 'GET', url: '/healthz', headers: {} }), { timeout: 1_000 }).then(
          () => 'answered',
          (error: unknown) => ((error as Error).message.match(/no responders/i) ? 'no responders' : undefined),
        );
        return outcome;
      }, 15_000);
      expect(left).toBe('no responders');

      // With the stream holding the partition's subject, the partition starts on the same connection: one responder, the new claim's.
      await jsm.streams.update(name, { subjects: [`${name}.*`] });
      const runner = await PartitionRunner.start({ ...options, stream });
      try {
        expect(runner.claim.epoch).toBe(2);
        expect((await allAnswers(asker, config, 0, '/healthz')).map((a) => [a.status, a.epoch])).toEqual([[200, 2]]);
      } finally {
        await runner.stop(false);
      }
    } finally {
      await close();
    }
  });

  it('passes over the answers (reads and checks of batches) of an owner whose lease was taken over (an older epoch) and answers 503 when only it answers', async () => {
    const db = await freshPostgresUrl();
    // c0 is in partition 0 (the stale owner's), c1 in partition 1.
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 2 });
    const key = await keyWith(db, ['read', 'ingest']);
    const gateway = await cluster.gateway(config);
    // The old owner: a partition runner of epoch 1 whose claim a worker then takes over; its reads stay on the subject.
    const { options, close } = await runnerOptions(config);
    const old = await PartitionRunner.start({ ...options, stream: await ensureStream(options.jsm, config.cluster) });
    try {
      expect(old.claim.epoch).toBe(1);
      const worker = await cluster.worker(config, 'w');
      const current = await until('the worker to run the partition', () => worker.runner(0));
      expect(current.claim.epoch).toBe(2);
      const time = Date.parse('2026-11-01T10:00:00Z');
      const events = Array.from({ length: 12 }, (_, i) => ({ id: `e${i}`, community: 'c0', time: time + i, type: 'action', player: `p${i % 3}`, delta: i - 5 }));
      expect((await post(gateway.url, key, events)).status).toBe(200);
      await until('the worker to apply the batch', () => (current.live.sequence('c0') === 12 ? true : undefined));
      await until('the worker to hold partition 1 too', () => (worker.partitions().length === 2 ? true : undefined));
      // Both answer on the read subject; the old one from its state before the batch (its writes are fenced).
      const both = await allAnswers(gateway.nats, config, 0, '/v1/rankings/cqr?community=c0');
      expect(both.map((a) => [a.epoch, (JSON.parse(a.body) as { sequence: number }).sequence]).sort()).toEqual([
        [1, 0],
        [2, 12],
      ]);
      for (let i = 0; i < 20; i++) {
        const read = await call(gateway.url, key, 'GET', '/v1/rankings/cqr?community=c0');
        expect(read).toMatchObject({ status: 200, body: { sequence: 12 } });
      }
      // A post the stale owner never saw: a batch over both partitions editing it is checked by the current owner only.
      const forum = (id: string, op: 'post' | 'edit') => ({ id, community: 'c0', time, type: 'action', player: 'p0', domain: 'forum', op, post: 'fp', text: `text ${id}` });
      expect(await post(gateway.url, key, [forum('post', 'post')])).toMatchObject({ status: 200, body: { accepted: 1 } });
      for (let i = 0; i < 10; i++) {
        const edit = await post(gateway.url, key, [forum(`edit${i}`, 'edit'), { id: `other${i}`, community: 'c1', time, type: 'action', player: 'p1', delta: 1 }]);
        expect(edit).toMatchObject({ status: 200, body: { accepted: 2 } });
      }
      // The current owner gone (it hands the partition back), the stale one alone answers: no state of it is served.
      await worker.close();
      const alone = await call(gateway.url, key, 'GET', '/v1/rankings/cqr?community=c0');
      expect(alone).toMatchObject({ status: 503, body: { error: 'PARTITION_UNAVAILABLE', message: expect.stringMatching(/only a stale owner of partition 0 \(community "c0"\) answered .*lease epoch 1, the partition's lease is at epoch 2/) } });
    } finally {
      await old.stop(false);
      await close();
    }
  });
});
