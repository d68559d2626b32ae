/**
 * issue 28, points 6 and 7: one question, one answer. The same bulk actions (a suspension of two
 * players, its retry, a retry naming one more, a request over the bound, a verdict for two) and
 * the same GET /v1/team go to a `standing serve` and to a cluster (a gateway, two workers, three
 * real nats-server processes, PostgreSQL behind both): every answer is the same but what each
 * side fills from its own clock, and so is the audit log.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/app/serve.js';
import { bulkEventId } from '../../src/http/routes/bulk.js';
import { createKey } from '../../src/service/keys.js';
import { openPostgresStore } from '../../src/store/postgres.js';
import { freshPostgresUrl } from '../support/postgres.js';
import { clusterConfig, keyWith, quiet, until } from './support.js';
import { clusterPerFile } from './per-file.js';

const cluster = clusterPerFile();
const PARTITIONS = 4;

interface Side {
  readonly url: string;
  readonly ingest: string;
  readonly moderate: string;
}

/** A senior moderator's key labelled Mia (bulk suspensions need senior) in `db`: both sides' events name the same moderator. */
async function mia(db: string): Promise<string> {
  const store = await openPostgresStore(db);
  try {
    return (await createKey(store, ['senior'], 'Mia')).key;
  } finally {
    await store.close();
  }
}

/** Drops what each side fills from its own clock: a moderator event's time, a team answer's clock, audit cursors (made of times). */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  const own = new Set(['now', 'cursor', 'next', ...(record.moderator === 'Mia' ? ['time'] : [])]);
  return Object.fromEntries(
    Object.entries(record).flatMap(([k, v]) => {
      if (own.has(k)) return [];
      // Waits end at each side's own decision time: equal to within the seconds between the two requests.
      if (k.endsWith('Seconds') && typeof v === 'number') return [[k, Math.round(v / 60)]];
      return [[k, comparable(v)]];
    }),
  );
}

async function send(side: Side, method: 'GET' | 'POST', path: string, key: keyof Omit<Side, 'url'>, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${side.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${side[key]}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: comparable(await response.json()) };
}

describe('issue 28: bulk actions and team figures through a gateway', () => {
  let serve: RunningService | undefined;
  afterAll(async () => serve?.close());

  it('answers every bulk request and GET /v1/team as standing serve does, and ends with the same audit log', async () => {
    const [serveDb, clusterDb] = [await freshPostgresUrl(), await freshPostgresUrl()];
    const settle = <C extends ReturnType<typeof clusterConfig>>(c: C): C => ({ ...c, rankingRefreshMs: 0, alerts: { ...c.alerts, intervalMs: 0 } });
    serve = await startService(settle(clusterConfig(serveDb, cluster.nats.urls, { partitions: PARTITIONS })), quiet);
    const config = settle(clusterConfig(clusterDb, cluster.nats.urls, { partitions: PARTITIONS }));
    const gateway = await cluster.gateway(config);
    const workers = [await cluster.worker(config, 'w1'), await cluster.worker(config, 'w2')];
    await until('the workers to hold half the partitions each', () => (workers.every((w) => w.partitions().length === PARTITIONS / 2) ? true : undefined));
    const sides: Side[] = [];
    for (const [url, db] of [
      [serve.url, serveDb],
      [gateway.url, clusterDb],
    ] as const) {
      sides.push({ url, ingest: await keyWith(db, ['ingest']), moderate: await mia(db) });
    }

    // Reports two hours ago: the players' cases wait from then.
    const reported = Date.now() - 2 * 3_600_000;
    const events = [
      ...['ann', 'bob', 'cid'].map((to, i) => ({ id: `k${i}`, community: 'eu', time: reported + i, type: 'report', from: 'rex', to })),
      { id: 'o1', community: 'eu', time: reported + 10, type: 'appeal', player: 'dan', status: 'opened', text: 'why' },
    ];
    const suspend = { community: 'eu', id: 'sweep-1', type: 'sanction', action: 'suspend', until: '2099-01-01T00:00:00Z', reason: 'boosting ring' };
    const steps: [string, 'GET' | 'POST', string, keyof Omit<Side, 'url'>, unknown?][] = [
      ['the reports', 'POST', '/v1/events', 'ingest', events],
      ['the team figures before any decision', 'GET', '/v1/team?community=eu', 'moderate'],
      ['a bulk suspension of two players', 'POST', '/v1/moderation/bulk', 'moderate', { ...suspend, players: ['ann', 'bob'] }],
      ['the same request again', 'POST', '/v1/moderation/bulk', 'moderate', { ...suspend, players: ['ann', 'bob'] }],
      ['the same id naming one more player', 'POST', '/v1/moderation/bulk', 'moderate', { ...suspend, players: ['ann', 'bob', 'cid'] }],
      ['101 players', 'POST', '/v1/moderation/bulk', 'moderate', { ...suspend, id: 'sweep-2', players: Array.from({ length: 101 }, (_, i) => `p${i}`) }],
      ['a query naming another community', 'POST', '/v1/moderation/bulk?community=na', 'moderate', { ...suspend, id: 'sweep-3', players: ['ann'] }],
      ['a verdict for two', 'POST', '/v1/moderation/bulk', 'moderate', { community: 'eu', id: 'review-1', players: ['ann', 'cid'], type: 'verdict', outcome: 'upheld', reason: 'same ring' }],
      ['the team figures after', 'GET', '/v1/team?community=eu', 'moderate'],
      ['the audit log', 'GET', '/v1/audit?community=eu&order=oldest', 'moderate'],
    ];
    const answers = new Map<string, { status: number; body: unknown }>();
    const differences: string[] = [];
    for (const [what, method, path, key, body] of steps) {
      const [single, clustered] = [await send(sides[0]!, method, path, key, body), await send(sides[1]!, method, path, key, body)];
      answers.set(what, single);
      // Each side made its own key for Mia: events name it by its id (moderatorKey), compared as one.
      const [a, b] = [single, clustered].map((answer, i) => JSON.stringify(answer).replaceAll(sides[i]!.moderate.split('_')[1]!, '<Mia>'));
      if (a !== b) differences.push(`${what}:\n  serve   ${a}\n  cluster ${b}`);
    }
    expect(differences.join('\n')).toBe('');

    // The answers say what the steps meant.
    expect(answers.get('a bulk suspension of two players')).toMatchObject({ status: 201, body: { recorded: 2, duplicates: 0 } });
    expect(answers.get('the same request again')).toMatchObject({ status: 200, body: { recorded: 0, duplicates: 2 } });
    expect(answers.get('the same id naming one more player')).toMatchObject({ status: 201, body: { recorded: 1, duplicates: 2 } });
    expect(answers.get('101 players')).toMatchObject({ status: 400, body: { error: 'REQUEST_INVALID', limit: 100 } });
    expect(answers.get('a query naming another community')?.status).toBe(400);
    // Three players reported once each are tied, in no scorer's bad tail: the queue is dan's appeal.
    expect(answers.get('the team figures before any decision')).toMatchObject({ status: 200, body: { decisions: { total: 0 }, queue: { length: 1, dated: 1 } } });
    const after = answers.get('the team figures after')!.body as { decisions: Record<string, number>; waits: { case: string; by: string; count: number; medianSeconds?: number }[]; queue: { length: number } };
    expect(after.decisions).toMatchObject({ total: 5, sanctions: 3, verdicts: 2 });
    // Three cases closed, each about two hours after its report (in minutes here); the verdicts followed no new signal.
    expect(after.waits[0]).toMatchObject({ case: 'player', by: 'moderator', count: 3, medianSeconds: 120 });
    const audit = answers.get('the audit log')!.body as { entries: { player: string; moderator: string; event: { id: string; bulk?: string } }[] };
    expect(audit.entries.filter((e) => e.event.bulk === 'sweep-1').map((e) => [e.player, e.moderator, e.event.id])).toEqual(['ann', 'bob', 'cid'].map((p) => [p, 'Mia', bulkEventId('sweep-1', p)]));
  });
});
