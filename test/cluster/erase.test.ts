/**
 * Erasure in the cluster: a gateway's DELETE /v1/players/:id reaches every partition's owner,
 * which erases the player from PostgreSQL, recomputes its communities and purges the erased
 * messages from the JetStream stream.
 */
import { describe, expect, it } from 'vitest';
import { jetstreamManager } from '../../src/cluster/nats.js';
import { partitionOf } from '../../src/store/partitions.js';
import { createKey } from '../../src/service/keys.js';
import { openPostgresStore } from '../../src/store/postgres.js';
import { seededRng } from '../../src/util/random.js';
import { runCli } from '../support/cli.js';
import { freshPostgresUrl } from '../support/postgres.js';
import { batch, clusterConfig, liveRankings, post, replayRankings, until } from './support.js';
import { clusterPerFile } from './per-file.js';

const cluster = clusterPerFile();
const { gateway, worker } = cluster;

const communities = ['c0', 'c1', 'c2', 'c3'];

describe('erasure in the cluster (issue 18, point 4)', () => {
  it('erases a player from every partition: PostgreSQL, the workers’ states and the stream', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 4 });
    const store = await openPostgresStore(db);
    const [ingest, admin] = [(await createKey(store, ['ingest'])).key, (await createKey(store, ['admin'])).key];
    await store.close();
    const g = await gateway(config);
    const workers = [await worker(config, 'w1'), await worker(config, 'w2')];
    await until('both workers to hold partitions', () => (workers.every((w) => w.partitions().length === 2) ? true : undefined));
    const rng = seededRng(44);
    const batches = Array.from({ length: 8 }, (_, i) => batch(rng, `e${i}`, 30, communities.length));
    for (const events of batches) expect((await post(g.url, ingest, events)).status).toBe(200);
    const sent = batches.flat();
    const named = (e: Record<string, unknown>) => JSON.stringify(e).includes('"p3"');
    expect(sent.some(named)).toBe(true);
    for (const community of communities) {
      await liveRankings(workers, partitionOf(community, 4), community, sent.filter((e) => e.community === community).length);
    }

    const answer = await fetch(`${g.url}/v1/players/p3`, { method: 'DELETE', headers: { authorization: `Bearer ${admin}` } });
    expect(answer.status).toBe(200);
    // Serve's answer: every event naming the player removed or rewritten, in the communities that held them.
    const naming = sent.filter(named);
    const erasure = (await answer.json()) as { removed: number; rewritten: number };
    expect(erasure).toEqual({ player: 'p3', communities: [...new Set(naming.map((e) => e.community as string))].sort(), removed: expect.any(Number), rewritten: expect.any(Number) });
    expect(erasure.removed + erasure.rewritten).toBe(naming.length);
    // The ingest key may not erase.
    expect((await fetch(`${g.url}/v1/players/p3`, { method: 'DELETE', headers: { authorization: `Bearer ${ingest}` } })).status).toBe(403);

    // PostgreSQL holds no event naming the player; each worker's state equals a replay of the erased log.
    const after = await openPostgresStore(db);
    try {
      for (const community of communities) {
        const stored = await after.read(community);
        expect(stored.filter((s) => JSON.stringify(s.event).includes('"p3"'))).toEqual([]);
        const partition = partitionOf(community, 4);
        const runner = await until('the owner', async () => {
          for (const w of workers) if (w.partitions().includes(partition)) return w.runner(partition);
          return undefined;
        });
        const live = Object.fromEntries(runner.live.instances.map((i) => [i.name, i.scorer.rank(i.state, { community })]));
        expect(live).toEqual(await replayRankings(config, community));
        expect(JSON.stringify(live)).not.toContain('"p3"');
      }
    } finally {
      await after.close();
    }

    // The stream holds no message naming the player, nor the commands.
    const jsm = await jetstreamManager(g.nats);
    const info = await jsm.streams.info(config.cluster.stream);
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
      const message = await jsm.streams.getMessage(config.cluster.stream, { seq }).catch(() => null);
      if (message === null) continue;
      expect(message.string()).not.toContain('"p3"');
    }

    // Later events naming the player are new events, applied as any.
    const later = [{ id: 'e-later', community: 'c0', time: Date.parse('2026-11-03T00:00:00Z'), type: 'action', player: 'p3', delta: 3 }];
    expect((await post(g.url, ingest, later)).status).toBe(200);
    const reread = await openPostgresStore(db);
    const last = await until('the later event to be stored', async () => {
      const stored = await reread.read('c0');
      return stored.at(-1)?.event.id === 'e-later' ? stored.at(-1)!.sequence : undefined;
    }).finally(() => reread.close());
    expect(await liveRankings(workers, partitionOf('c0', 4), 'c0', last)).toEqual(await replayRankings(config, 'c0'));
  });
});

describe('issue 24: standing erase refuses a database a cluster worker holds', () => {
  it('refuses while a worker runs on the schema, naming it, and erases once the worker has stopped', async () => {
    const db = await freshPostgresUrl();
    const config = clusterConfig(db, cluster.nats.urls, { partitions: 2 });
    const store = await openPostgresStore(db);
    try {
      await store.append([{ type: 'action', time: Date.parse('2026-11-01T00:00:00Z'), community: 'c0', player: 'eve', delta: 5 }]);
    } finally {
      await store.close();
    }
    const running = await worker(config, 'w-held');
    const refused = await runCli(['erase', 'eve', '--db', db]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^standing: the store is in use by standing worker \(pid \d+ on [^)]+\)[^\n]*DELETE \/v1\/players\/:id; in a cluster, through a gateway[^\n]*\n$/);
    await running.close();
    const erased = await runCli(['erase', 'eve', '--db', db]);
    expect(erased.stderr).toBe('');
    expect(erased.stdout).toBe('player "eve" erased: 1 events removed, 0 rewritten (communities c0 recomputed)\n');
  });
});
