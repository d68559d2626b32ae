/**
 * issue 17: defects a review found in the moderation service, each over real HTTP on a real
 * SQLite file: the community clock (a backdated event does not end a sanction), retried actions,
 * appeal spam, the queue after an action with the default-like ranking refresh, erasure, blank
 * texts, report verdicts naming a non-report, and the record across a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerCase, Queue } from '../../src/http/schemas/moderation-queue.js';
import { createKey } from '../../src/service/keys.js';
import { DEFAULT_CONFIG, json, startTestService, tempDb, type TestService } from './support.js';

const HOUR = 3_600_000;
const SCORERS = [{ scorer: 'cqr' }, { scorer: 'reports' }];
/** Views are not refreshed during a test: a queue that is current after an action is so because the action changed its key. */
const REFRESH = { rankingRefreshMs: Math.max(DEFAULT_CONFIG.rankingRefreshMs, 600_000) };

let t: TestService;
let mia: string;

beforeAll(async () => {
  t = await startTestService({ scorers: SCORERS, ...REFRESH });
  mia = (await createKey(t.service.store, ['senior'], 'Mia')).key;
});
afterAll(async () => t.close());

async function post(path: string, body: unknown, key = mia): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await t.call(path, { ...json(body), key });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function ingest(events: Record<string, unknown>[], key = t.keys.ingest): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await t.call('/v1/events', { ...json(events), key });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const caseOf = async (community: string, player: string) => (await (await t.call(`/v1/players/${player}/case?community=${community}`, { key: mia })).json()) as PlayerCase;
const queueOf = async (community: string) => (await (await t.call(`/v1/queue?community=${community}`, { key: mia })).json()) as Queue;

/** Five players report `bad` in `community`, dated `time`. */
/** Nine players who help and `bad`, who harms: `bad` is the worst of ten under cqr, in its bad tail. */
const harmful = (community: string, bad: string, time: number) => [
  ...['g1', 'g2', 'g3', 'g4', 'g5', 'g6', 'g7', 'g8', 'g9'].map((player, i) => ({ type: 'action', community, time: time + i, player, delta: 5 })),
  { type: 'action', community, time: time + 10, player: bad, delta: -50 },
];
const reported = (community: string, bad: string, time: number) => ['r1', 'r2', 'r3', 'r4', 'r5'].map((from, i) => ({ type: 'report', community, time: time + i, id: `${community}-rep-${i}`, from, to: bad }));

describe('issue 17: the community clock never goes back', () => {
  it('keeps a sanction active, and the queue and case dated, when the game posts an event dated before it', async () => {
    const c = 'clock';
    const now = Date.now();
    expect((await ingest(reported(c, 'bob', now - 2 * HOUR))).status).toBe(200);
    const ban = await post('/v1/players/bob/sanctions', { community: c, action: 'ban', reason: 'cheating' });
    expect(ban.status).toBe(201);
    const banTime = (ban.body.event as { time: number }).time;
    // An event dated an hour before the ban, applied after it; the community's first case and queue come after it.
    expect((await ingest([{ type: 'action', community: c, time: now - HOUR, player: 'ann', delta: 1 }])).status).toBe(200);
    const after = await caseOf(c, 'bob');
    expect(after.now).toBe(banTime);
    expect(after.record.sanctions.map((s) => [s.action, s.active])).toEqual([['ban', true]]);
    expect(t.service.moderation.facts(c, 'bob', t.service.moderation.clock(c)).activeSanctions).toEqual(['ban']);
  });
});

describe('issue 17: a retried action is answered with the stored event', () => {
  it('answers 200 to a lift, a decision, a verdict, a note, a sanction and an appeal sent again with the same id, after it took effect', async () => {
    const c = 'retry';
    const actions: [string, Record<string, unknown>][] = [
      ['/v1/players/bob/sanctions', { community: c, id: 'ban-1', action: 'ban', reason: 'cheating' }],
      ['/v1/players/bob/appeals', { community: c, id: 'ap-1', sanction: 'ban-1', text: 'my brother played' }],
      ['/v1/players/bob/appeals/ap-1/decision', { community: c, id: 'dec-1', outcome: 'denied', reason: 'same device, same pattern' }],
      ['/v1/players/bob/sanctions', { community: c, id: 'lift-1', action: 'lift', sanction: 'ban-1', reason: 'served' }],
      ['/v1/players/bob/verdicts', { community: c, id: 'ver-1', outcome: 'upheld', reason: 'seen in replay' }],
      ['/v1/players/bob/notes', { community: c, id: 'note-1', text: 'asked twice' }],
    ];
    const first = [];
    for (const [path, body] of actions) {
      const answer = await post(path, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      first.push(answer.body);
    }
    for (const [i, [path, body]] of actions.entries()) {
      const again = await post(path, body);
      expect(again.status, `${path} ${JSON.stringify(again.body)}`).toBe(200);
      expect(again.body).toMatchObject({ duplicate: true, sequence: first[i]!.sequence, event: first[i]!.event });
    }
    // A new lift of the lifted ban is still a conflict; an id naming another player's event too.
    expect((await post('/v1/players/bob/sanctions', { community: c, action: 'lift', sanction: 'ban-1', reason: 'again' })).status).toBe(409);
    expect((await post('/v1/players/cid/notes', { community: c, id: 'note-1', text: 'hi' })).status).toBe(409);
  });
});

describe('issue 17: appeal spam', () => {
  it('refuses a second open appeal on one sanction (POST /v1/events: 400 naming index and field; the action: 409), and weighs one open appeal however many are open', async () => {
    const c = 'spam';
    const ban = await post('/v1/players/bob/sanctions', { community: c, id: 'ban-s', action: 'ban', reason: 'cheating' });
    expect(ban.status).toBe(201);
    const appeal = (id: string, extra: Record<string, unknown> = {}) => ({ type: 'appeal', community: c, time: Date.now(), id, player: 'bob', status: 'opened', sanction: 'ban-s', text: 'x'.repeat(4000), ...extra });
    expect((await ingest([appeal('a1')])).status).toBe(200);
    // Sent again (a retry): the same appeal, accepted as a duplicate.
    expect((await ingest([appeal('a1')])).body).toMatchObject({ accepted: 0, duplicates: 1 });
    const second = await ingest([{ type: 'action', community: c, time: Date.now(), player: 'ann', delta: 1 }, appeal('a2')]);
    expect(second.status).toBe(400);
    expect(second.body.problems).toEqual([{ index: 1, code: 'EVENT_CONFLICT', field: 'sanction', reason: expect.stringContaining('already has an open appeal ("a1") against sanction "ban-s"') }]);
    const action = await post('/v1/players/bob/appeals', { community: c, sanction: 'ban-s', text: 'again' });
    expect(action.status).toBe(409);
    expect(action.body.message).toMatch(/open appeal \("a1"\) against sanction "ban-s"/);
    // Appeals naming no sanction: one open at a time too, also within one batch.
    const loose = await ingest([appeal('n1', { sanction: undefined }), appeal('n2', { sanction: undefined })]);
    expect(loose.status).toBe(400);
    expect((loose.body.problems as { index: number; field: string }[]).map((p) => [p.index, p.field])).toEqual([[1, 'status']]);
    expect((await ingest([appeal('n1', { sanction: undefined })])).status).toBe(200);
    const row = (await queueOf(c)).rows.find((r) => r.player === 'bob')!;
    expect(row.openAppeals).toBe(2);
    expect(row.attention).toBe(DEFAULT_CONFIG.queue.appeal); // one appeal's weight: no score, no alert, no dated evidence
    // The texts are read from the store for a case, not kept in the book.
    expect((await caseOf(c, 'bob')).record.appeals.map((a) => a.text?.length)).toEqual([4000, 4000]);
    expect(t.service.moderation.appeal(c, 'bob', 'a1')).not.toHaveProperty('text');
    // Once decided, another appeal may open.
    expect((await post('/v1/players/bob/appeals/a1/decision', { community: c, outcome: 'denied', reason: 'no' })).status).toBe(201);
    expect((await ingest([appeal('a3')])).status).toBe(200);
  });
});

describe('issue 17: the queue after an action, with a ranking refresh', () => {
  it('drops a handled player at once, though the ranking views are not refreshed', async () => {
    const c = 'fresh';
    expect((await ingest(harmful(c, 'bob', Date.now() - HOUR))).status).toBe(200);
    expect((await queueOf(c)).rows.map((r) => r.player)).toContain('bob');
    expect((await post('/v1/players/bob/verdicts', { community: c, outcome: 'upheld', reason: 'seen in replay' })).status).toBe(201);
    expect((await queueOf(c)).rows.map((r) => r.player)).not.toContain('bob');
    expect((await post('/v1/players/g1/sanctions', { community: c, action: 'warn', reason: 'language' })).status).toBe(201);
    expect((await caseOf(c, 'g1')).record.sanctions).toHaveLength(1);
  });
});

describe('issue 17: erasure', () => {
  it('answers once the moderation record is rebuilt: the case and the queue see the erased player gone', async () => {
    const c = 'erase';
    expect((await ingest(harmful(c, 'eve', Date.now() - HOUR))).status).toBe(200);
    expect((await post('/v1/players/eve/notes', { community: c, text: 'to be erased' })).status).toBe(201);
    expect((await post('/v1/players/fay/notes', { community: c, text: 'kept' })).status).toBe(201);
    expect((await queueOf(c)).rows.map((r) => r.player)).toContain('eve');
    const [erased, queue] = await Promise.all([t.call('/v1/players/eve', { method: 'DELETE', key: t.keys.admin }), queueOf(c)]);
    expect(erased.status).toBe(200);
    expect(queue.community).toBe(c);
    // No whenCurrent here: the answer came after the rebuild.
    expect(await t.service.moderation.record(c, 'eve', Date.now())).toEqual({ sanctions: [], appeals: [], notes: [], verdicts: [] });
    expect((await t.call(`/v1/players/eve/case?community=${c}`, { key: mia })).status).toBe(404);
    expect((await queueOf(c)).rows.map((r) => r.player)).not.toContain('eve');
    expect((await caseOf(c, 'fay')).record.notes.map((n) => n.text)).toEqual(['kept']);
  });
});

describe('issue 17: blank texts', () => {
  it('refuses a blank reason of a verdict, a report verdict and a decision, and a blank appeal text, naming the field', async () => {
    const c = 'blank';
    expect((await ingest([{ type: 'report', community: c, time: Date.now(), id: 'rb', from: 'ann', to: 'bob' }])).status).toBe(200);
    const ban = await post('/v1/players/bob/sanctions', { community: c, id: 'ban-b', action: 'ban', reason: 'cheating' });
    expect(ban.status).toBe(201);
    const opened = await post('/v1/players/bob/appeals', { community: c, id: 'ap-b', sanction: 'ban-b', text: 'please' });
    expect(opened.status).toBe(201);
    const cases: [string, Record<string, unknown>, string][] = [
      ['/v1/players/bob/verdicts', { community: c, outcome: 'upheld', reason: ' \t ' }, 'body/reason must not be blank'],
      ['/v1/reports/verdicts', { community: c, report: 'rb', outcome: 'upheld', reason: '\n' }, 'body/reason must not be blank'],
      ['/v1/players/bob/appeals/ap-b/decision', { community: c, outcome: 'granted', reason: '   ' }, 'body/reason must not be blank'],
      ['/v1/players/cid/appeals', { community: c, text: '  ' }, 'body/text must not be blank'],
    ];
    for (const [path, body, message] of cases) {
      const answer = await post(path, body);
      expect(answer.status, path).toBe(400);
      expect(answer.body).toMatchObject({ error: 'REQUEST_INVALID', message: expect.stringContaining(message) });
    }
    const game = await ingest([{ type: 'appeal', community: c, time: Date.now(), player: 'dee', status: 'opened', text: '   ' }]);
    expect(game.status).toBe(400);
    expect(game.body.problems).toEqual([{ index: 0, code: 'EVENT_INVALID', field: 'text', reason: 'must not be blank' }]);
    expect((await t.call(`/v1/audit?community=${c}`, { key: mia }).then((r) => r.json()) as { entries: unknown[] }).entries).toHaveLength(2);
  });
});

describe('issue 17: a report verdict names a report', () => {
  it('answers 404 for an id that names another kind of event', async () => {
    const c = 'not-a-report';
    expect((await ingest([{ type: 'action', community: c, time: Date.now(), id: 'act-1', player: 'ann', delta: 1 }, { type: 'report', community: c, time: Date.now(), id: 'rep-1', from: 'ann', to: 'bob' }])).status).toBe(200);
    const wrong = await post('/v1/reports/verdicts', { community: c, report: 'act-1', outcome: 'upheld', reason: 'x' });
    expect(wrong.status).toBe(404);
    expect(wrong.body.message).toMatch(/holds no report with id "act-1"/);
    expect((await post('/v1/reports/verdicts', { community: c, report: 'rep-1', outcome: 'upheld', reason: 'x' })).status).toBe(201);
  });
});

describe('issue 17: the record across a restart', () => {
  it('gives the same record and queue after the service restarts over the same log', async () => {
    const db = tempDb();
    const config = { db, scorers: SCORERS, ...REFRESH };
    let s = await startTestService(config);
    const keys = s.keys;
    const mod = (await createKey(s.service.store, ['senior'], 'Ole')).key;
    const c = 'restart';
    const send = async (path: string, body: Record<string, unknown>) => {
      const response = await s.call(path, { ...json({ community: c, ...body }), key: mod });
      expect(response.status, await response.clone().text()).toBe(201);
    };
    const events = [...harmful(c, 'cid', Date.now() - 4 * HOUR), ...reported(c, 'bob', Date.now() - 3 * HOUR), ...reported(c, 'cid', Date.now() - 3 * HOUR).map((e) => ({ ...e, id: `${e.id}-c` })), ...reported(c, 'eve', Date.now() - 3 * HOUR).map((e) => ({ ...e, id: `${e.id}-e` }))];
    expect((await s.call('/v1/events', { ...json(events), key: keys.ingest })).status).toBe(200);
    await send('/v1/players/bob/sanctions', { id: 'b-mute', action: 'mute', reason: 'slurs' });
    await send('/v1/players/bob/sanctions', { id: 'b-susp', action: 'suspend', until: new Date(Date.now() + 24 * HOUR).toISOString(), reason: 'drops' });
    await send('/v1/players/bob/sanctions', { id: 'b-lift', action: 'lift', sanction: 'b-mute', reason: 'served' });
    await send('/v1/players/bob/appeals', { id: 'b-ap', sanction: 'b-susp', text: 'lag' });
    await send('/v1/players/bob/appeals/b-ap/decision', { id: 'b-dec', outcome: 'granted', reason: 'lag confirmed' });
    await send('/v1/players/cid/verdicts', { id: 'c-ver', outcome: 'dismissed', reason: 'nothing there' });
    await send('/v1/players/cid/notes', { id: 'c-note', text: 'watch' });
    await send('/v1/reports/verdicts', { id: 'r-ver', report: `${c}-rep-0-c`, outcome: 'dismissed', reason: 'friend' });
    await send('/v1/players/eve/sanctions', { id: 'e-ban', action: 'ban', reason: 'cheating' });
    expect((await s.call('/v1/events', { ...json([{ type: 'appeal', community: c, time: Date.now(), id: 'c-ap', player: 'cid', status: 'opened', text: 'why' }]), key: keys.ingest })).status).toBe(200);
    expect((await s.call('/v1/players/eve', { method: 'DELETE', key: keys.admin })).status).toBe(200);
    // A last event dated before the moderator events: the clock stays where it was.
    expect((await s.call('/v1/events', { ...json([{ type: 'action', community: c, time: Date.now() - 2 * HOUR, player: 'ann', delta: 1 }]), key: keys.ingest })).status).toBe(200);

    const read = async () => {
      const cases = await Promise.all(['bob', 'cid', 'eve'].map(async (p) => [p, await (await s.call(`/v1/players/${p}/case?community=${c}`, { key: mod })).json()] as const));
      const queue = await (await s.call(`/v1/queue?community=${c}`, { key: mod })).json();
      const records = await Promise.all(['bob', 'cid', 'eve'].map((p) => s.service.moderation.record(c, p, s.service.moderation.clock(c))));
      return { cases, queue, records, clock: s.service.moderation.clock(c), open: s.service.moderation.withOpenAppeals(c) };
    };
    const before = await read();
    expect(before.records[0]!.sanctions.map((x) => [x.id, x.active, x.endedBy?.kind])).toEqual([
      ['b-susp', false, 'appeal'],
      ['b-mute', false, 'lifted'],
    ]);
    expect(before.records[2]).toEqual({ sanctions: [], appeals: [], notes: [], verdicts: [] });
    expect(before.open).toEqual(['cid']);
    await s.close();
    s = await startTestService(config, keys);
    try {
      expect(await read()).toEqual(before);
    } finally {
      await s.close();
    }
  });
});
