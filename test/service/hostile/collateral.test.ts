/**
 * One client's bad input never fails another's (issue 14, points 2, 3 and 8). Each attack goes to
 * a real service (SQLite; PostgreSQL for what only PostgreSQL cannot store) while innocent
 * clients post valid batches concurrently: the attacker gets the documented answer, every
 * innocent batch gets 200, nothing of the attacker is stored, and after a restart every
 * community is there, distinct, with the same sequence. Then: a group commit the store refuses
 * is retried batch by batch (a SQLite trigger in the test's own file refuses one batch); every
 * accepted player id is readable and erasable through the API; the 413s name their limits.
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { LiveEngine } from '../../../src/service/live-engine.js';
import { openSqliteStore } from '../../../src/store/sqlite.js';
import { dropPostgresSchemas, freshPostgresUrl, postgresAvailable } from '../../support/postgres.js';
import { fullReplay, freshInstances, QUALITY, sqlitePath, view } from '../../unit/service/support.js';
import { startTestService, tempDb, type TestService } from '../support.js';
import { MAX_ID_LENGTH } from '../../../src/events/limits.js';
import { ATTACKS, T0, valid, type Attack } from '../../support/hostile-batches.js';

afterAll(dropPostgresSchemas);


/** Innocent communities: plain, unicode (astral characters included) and "__proto__". */
const INNOCENT = ['plain', 'ünïcødé 日本', 'c😀', 'c😁', '__proto__', 'a/b%c?d#e f'];
const CLIENTS = INNOCENT.length;
const BATCHES = 6;
const EVENTS = 10;

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

async function send(t: TestService, body: string, contentType = 'application/json'): Promise<Answer> {
  const response = await t.call('/v1/events', { method: 'POST', body, headers: { 'content-type': contentType }, key: t.keys.ingest });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** One innocent client: BATCHES batches of EVENTS valid events in its own community, one after another. */
async function innocentClient(t: TestService, client: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const batch = Array.from({ length: EVENTS }, (_, i) => ({
      type: 'action',
      time: T0 + b * EVENTS + i,
      id: `${client}-${b}-${i}`,
      community: INNOCENT[client],
      player: `p${i % 3}`,
      delta: i - 4,
    }));
    answers.push(await send(t, JSON.stringify(batch)));
  }
  return answers;
}

/** Communities and their sequences, and each one's cqr ranking, as the API shows them. */
async function state(t: TestService): Promise<unknown> {
  const { communities } = (await (await t.call('/v1/communities', { key: t.keys.read })).json()) as { communities: { community: string }[] };
  const rankings = [];
  for (const { community } of communities) {
    rankings.push(await (await t.call(`/v1/rankings/cqr?community=${encodeURIComponent(community)}`, { key: t.keys.read })).json());
  }
  return { communities, rankings };
}

/** Runs every attack, `rounds` times, while the innocent clients post; checks every answer. */
async function underAttack(t: TestService, attacks: readonly Attack[], rounds: number): Promise<void> {
  const attacker = async (): Promise<void> => {
    for (let r = 0; r < rounds; r++) {
      for (const attack of attacks) {
        const { status, body } = await send(t, attack.body, attack.contentType);
        expect(status, `${attack.name}: ${JSON.stringify(body)}`).toBe(400);
        expect(body.error).toBe('BATCH_REJECTED');
        const problems = body.problems as { index: number; line?: number; field: string; reason: string }[];
        expect(problems, attack.name).toHaveLength(1);
        const { reason, ...place } = attack.problem;
        expect(problems[0], attack.name).toMatchObject({ ...place, code: 'EVENT_INVALID' });
        expect(problems[0]!.reason, attack.name).toMatch(reason);
      }
    }
  };
  const [innocent] = await Promise.all([Promise.all(Array.from({ length: CLIENTS }, (_, c) => innocentClient(t, c))), attacker(), attacker()]);
  innocent.forEach((answers, c) => {
    answers.forEach((answer, b) => {
      expect(answer.status, `innocent client ${c} batch ${b}: ${JSON.stringify(answer.body)}`).toBe(200);
      expect(answer.body).toEqual({ accepted: EVENTS, duplicates: 0, sequences: { [INNOCENT[c]!]: (b + 1) * EVENTS } });
    });
  });
}

/** Only the innocent communities are stored, each whole; a restart shows the same state. */
async function checkStoredAndRestart(t: TestService, db: string): Promise<void> {
  const communities = await t.service.store.communities();
  expect([...communities].sort()).toEqual([...INNOCENT].sort());
  for (const community of INNOCENT) expect(await t.service.store.read(community)).toHaveLength(BATCHES * EVENTS);
  const before = await state(t);
  expect((before as { communities: unknown[] }).communities).toHaveLength(INNOCENT.length);
  await t.close();
  const again = await startTestService({ db }, t.keys);
  try {
    expect(await state(again)).toEqual(before);
    expect(new Set(await again.service.store.communities()).size).toBe(INNOCENT.length);
  } finally {
    await again.close();
  }
}

describe('issue 14: no collateral damage (SQLite)', () => {
  it('refuses each attack with its index, field and limit while every concurrent innocent batch is stored, and a restart keeps every community', async () => {
    const db = tempDb();
    const t = await startTestService({ db, logLevel: 'warn' });
    await underAttack(t, ATTACKS, 3);
    expect(t.logs()).not.toMatch(/"level":50/); // no request failed with a 500
    await checkStoredAndRestart(t, db);
  });

  it('retries a group whose commit the store refuses batch by batch: only the refused batch fails, innocent ones are stored once', async () => {
    const db = tempDb();
    const t = await startTestService({ db, logLevel: 'fatal' });
    try {
      // The test's own file refuses one batch at commit: nothing in the service can refuse it earlier.
      const raw = new Database(db);
      raw.exec(`CREATE TRIGGER refuse_poison BEFORE INSERT ON events WHEN NEW.body LIKE '%"poison"%' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
      raw.close();
      const poison = JSON.stringify([{ type: 'action', time: T0, player: 'poison', delta: 1, community: 'attacked' }]);
      const attacker = async (): Promise<number[]> => {
        const statuses: number[] = [];
        for (let i = 0; i < 20; i++) statuses.push((await send(t, poison)).status);
        return statuses;
      };
      const [innocent, ...attackers] = await Promise.all([Promise.all(Array.from({ length: CLIENTS }, (_, c) => innocentClient(t, c))), attacker(), attacker(), attacker()]);
      for (const statuses of attackers) expect(statuses.every((s) => s === 500)).toBe(true);
      innocent.forEach((answers, c) => answers.forEach((answer, b) => expect(answer.status, `innocent client ${c} batch ${b}: ${JSON.stringify(answer.body)}`).toBe(200)));
      for (const community of INNOCENT) expect(await t.service.store.read(community)).toHaveLength(BATCHES * EVENTS);
      expect(await t.service.store.communities()).not.toContain('attacked');
    } finally {
      await t.close();
    }
  });
});

describe('issue 14: group commit retry (live engine over a real SQLite file)', () => {
  it('commits each batch of a refused group alone, rebuilding domain states first, and reaches a full replay\u2019s state', async () => {
    const path = sqlitePath();
    const store = openSqliteStore(path);
    const live = await LiveEngine.open({ store, instances: freshInstances(), quality: QUALITY });
    const raw = new Database(path);
    raw.exec(`CREATE TRIGGER refuse_poison BEFORE INSERT ON events WHEN NEW.body LIKE '%"poison"%' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
    raw.close();
    const post = (player: string, op: string, id: string, text: string) => ({ type: 'action', time: T0, player, domain: 'forum', op, post: id, text });
    // Submitted in one turn: the first batch commits alone, the next three wait and form one group.
    const first = live.ingest([post('ann', 'post', 'a', 'hello there')]);
    const group = [
      live.ingest([post('bob', 'post', 'b', 'SHOUTING'), { type: 'action', time: T0, player: 'cid', delta: 3 }]),
      live.ingest([{ type: 'action', time: T0, player: 'poison', delta: 1 }]),
      live.ingest([post('bob', 'edit', 'b', 'calm now'), post('cid', 'post', 'c', 'hi')]),
    ];
    const outcomes = await Promise.allSettled([first, ...group]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[2] as PromiseRejectedResult).reason)).toMatch(/refused by the test/);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value.sequences.default : undefined))).toEqual([1, 3, undefined, 5]);
    expect((await store.read('default')).map((e) => e.event.player)).toEqual(['ann', 'bob', 'cid', 'bob', 'cid']);
    // The domain states are those of the stored log: a replay from nothing reaches the same state.
    expect(view(live.engine, live.communities())).toBe(await fullReplay(store));
    await live.close();
  });
});

describe.skipIf(!postgresAvailable)('issue 14: no collateral damage (PostgreSQL)', () => {
  it('refuses NUL and lone surrogates while concurrent innocent batches are stored; astral names stay distinct after a restart', async () => {
    const db = await freshPostgresUrl();
    const t = await startTestService({ db, logLevel: 'warn' });
    const collide: Attack[] = ['\ud800', '\ud801', '\udfff'].map((lone) => ({
      name: `community c${JSON.stringify(lone)}`,
      body: JSON.stringify([valid({ community: `c${lone}` })]),
      problem: { index: 0, field: 'community', reason: /lone UTF-16 surrogate/ },
    }));
    await underAttack(t, [...ATTACKS.filter((a) => /NUL|surrogate/.test(a.name)), ...collide], 2);
    expect(t.logs()).not.toMatch(/"level":50/);
    await checkStoredAndRestart(t, db);
  });
});

describe.skipIf(!postgresAvailable)('issue 14: ids in paths and query strings (PostgreSQL)', () => {
  it('answers a NUL or an over-long id in a path or a query with a 400 naming the parameter, not a store error', async () => {
    const t = await startTestService({ db: await freshPostgresUrl(), logLevel: 'warn' });
    try {
      const cases: [string, string, string][] = [
        ['DELETE', '/v1/players/a%00b', 'params/id must not contain a NUL character (U+0000)'],
        ['GET', '/v1/players/a%00b', 'params/id must not contain a NUL character (U+0000)'],
        ['GET', '/v1/players/a/history?scorer=cqr&community=c%00', 'querystring/community must not contain a NUL character (U+0000)'],
        ['GET', '/v1/players/a/explain?scorer=cqr&community=c%00', 'querystring/community must not contain a NUL character (U+0000)'],
        ['GET', '/v1/rankings/cqr?community=c%00', 'querystring/community must not contain a NUL character (U+0000)'],
        ['GET', '/v1/alerts?community=c%00', 'querystring/community must not contain a NUL character (U+0000)'],
        ['GET', '/v1/alerts?player=p%00', 'querystring/player must not contain a NUL character (U+0000)'],
        ['GET', '/v1/alerts?scorer=s%00', 'querystring/scorer must not contain a NUL character (U+0000)'],
        ['GET', `/v1/players/${'x'.repeat(MAX_ID_LENGTH + 1)}`, 'params/id must NOT have more than 128 characters'],
      ];
      for (const [method, path, message] of cases) {
        const response = await t.call(path, { method, key: t.keys.admin });
        expect(await response.json(), `${method} ${path}`).toEqual({ error: 'REQUEST_INVALID', message });
        expect(response.status).toBe(400);
      }
      expect(t.logs()).not.toMatch(/"level":50/);
    } finally {
      await t.close();
    }
  });
});

describe('issue 14: player ids through the API', () => {
  // Characters a URL path treats specially, unicode (one, two and three UTF-8 bytes, and astral),
  // and a no-break space (a tab is no id's since issue 28: ../../unit/events/id-characters.test.ts).
  const unit = fc.constantFrom('/', '%', '?', '#', ' ', '+', '&', '=', ';', '.', '~', '\\', '"', "'", '<', '>', ':', '@', 'a', 'Z', '0', 'é', '日', '😀', '\u00A0');
  const id = fc
    .array(unit, { minLength: 1, maxLength: MAX_ID_LENGTH })
    .map((parts) => parts.join(''))
    .filter((s) => s.length <= MAX_ID_LENGTH && s !== '.' && s !== '..');

  it('reads, explains, charts and erases every accepted id, percent-encoded, up to the maximum length (property)', async () => {
    const t = await startTestService({ logLevel: 'warn' });
    try {
      const check = async (player: string): Promise<void> => {
        const path = `/v1/players/${encodeURIComponent(player)}`;
        const posted = await send(t, JSON.stringify([{ type: 'action', time: T0, player, delta: 5 }, { type: 'report', time: T0, from: 'mod', to: player }]));
        expect(posted.status, JSON.stringify(posted.body)).toBe(200);
        const read = await t.call(path, { key: t.keys.read });
        expect(read.status, `GET ${path}`).toBe(200);
        expect(((await read.json()) as { player: string }).player).toBe(player);
        const explained = await t.call(`${path}/explain?scorer=cqr`, { key: t.keys.read });
        expect(explained.status, `explain ${path}`).toBe(200);
        expect(((await explained.json()) as { player: string }).player).toBe(player);
        const history = await t.call(`${path}/history?scorer=cqr&points=3`, { key: t.keys.read });
        expect(history.status, `history ${path}`).toBe(200);
        const erased = await t.call(path, { method: 'DELETE', key: t.keys.admin });
        expect(erased.status, `DELETE ${path}`).toBe(200);
        expect(await erased.json()).toMatchObject({ player, removed: 2 });
        expect((await t.call(path, { key: t.keys.read })).status).toBe(404);
      };
      // The longest ids, in the characters that encode longest.
      for (const player of ['日'.repeat(MAX_ID_LENGTH), '😀'.repeat(MAX_ID_LENGTH / 2), '%'.repeat(MAX_ID_LENGTH), '/'.repeat(MAX_ID_LENGTH), '..x', '. .']) await check(player);
      await fc.assert(fc.asyncProperty(id, check), { seed: 14, numRuns: 60 });
    } finally {
      await t.close();
    }
  });

  it('refuses the ids a URL cannot address: "." and ".." and ids over the maximum', async () => {
    const t = await startTestService({ logLevel: 'warn' });
    try {
      for (const [player, reason] of [
        ['.', /URL path segment/],
        ['..', /URL path segment/],
        ['日'.repeat(MAX_ID_LENGTH + 1), /longer than 128/],
      ] as const) {
        const answer = await send(t, JSON.stringify([{ type: 'match.start', time: T0, match: 'm', players: ['a', player] }]));
        expect(answer.status).toBe(400);
        expect((answer.body.problems as { field: string; reason: string }[])[0]).toMatchObject({ index: 0, field: 'players/1', reason: expect.stringMatching(reason) });
      }
    } finally {
      await t.close();
    }
  });
});

describe('issue 14: small parsing defects', () => {
  it('answers __proto__ and constructor keys the same way as JSON and as NDJSON, and pollutes nothing', async () => {
    const t = await startTestService({ logLevel: 'warn' });
    try {
      const proto = `${JSON.stringify(valid({ community: 'default' })).slice(0, -1)},"__proto__":{"polluted":true}}`;
      const asJson = await send(t, `[${proto}]`);
      const asNdjson = await send(t, proto, 'application/x-ndjson');
      expect(asJson.status).toBe(400);
      expect(asNdjson.status).toBe(400);
      expect(asJson.body.problems).toEqual([{ index: 0, code: 'EVENT_INVALID', field: '__proto__', reason: 'is a reserved key: "__proto__" is refused anywhere in an event' }]);
      expect(asNdjson.body.problems).toEqual([{ index: 0, line: 1, code: 'EVENT_INVALID', field: '__proto__', reason: 'is a reserved key: "__proto__" is refused anywhere in an event' }]);
      // constructor and prototype keys are plain extra fields, kept as they came.
      const ctor = `${JSON.stringify(valid({ community: 'default', id: 'k' })).slice(0, -1)},"constructor":{"prototype":{"polluted":true}}}`;
      expect((await send(t, `[${ctor}]`)).status).toBe(200);
      expect((await send(t, ctor.replace('"k"', '"k2"'), 'application/x-ndjson')).status).toBe(200);
      const stored = await t.service.store.read('default');
      expect(stored.map((e) => (e.event as unknown as Record<string, unknown>).constructor)).toEqual([{ prototype: { polluted: true } }, { prototype: { polluted: true } }]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it('names a community called __proto__ in the sequences it reached', async () => {
    const t = await startTestService({ logLevel: 'warn' });
    try {
      const answer = await send(t, JSON.stringify([valid({ community: '__proto__' }), valid({ community: 'constructor' }), valid({ community: 'toString' })]));
      expect(answer).toEqual({ status: 200, body: { accepted: 3, duplicates: 0, sequences: { ['__proto__']: 1, constructor: 1, toString: 1 } } });
      expect(Object.keys(answer.body.sequences as object).sort()).toEqual(['__proto__', 'constructor', 'toString']);
    } finally {
      await t.close();
    }
  });

  it('accepts an NDJSON body that starts with a byte-order mark', async () => {
    const t = await startTestService({ logLevel: 'warn' });
    try {
      const answer = await send(t, `\uFEFF${JSON.stringify(valid())}\n${JSON.stringify(valid())}`, 'application/x-ndjson');
      expect(answer).toEqual({ status: 200, body: { accepted: 2, duplicates: 0, sequences: { attacked: 2 } } });
    } finally {
      await t.close();
    }
  });

  it('applies a configured maxEventDepth, and refuses one above 256 at start', async () => {
    const t = await startTestService({ logLevel: 'warn', maxEventDepth: 3 });
    try {
      expect((await send(t, JSON.stringify([valid({ x: { a: [1] } })]))).status).toBe(200);
      const answer = await send(t, JSON.stringify([valid({ x: { a: [[1]] } })]));
      expect(answer.status).toBe(400);
      expect(answer.body.problems).toEqual([{ index: 0, code: 'EVENT_INVALID', field: 'x/a/0', reason: 'nests objects and arrays deeper than the limit of 3 levels (maxEventDepth)' }]);
    } finally {
      await t.close();
    }
    await expect(startTestService({ maxEventDepth: 257 })).rejects.toThrow('maxEventDepth expected integer to be less or equal to 256, got 257');
  });

  it('names the limit, its value and its configuration key in both 413 answers', async () => {
    const t = await startTestService({ logLevel: 'warn', bodyLimitBytes: 4096, maxBatchEvents: 3 });
    try {
      const tooMany = await send(t, JSON.stringify([valid(), valid(), valid(), valid()]));
      expect(tooMany).toEqual({
        status: 413,
        body: { error: 'BATCH_TOO_LARGE', message: 'batch of 4 events is over the limit of 3 events a batch may hold (maxBatchEvents)', limit: 3, key: 'maxBatchEvents' },
      });
      const tooBig = await send(t, JSON.stringify([valid({ pad: 'x'.repeat(5000) })]));
      expect(tooBig).toEqual({
        status: 413,
        body: { error: 'BODY_TOO_LARGE', message: 'the body is over the limit of 4096 bytes (bodyLimitBytes)', limit: 4096, key: 'bodyLimitBytes' },
      });
    } finally {
      await t.close();
    }
  });
});
