/**
 * issue 28, point 7: POST /v1/moderation/bulk over real HTTP on a real store (a SQLite file, and
 * PostgreSQL when reachable): one sanction or verdict for several players, each its own audited
 * event with an id made from the request's id and the player; a retry records nothing twice; the
 * bound on players and every other refusal stores nothing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { BulkRecorded } from '../../src/http/schemas/bulk.js';
import { bulkEventId } from '../../src/http/routes/bulk.js';
import { StandingClient } from '../../src/client/index.js';
import { createKey } from '../../src/service/keys.js';
import { dropPostgresSchemas, freshPostgresUrl, postgresAvailable } from '../support/postgres.js';
import { json, startTestService, tempDb, type TestService } from './support.js';

afterAll(dropPostgresSchemas);

const T0 = '2026-11-01T10:00:00Z';
const SUSPEND = { type: 'sanction', action: 'suspend', until: '2099-01-01T00:00:00Z', reason: 'boosting ring' } as const;

interface AuditEntry {
  action: string;
  player?: string;
  moderator?: string;
  moderatorKey?: string;
  event: Record<string, unknown>;
}

async function withService(db: string, work: (t: TestService, mia: string) => Promise<void>): Promise<void> {
  const t = await startTestService({ db, scorers: [{ scorer: 'cqr' }, { scorer: 'reports' }] });
  try {
    const mia = (await createKey(t.service.store, ['senior'], 'Mia')).key;
    await work(t, mia);
  } finally {
    await t.close();
  }
}

async function bulk(t: TestService, key: string, body: unknown): Promise<{ status: number; body: BulkRecorded & { error?: string; message?: string; limit?: number } }> {
  const response = await t.call('/v1/moderation/bulk', { ...json(body), key });
  return { status: response.status, body: (await response.json()) as never };
}

async function audit(t: TestService, key: string, query: string): Promise<AuditEntry[]> {
  const response = await t.call(`/v1/audit?${query}`, { key });
  expect(response.status).toBe(200);
  return ((await response.json()) as { entries: AuditEntry[] }).entries;
}

const STORES: [string, () => Promise<string> | string, boolean][] = [
  ['a SQLite file', tempDb, true],
  ['PostgreSQL', freshPostgresUrl, postgresAvailable],
];

describe.each(STORES)('issue 28: bulk actions on %s', (_name, makeDb, available) => {
  it.skipIf(!available)('suspends several players, each its own audited event; a retry records nothing twice, a retry naming one more player records only that one', async () => {
    await withService(await makeDb(), async (t, mia) => {
      const first = await bulk(t, mia, { community: 'b', id: 'sweep-7', players: ['ann', 'bob'], ...SUSPEND });
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      expect(first.body).toMatchObject({ community: 'b', id: 'sweep-7', recorded: 2, duplicates: 0 });
      expect(first.body.results.map((r) => [r.player, r.duplicate, r.event.id, r.event.bulk, r.event.moderator, r.event.action])).toEqual([
        ['ann', false, bulkEventId('sweep-7', 'ann'), 'sweep-7', 'Mia', 'suspend'],
        ['bob', false, bulkEventId('sweep-7', 'bob'), 'sweep-7', 'Mia', 'suspend'],
      ]);
      expect(first.body.results.map((r) => r.sequence)).toEqual([1, 2]);
      expect(first.body.results[0]!.event.until).toBe(Date.parse('2099-01-01T00:00:00Z'));

      // The same request again: nothing new, the stored events as the first answer gave them.
      const again = await bulk(t, mia, { community: 'b', id: 'sweep-7', players: ['ann', 'bob'], ...SUSPEND });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ ...first.body, recorded: 0, duplicates: 2, results: first.body.results.map((r) => ({ ...r, duplicate: true })) });

      // One more player under the same id: only that one is recorded.
      const more = await bulk(t, mia, { community: 'b', id: 'sweep-7', players: ['bob', 'cid', 'ann'], ...SUSPEND });
      expect(more.status).toBe(201);
      expect(more.body.results.map((r) => [r.player, r.duplicate, r.sequence])).toEqual([
        ['bob', true, 2],
        ['cid', false, 3],
        ['ann', true, 1],
      ]);

      // Audited: one entry per player, by Mia, naming the request; each player's case shows the suspension.
      const entries = await audit(t, mia, 'community=b&action=sanction.suspend&order=oldest');
      expect(entries.map((e) => [e.player, e.moderator, e.event.bulk, e.event.id])).toEqual(['ann', 'bob', 'cid'].map((p) => [p, 'Mia', 'sweep-7', bulkEventId('sweep-7', p)]));
      // Each names the acting key by its id too, as every moderator event does.
      const miaId = (await t.service.store.listKeys()).find((k) => k.label === 'Mia')!.id;
      expect(entries.map((e) => e.moderatorKey)).toEqual([miaId, miaId, miaId]);
      const store = t.service.store;
      expect((await store.read('b')).map((s) => s.event.id)).toEqual(['ann', 'bob', 'cid'].map((p) => bulkEventId('sweep-7', p)));
      const client = new StandingClient({ url: t.url, key: mia });
      for (const player of ['ann', 'bob', 'cid']) {
        const record = (await client.case(player, { community: 'b' })).record;
        expect(record.sanctions).toMatchObject([{ action: 'suspend', active: true, moderator: 'Mia', reason: 'boosting ring' }]);
      }

      // A verdict for all, through the client.
      const verdicts = await client.bulk({ community: 'b', id: 'review-1', players: ['ann', 'cid'], type: 'verdict', outcome: 'upheld', reason: 'same ring' });
      expect(verdicts.results.map((r) => [r.player, r.event.type, r.event.on, r.event.outcome])).toEqual([
        ['ann', 'verdict', 'player', 'upheld'],
        ['cid', 'verdict', 'player', 'upheld'],
      ]);
    });
  });
});

describe('issue 28: bulk refusals', () => {
  it('refuses more than 100 players (400 naming the limit), a player named twice, a verdict without outcome, a suspension without until, a mixed body — and stores nothing', async () => {
    await withService(tempDb(), async (t, mia) => {
      const players = (n: number) => Array.from({ length: n }, (_, i) => `p${i}`);
      const over = await bulk(t, mia, { community: 'r', id: 'big', players: players(101), type: 'verdict', outcome: 'dismissed', reason: 'r' });
      expect(over.status).toBe(400);
      expect(over.body).toMatchObject({ error: 'REQUEST_INVALID', limit: 100 });
      expect(over.body.message).toBe('body/players names 101 players, over the limit of 100 per bulk request: send them in several requests, each with its own id');
      const twice = await bulk(t, mia, { community: 'r', id: 'twice', players: ['ann', 'bob', 'ann'], ...SUSPEND });
      expect(twice).toMatchObject({ status: 400, body: { error: 'REQUEST_INVALID', message: 'body/players/2 repeats "ann" (body/players/0): name each player once' } });
      const refusals: [unknown, string][] = [
        [{ type: 'verdict', reason: 'r' }, 'body/outcome is required for a verdict'],
        [{ type: 'verdict', outcome: 'upheld', action: 'ban', reason: 'r' }, 'body/action belongs to a sanction'],
        [{ type: 'sanction', reason: 'r' }, 'body/action is required for a sanction'],
        [{ type: 'sanction', action: 'suspend', reason: 'r' }, 'body/until is required for "suspend"'],
        [{ type: 'sanction', action: 'ban', until: '2099-01-01T00:00:00Z', reason: 'r' }, 'body/until is refused for "ban"'],
        [{ type: 'sanction', action: 'warn', reason: '   ' }, 'body/reason must not be blank'],
        [{ type: 'sanction', action: 'lift', reason: 'r' }, 'body/action must be equal to one of the allowed values'],
        [{ type: 'sanction', action: 'warn', reason: 'r', moderator: 'Boss' }, 'body/moderator is set by the service'],
      ];
      for (const [fields, message] of refusals) {
        const answer = await bulk(t, mia, { community: 'r', id: 'x', players: ['ann', 'bob'], ...(fields as object) });
        expect(answer.status, JSON.stringify(fields)).toBe(400);
        expect(answer.body.message, JSON.stringify(fields)).toContain(message);
      }
      expect((await bulk(t, mia, { community: 'r', id: 'x'.repeat(65), players: ['ann'], ...SUSPEND })).status).toBe(400);
      expect((await bulk(t, mia, { community: 'r', id: 'x', players: [], ...SUSPEND })).status).toBe(400);
      const query = await t.call('/v1/moderation/bulk?community=other', { ...json({ community: 'r', id: 'x', players: ['ann'], ...SUSPEND }), key: mia });
      expect(query.status).toBe(400);
      expect((await t.call('/v1/moderation/bulk', { ...json({ community: 'r', id: 'x', players: ['ann'], ...SUSPEND }), key: t.keys.read })).status).toBe(403);
      expect(await t.service.store.read('r')).toEqual([]);

      // Exactly 100 is taken.
      const hundred = await bulk(t, mia, { community: 'r', id: 'full', players: players(100), type: 'verdict', outcome: 'dismissed', reason: 'r' });
      expect(hundred.status).toBe(201);
      expect(hundred.body.recorded).toBe(100);
    });
  });

  it('refuses a request one of whose ids already names another event (409), storing nothing', async () => {
    await withService(tempDb(), async (t, mia) => {
      const taken = bulkEventId('sweep-9', 'bob');
      const ingest = await t.call('/v1/events', { ...json([{ community: 'k', type: 'action', time: T0, id: taken, player: 'zed', delta: 1 }]), key: t.keys.ingest });
      expect(ingest.status).toBe(200);
      const answer = await bulk(t, mia, { community: 'k', id: 'sweep-9', players: ['ann', 'bob'], ...SUSPEND });
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({ error: 'MODERATION_CONFLICT', message: `body/players/1: id "${taken}" already names another event of community "k" than a moderator event about "bob"` });
      expect((await t.service.store.read('k')).map((s) => s.event.id)).toEqual([taken]);
    });
  });

  it('holds the roles and claims as one by one: a moderate key may warn in bulk but not suspend (403), and a case another claimed refuses the request (409), storing nothing', async () => {
    await withService(tempDb(), async (t, mia) => {
      const ole = (await createKey(t.service.store, ['moderate'], 'Ole')).key;
      const refused = await bulk(t, ole, { community: 'r', id: 'sweep-r1', players: ['ann', 'bob'], ...SUSPEND });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error: 'FORBIDDEN', message: expect.stringContaining('lacks scope "senior": a suspension needs a senior moderator') });
      const warned = await bulk(t, ole, { community: 'r', id: 'sweep-r2', players: ['ann', 'bob'], type: 'sanction', action: 'warn', reason: 'chat' });
      expect(warned.status).toBe(201);
      // Mia claims bob's case: Ole's bulk action naming bob is refused whole.
      const claim = await t.call('/v1/players/bob/case/claim', { ...json({ community: 'r', minutes: 5 }), key: mia });
      expect(claim.status).toBe(200);
      const claimed = await bulk(t, ole, { community: 'r', id: 'sweep-r3', players: ['ann', 'bob'], type: 'verdict', outcome: 'upheld', reason: 'ring' });
      expect(claimed.status).toBe(409);
      expect(claimed.body).toMatchObject({ error: 'CASE_CLAIMED', message: expect.stringContaining('claimed by "Mia"') });
      expect((await t.service.store.read('r')).map((s) => s.event.id)).toEqual(['ann', 'bob'].map((p) => bulkEventId('sweep-r2', p)));
    });
  });
});
