/**
 * issue 25, points 2 and 3: one community per request, the same answer from `standing serve` and a
 * gateway; a partition start that fails releases everything it took; a gateway ignores the read
 * answers of a stale owner (an older lease epoch). Real nats-server processes (three, replicas 3)
 * and the real PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { partitionOf } from '../../src/cluster/partition.js';
import type { ServiceConfig } from '../../src/service/config.js';
import { createKey } from '../../src/service/keys.js';
import { startService } from '../../src/service/service.js';
import type { Scope } from '../../src/store/types.js';
import { openPostgresStore } from '../../src/store/postgres.js';
import { freshPostgresUrl } from '../support/postgres.js';
import { clusterConfig, quiet, until } from './support.js';
import { clusterPerFile } from './per-file.js';

const cluster = clusterPerFile();

async function keyWith(db: string, scopes: Scope[]): Promise<string> {
  const store = await openPostgresStore(db);
  try {
    return (await createKey(store, scopes)).key;
  } finally {
    await store.close();
  }
}

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
    const moderator = await keyWith(db, ['moderate']);
    const gateway = await cluster.gateway(config);
    await cluster.worker(config, 'w');
    await until('the worker to hold every partition', async () => ((await call(gateway.url, moderator, 'GET', '/healthz')).status === 200 ? true : undefined));
    const serveDb = await freshPostgresUrl();
    const serveKey = await keyWith(serveDb, ['moderate']);
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
