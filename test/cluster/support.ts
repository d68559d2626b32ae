/** What the cluster tests share: a configuration per test, keys, batches, waiting for the workers. */
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { Engine } from '../../src/engine/engine.js';
import { BUILTIN_DOMAINS } from '../../src/quality/index.js';
import { QualityStage } from '../../src/quality/stage.js';
import { resolveConfig, type ServiceConfig, configuredInstances } from '../../src/service/config.js';
import { createKey } from '../../src/service/keys.js';
import { openPostgresStore } from '../../src/store/postgres.js';
import type { Scope } from '../../src/store/types.js';
import type { RunningWorker } from '../../src/app/worker.js';
import type { Rng } from '../../src/util/random.js';
import { partitionOf } from '../../src/store/partitions.js';
import { expect } from 'vitest';

export const quiet = pino({ level: 'silent' });

export function clusterConfig(db: string, nats: readonly string[], cluster: Partial<ServiceConfig['cluster']> = {}): ServiceConfig {
  return resolveConfig([
    {
      source: 'test',
      values: {
        db,
        port: 0,
        logLevel: 'silent',
        checkpointEvery: 40,
        checkpointSeconds: 0,
        maxClockSkewSeconds: null,
        cluster: { nats: [...nats], stream: `t-${randomUUID().slice(0, 8)}`, partitions: 8, replicas: 3, leaseSeconds: 2, ...cluster },
      },
    },
  ]);
}

/** A new key with `scopes`, stored in `db`. */
export async function keyWith(db: string, scopes: readonly Scope[]): Promise<string> {
  const store = await openPostgresStore(db);
  try {
    return (await createKey(store, [...scopes])).key;
  } finally {
    await store.close();
  }
}

export const ingestKey = (db: string): Promise<string> => keyWith(db, ['ingest']);

export async function post(url: string, key: string, events: readonly unknown[]): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/v1/events`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(events) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A batch of valid events with unique ids over `communities` communities. */
export function batch(rng: Rng, tag: string, size: number, communities: number): Record<string, unknown>[] {
  const p = () => `p${Math.floor(rng() * 10)}`;
  const other = (player: string) => `p${(Number(player.slice(1)) + 1) % 10}`;
  return Array.from({ length: size }, (_, i) => {
    const id = `${tag}-${i}`;
    const community = `c${Math.floor(rng() * communities)}`;
    const time = Date.parse('2026-11-01T00:00:00Z') + Math.floor(rng() * 1e6);
    const r = rng();
    if (r < 0.3) return { id, community, time, type: 'action', player: p(), delta: Math.round(rng() * 80 - 40) };
    if (r < 0.4) return { id, community, time, type: 'action', player: p(), domain: 'forum', op: 'post', post: id, text: rng() < 0.5 ? 'hello' : 'HEY idiot' };
    if (r < 0.5) return { id, community, time, type: 'match.start', match: `m${Math.floor(rng() * 20)}`, players: [p(), `q${Math.floor(rng() * 5)}`] };
    if (r < 0.6) return { id, community, time, type: 'match.end', match: `m${Math.floor(rng() * 20)}` };
    const from = p();
    if (r < 0.75) return { id, community, time, type: 'rating', from, to: other(from), value: rng() < 0.7 ? 1 : -0.5 };
    if (r < 0.85) return { id, community, time, type: 'report', from, to: other(from) };
    return { id, community, time, type: 'chat', from, to: [other(from)] };
  });
}

import { until } from '../support/until.js';

export { until };

/** Each of `communities`' ids in the order sent (one client, one batch after another). */
export function sentIds(communities: readonly string[], batches: readonly Record<string, unknown>[][]): Map<string, string[]> {
  const ids = new Map<string, string[]>(communities.map((c) => [c, []]));
  for (const events of batches) for (const e of events) ids.get(e.community as string)!.push(e.id as string);
  return ids;
}

/** Each community's stored event ids, in sequence order. */
export async function storedIds(db: string, communities: readonly string[]): Promise<Map<string, string[]>> {
  const store = await openPostgresStore(db);
  try {
    return new Map(await Promise.all(communities.map(async (c) => [c, (await store.read(c)).map((s) => s.event.id!)] as const)));
  } finally {
    await store.close();
  }
}

/** The rankings of every instance for `community` after a single-process replay of its stored log. */
export async function replayRankings(config: ServiceConfig, community: string): Promise<Record<string, unknown>> {
  const engine = new Engine(configuredInstances(config), { quality: new QualityStage({ domains: BUILTIN_DOMAINS, options: config.quality }) });
  const store = await openPostgresStore(config.db);
  try {
    for (const { event } of await store.read(community)) {
      const resolved = engine.resolve(event);
      if (resolved !== null) engine.evolve(resolved);
    }
  } finally {
    await store.close();
  }
  return Object.fromEntries(engine.instances.map((i) => [i.name, i.scorer.rank(i.state, { community })]));
}

/** The rankings the worker running `community`'s partition holds live, once it has applied `count` events of it. */
export async function liveRankings(workers: readonly RunningWorker[], partition: number, community: string, count: number): Promise<Record<string, unknown>> {
  const runner = await until(`partition ${partition} to reach ${count} events of ${community}`, async () => {
    for (const worker of workers) {
      if (!worker.partitions().includes(partition)) continue;
      const runner = await worker.runner(partition);
      if (runner !== undefined && runner.live.sequence(community) >= count) return runner;
    }
    return undefined;
  });
  return Object.fromEntries(runner.live.instances.map((i) => [i.name, i.scorer.rank(i.state, { community })]));
}

/** Expects each of `sent`'s communities, once the worker owning it has applied all it was sent, to rank as a single-process replay of its stored log. */
export async function expectLiveEqualsReplay(config: ServiceConfig, workers: readonly RunningWorker[], sent: ReadonlyMap<string, readonly string[]>): Promise<void> {
  for (const [community, ids] of sent) {
    const live = await liveRankings(workers, partitionOf(community, config.cluster.partitions), community, ids.length);
    expect(live).toEqual(await replayRankings(config, community));
  }
}
