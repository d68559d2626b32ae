/**
 * issue 25: one question gets one answer. The same corpus of batches and requests — the classes a
 * gateway once acknowledged and a worker then skipped (domain payloads, domain state conflicts,
 * second open appeals, valid events sharing a batch with those, a corrected retry with the same
 * ids, a re-send after an erasure, numbers JSON cannot carry), the hostile inputs of issue 14,
 * moderation actions, and erasures (of a player, again, and of one no event names) — goes to a
 * `standing serve` and to a cluster (a gateway, two workers, three real nats-server processes,
 * PostgreSQL behind both), one request at a time: every answer is the same (status, code,
 * problems with index and field, counts, sequences, what an erasure removed), and so is the
 * final state (communities, every ranking, cases, the audit log). Issue 28 adds appeals against a
 * sanction the player does not have, ids holding bidirectional or zero-width characters, and the
 * erasure of a reporter whose reports were judged (the verdicts about the reported player stay).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { partitionOf } from '../../src/store/partitions.js';
import { startService, type RunningService } from '../../src/app/serve.js';
import { ATTACKS, T0 } from '../support/hostile-batches.js';
import { freshPostgresUrl } from '../support/postgres.js';
import { clusterConfig, keyWith, quiet, until } from './support.js';
import { clusterPerFile } from './per-file.js';

const cluster = clusterPerFile();
const PARTITIONS = 8;

/** `eu` and `eu2` share a partition; `na` has another. */
const EU = 'eu';
const EU2 = Array.from({ length: 100 }, (_, i) => `eu${i + 2}`).find((c) => partitionOf(c, PARTITIONS) === partitionOf(EU, PARTITIONS))!;
const NA = ['na', 'us', 'asia', 'oce', 'sa'].find((c) => partitionOf(c, PARTITIONS) !== partitionOf(EU, PARTITIONS))!;

interface Keys {
  readonly ingest: string;
  readonly read: string;
  readonly moderate: string;
  readonly admin: string;
}

interface Side {
  readonly url: string;
  readonly keys: Keys;
}

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/** One request of the corpus: sent alike to both sides. */
interface Step {
  readonly what: string;
  readonly method?: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  readonly key: keyof Keys;
  /** A JSON body (serialized here) or the exact text. */
  readonly body?: unknown;
  readonly text?: string;
  readonly contentType?: string;
}

async function keysIn(db: string): Promise<Keys> {
  return { ingest: await keyWith(db, ['ingest']), read: await keyWith(db, ['read']), moderate: await keyWith(db, ['moderate']), admin: await keyWith(db, ['admin']) };
}

/**
 * What each deployment fills from its own clock or keys, and only that: a moderator event's
 * moderator and moderatorKey (the id of the key each side made) and time (the clock when it was recorded), an
 * alert's creation and its time (a moderator event's, here), a case's `now`, and the audit
 * cursors made of those times. Everything else must be equal.
 */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  const own = new Set(['now', 'cursor', 'next', ...('moderator' in record ? ['moderator', 'moderatorKey', 'time'] : []), ...('threshold' in record ? ['createdAt', 'time'] : [])]);
  return Object.fromEntries(Object.entries(record).flatMap(([k, v]) => (own.has(k) ? [] : [[k, comparable(v)]])));
}

/**
 * `state` with each queue entry's attention allowed to differ by what each deployment's clock
 * makes of it: attention decays with the age of the player's newest bad evidence at the
 * community's clock, here a moderator event's time (each side's own), with a half-life of days;
 * the milliseconds between the two sides' moderator events move it by far less than 1e-6.
 */
function allowingClocks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(allowingClocks);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'attention' && typeof v === 'number' ? expect.closeTo(v, 6) : allowingClocks(v)]));
}

async function send(side: Side, step: Step): Promise<Answer> {
  const text = step.text ?? (step.body === undefined ? undefined : JSON.stringify(step.body));
  const response = await fetch(`${side.url}${step.path}`, {
    method: step.method ?? (text === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${side.keys[step.key]}`, ...(text === undefined ? {} : { 'content-type': step.contentType ?? 'application/json' }) },
    ...(text === undefined ? {} : { body: text }),
  });
  const body = response.headers.get('content-type')?.includes('json') === true ? await response.json() : await response.text();
  return { status: response.status, body: comparable(body) };
}

const action = (id: string, community: string, player: string, delta: number, extra: Record<string, unknown> = {}) => ({ id, community, time: T0 + Number(id.replace(/\D/g, '') || 0), type: 'action', player, delta, ...extra });
const forum = (id: string, community: string, player: string, op: 'post' | 'edit', post: string, text?: string) => ({ id, community, time: T0 + 500, type: 'action', player, domain: 'forum', op, post, ...(text === undefined ? {} : { text }) });
const dot = (id: string, community: string, player: string, name: string, x: unknown, y: unknown, color?: string) => ({ id, community, time: T0 + 600, type: 'action', player, domain: 'clustering', dot: name, x, y, ...(color === undefined ? {} : { color }) });
const opening = (id: string, community: string, player: string, sanction?: string) => ({ id, community, time: T0 + 700, type: 'appeal', player, status: 'opened', text: 'I was lagging', ...(sanction === undefined ? {} : { sanction }) });
const events = (what: string, body: unknown[]): Step => ({ what, path: '/v1/events', key: 'ingest', body });

/** The corpus, in order: each step's answer may depend on the ones before. */
function corpus(): Step[] {
  return [
    events('valid events over three communities, two partitions', [
      action('a1', EU, 'ann', 5),
      forum('f1', EU, 'ann', 'post', 'p1', 'Grind finer for espresso.'),
      dot('d1', EU2, 'bob', 'dot1', 1, 2, 'red'),
      dot('d2', EU2, 'bob', 'dot2', 5, 5, 'blue'),
      action('n1', NA, 'cat', 3),
      { id: 'r1', community: NA, time: T0 + 10, type: 'action', player: 'cat', domain: 'recommendation', item: 'm1', stars: 4 },
      { id: 'k1', community: NA, time: T0 + 11, type: 'report', from: 'cat', to: 'dan' },
    ]),
    events('point 1: three valid eu actions, an edit of a post eu does not hold, two na actions', [
      action('a2', EU, 'ann', 1),
      action('a3', EU, 'bob', 2),
      action('a4', EU, 'cid', 3),
      forum('f2', EU, 'ann', 'edit', 'nope', 'changed'),
      action('n2', NA, 'cat', 1),
      action('n3', NA, 'dan', 1),
    ]),
    events('a corrected retry with the same ids', [action('a2', EU, 'ann', 1), action('a3', EU, 'bob', 2), action('a4', EU, 'cid', 3), forum('f2', EU, 'ann', 'edit', 'p1', 'changed'), action('n2', NA, 'cat', 1), action('n3', NA, 'dan', 1)]),
    events('the same batch again: duplicates', [action('a2', EU, 'ann', 1), action('n2', NA, 'cat', 1)]),
    events('an unknown domain beside valid events of another partition', [{ ...action('u1', EU, 'ann', 1), domain: 'chess', move: 'e4' }, action('n4', NA, 'cat', 1)]),
    events('a clustering move far off the board', [dot('d3', EU2, 'bob', 'dot1', 1e10, 1), action('n5', NA, 'cat', 1)]),
    events('a forum post without text', [forum('f3', EU, 'ann', 'post', 'p2'), action('n6', NA, 'cat', 1)]),
    events('recommendation stars out of range', [{ id: 'r2', community: NA, time: T0 + 12, type: 'action', player: 'cat', domain: 'recommendation', item: 'm1', stars: 1e12 }, action('a5', EU, 'ann', 1)]),
    { what: 'a number JSON cannot carry in a domain payload', path: '/v1/events', key: 'ingest', text: `[${JSON.stringify(action('a6', EU, 'ann', 1))},${JSON.stringify(dot('d4', EU2, 'bob', 'dot2', 0, 0)).replace('"x":0', '"x":1e999')}]` },
    events('a reused post id', [forum('f4', EU, 'bob', 'post', 'p1', 'mine now'), action('n7', NA, 'cat', 1)]),
    events('a move of a dot not on the board', [dot('d5', EU2, 'bob', 'ghost', 1, 1), action('n8', NA, 'cat', 1)]),
    events('the same conflicts in one partition only', [forum('f5', EU, 'bob', 'post', 'p1', 'again'), dot('d6', EU2, 'bob', 'ghost', 1, 1), action('a7', EU, 'ann', 1)]),
    events('valid domain actions over two partitions (checked, then applied)', [forum('f6', EU, 'bob', 'post', 'p3', 'Hello there.'), dot('d7', EU2, 'cid', 'dot1', 2, 2), action('n9', NA, 'cat', 2)]),
    events('an appeal opening', [opening('o1', EU, 'ann'), action('n10', NA, 'cat', 1)]),
    events('a second open appeal beside valid events of another partition', [opening('o2', EU, 'ann'), action('n11', NA, 'cat', 1)]),
    events('two openings in one batch', [opening('o3', NA, 'dan'), opening('o4', NA, 'dan'), action('a8', EU, 'bob', 1)]),
    events('a second opening and an invalid event: the invalid event is named', [opening('o5', EU, 'ann'), { ...action('a9', EU, 'bob', 1), delta: 'x' }]),
    { what: 'a sanction', path: `/v1/players/ann/sanctions?community=${EU}`, key: 'moderate', body: { community: EU, id: 's1', action: 'mute', reason: 'spam in chat' } },
    events('an appeal against the sanction', [opening('o6', EU, 'ann', 's1'), action('n12', NA, 'cat', 1)]),
    events('a second appeal against it', [opening('o7', EU, 'ann', 's1'), action('n13', NA, 'cat', 1)]),
    { what: 'a note', path: `/v1/players/bob/notes?community=${EU}`, key: 'moderate', body: { community: EU, id: 'm1', text: 'keep an eye on the dots' } },
    { what: 'issue 25: a sanction whose query names another community than its body', path: `/v1/players/ann/sanctions?community=${EU}`, key: 'moderate', body: { community: NA, id: 's2', action: 'warn', reason: 'spam' } },
    { what: 'issue 25: a note whose query names a community and whose body names none', path: `/v1/players/bob/notes?community=${NA}`, key: 'moderate', body: { id: 'm2', text: 'hi' } },
    events('issue 28: an appeal against a sanction the player does not have', [opening('o8', EU, 'ann', 'no-such-sanction'), action('n14', NA, 'cat', 1)]),
    events('issue 28: an appeal against another player’s sanction', [action('n15', NA, 'cat', 1), opening('o9', EU, 'bob', 's1')]),
    events('issue 28: ids with a bidirectional override and a zero-width space', [action('i1', EU, 'adm\u202Enimda\u202C', 1), action('i2', NA, 'b\u200Bob', 1), action('i3', NA, 'cat', 1)]),
    { what: 'issue 28: a note whose text holds them, kept as given', path: `/v1/players/bob/notes?community=${EU}`, key: 'moderate', body: { community: EU, id: 'm3', text: 'said adm\u202Enimda\u202C and z\u200Bw' } },
    events('issue 28: reports of a reporter to be erased', [
      { id: 'k2', community: NA, time: T0 + 30, type: 'report', from: 'rex', to: 'dan' },
      { id: 'k3', community: NA, time: T0 + 31, type: 'report', from: 'rex', to: 'dan' },
      { id: 'k4', community: NA, time: T0 + 32, type: 'report', from: 'dan', to: 'rex' },
    ]),
    { what: 'issue 28: a verdict on the reporter’s reports by pair', path: `/v1/reports/verdicts?community=${NA}`, key: 'moderate', body: { community: NA, id: 'v1', from: 'rex', to: 'dan', outcome: 'upheld', reason: 'seen it' } },
    { what: 'issue 28: a verdict on one of them by id', path: `/v1/reports/verdicts?community=${NA}`, key: 'moderate', body: { community: NA, id: 'v2', report: 'k3', outcome: 'dismissed', reason: 'no clip' } },
    { what: 'issue 28: a verdict on a report about the reporter', path: `/v1/reports/verdicts?community=${NA}`, key: 'moderate', body: { community: NA, id: 'v3', report: 'k4', outcome: 'upheld', reason: 'rex griefed' } },
    { what: 'issue 28: the erasure of the reporter', method: 'DELETE', path: '/v1/players/rex', key: 'admin' },
    ...ATTACKS.map((attack): Step => ({ what: `issue 14: ${attack.name}`, path: '/v1/events', key: 'ingest', text: attack.body, contentType: attack.contentType ?? 'application/json' })),
    { what: 'issue 25: an erasure of a player no event names', method: 'DELETE', path: '/v1/players/nobody-at-all', key: 'admin' },
    events('events of a player to be erased', [action('e1', EU, 'eve', 4), action('e2', NA, 'eve', 4), { id: 'e3', community: NA, time: T0 + 20, type: 'rating', from: 'cat', to: 'eve', value: 1 }]),
    { what: 'the erasure', method: 'DELETE', path: '/v1/players/eve', key: 'admin' },
    { what: 'issue 25: the same erasure again', method: 'DELETE', path: '/v1/players/eve', key: 'admin' },
    events('the same events again after the erasure', [action('e1', EU, 'eve', 4), action('e2', NA, 'eve', 4), { id: 'e3', community: NA, time: T0 + 20, type: 'rating', from: 'cat', to: 'eve', value: 1 }]),
  ];
}

/** What a side shows at the end: its communities, every ranking of each, the cases of the players named, the audit log. */
async function finalState(side: Side, instances: readonly string[]): Promise<unknown> {
  const read = (path: string, key: keyof Keys = 'read') => send(side, { what: path, path, key });
  const state: Record<string, unknown> = { communities: await read('/v1/communities') };
  for (const community of [EU, EU2, NA]) {
    for (const instance of instances) state[`${community} ${instance}`] = await read(`/v1/rankings/${instance}?community=${community}`);
    for (const player of ['ann', 'bob', 'cat', 'dan', 'eve']) state[`${community} ${player} case`] = await read(`/v1/players/${player}/case?community=${community}`, 'moderate');
  }
  state.audit = await read('/v1/audit?limit=100', 'moderate');
  return state;
}

describe('issue 25: serve and the cluster answer alike', () => {
  let serve: RunningService | undefined;
  afterAll(async () => serve?.close());

  it('gives the same answer to every request of the corpus, and ends in the same state', async () => {
    const serveDb = await freshPostgresUrl();
    const clusterDb = await freshPostgresUrl();
    // Alerts checked after every commit (intervalMs 0): with the default of once a second, the
    // sequence an alert is raised at depends on when each batch arrives, on either side.
    const settle = <C extends ReturnType<typeof clusterConfig>>(c: C): C => ({ ...c, rankingRefreshMs: 0, alerts: { ...c.alerts, intervalMs: 0 } });
    const serveConfig = settle(clusterConfig(serveDb, cluster.nats.urls, { partitions: PARTITIONS }));
    const config = settle(clusterConfig(clusterDb, cluster.nats.urls, { partitions: PARTITIONS }));
    serve = await startService(serveConfig, quiet);
    const gateway = await cluster.gateway(config);
    const workers = [await cluster.worker(config, 'w1'), await cluster.worker(config, 'w2')];
    // Both settled on their half: no hand-over during the corpus (a read would answer 503 meanwhile, as a client retries).
    await until('the workers to hold half the partitions each', () => (workers.every((w) => w.partitions().length === PARTITIONS / 2) ? true : undefined));
    const sides: Side[] = [
      { url: serve.url, keys: await keysIn(serveDb) },
      { url: gateway.url, keys: await keysIn(clusterDb) },
    ];
    const differences: string[] = [];
    const statuses = new Map<string, number>();
    for (const step of corpus()) {
      const [single, clustered] = [await send(sides[0]!, step), await send(sides[1]!, step)];
      statuses.set(step.what, single.status);
      if (JSON.stringify(single) !== JSON.stringify(clustered)) differences.push(`${step.what}:\n  serve   ${JSON.stringify(single)}\n  cluster ${JSON.stringify(clustered)}`);
    }
    expect(differences.join('\n')).toBe('');
    // The corpus holds what it says: refusals, acceptances and a retry's duplicates.
    expect(statuses.get('valid events over three communities, two partitions')).toBe(200);
    expect(statuses.get('point 1: three valid eu actions, an edit of a post eu does not hold, two na actions')).toBe(400);
    expect(statuses.get('a corrected retry with the same ids')).toBe(200);
    expect(statuses.get('a second appeal against it')).toBe(400);
    expect(statuses.get('issue 25: a sanction whose query names another community than its body')).toBe(400);
    expect(statuses.get('issue 25: a note whose query names a community and whose body names none')).toBe(400);
    expect(statuses.get('issue 25: an erasure of a player no event names')).toBe(404);
    expect(statuses.get('the erasure')).toBe(200);
    expect(statuses.get('issue 25: the same erasure again')).toBe(404);
    expect(statuses.get('the same events again after the erasure')).toBe(200);
    expect(statuses.get('issue 28: an appeal against a sanction the player does not have')).toBe(400);
    expect(statuses.get('issue 28: an appeal against another player’s sanction')).toBe(400);
    expect(statuses.get('issue 28: ids with a bidirectional override and a zero-width space')).toBe(400);
    expect(statuses.get('issue 28: a note whose text holds them, kept as given')).toBe(201);
    expect(statuses.get('issue 28: the erasure of the reporter')).toBe(200);
    // The cluster's audit log keeps the verdicts about dan, without the erased reporter; the one about rex is gone.
    const verdicts = (await send(sides[1]!, { what: 'audit', path: `/v1/audit?community=${NA}&action=verdict&order=oldest`, key: 'moderate' })).body as { entries: { player: string; event: Record<string, unknown> }[] };
    expect(verdicts.entries.map((e) => [e.event.id, e.player, e.event.to, e.event.reporterErased, e.event.from, e.event.report])).toEqual([
      ['v1', 'dan', 'dan', true, undefined, undefined],
      ['v2', 'dan', 'dan', true, undefined, undefined],
    ]);
    const instances = serve.live.instances.map((i) => i.name);
    expect(await finalState(sides[1]!, instances)).toEqual(allowingClocks(await finalState(sides[0]!, instances)));
  });
});
