/**
 * issue 17: the moderation endpoints over real HTTP on a real SQLite file: every action, the
 * moderate scope (read keys cannot act; the moderator is the key's label, never the body's), the
 * refusals of POST /v1/events, the audit log (filters, paging, NDJSON, CSV quoting and formula
 * guarding) and GET /v1/me. Each test works in a community of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StandingApiError, StandingClient } from '../../src/client/index.js';
import { createKey } from '../../src/service/keys.js';
import { json, startTestService, type TestService } from './support.js';

const T0 = '2026-11-01T10:00:00Z';
const SCORERS = [{ scorer: 'cqr' }, { scorer: 'reports', params: { accuracyPrior: 0.1 } }];

let t: TestService;
let mia: string;
let unlabelled: { key: string; id: string };

beforeAll(async () => {
  t = await startTestService({ scorers: SCORERS, defences: 'published' }); // accuracyPrior alone, over the published method
  mia = (await createKey(t.service.store, ['senior'], 'Mia (trust & safety)')).key;
  const made = await createKey(t.service.store, ['moderate']);
  unlabelled = { key: made.key, id: made.stored.id };
});
afterAll(async () => t.close());

interface Recorded {
  community: string;
  sequence: number;
  duplicate: boolean;
  event: Record<string, unknown>;
}

async function post(path: string, body: unknown, key = mia): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await t.call(path, { ...json(body), key });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function recorded(path: string, body: unknown, key = mia): Promise<Recorded> {
  const answer = await post(path, body, key);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as unknown as Recorded;
}

async function ingest(community: string, events: Record<string, unknown>[]): Promise<void> {
  const response = await t.call('/v1/events', { ...json(events.map((e) => ({ time: T0, community, ...e }))), key: t.keys.ingest });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function audit(query: string, key = mia): Promise<{ entries: { action: string; player?: string; moderator?: string; cursor: string; event: Record<string, unknown> }[]; next?: string }> {
  const response = await t.call(`/v1/audit?${query}`, { key });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as never;
}

describe('issue 17: the moderate scope', () => {
  it('refuses actions without a key (401), with a read or ingest key (403), and takes them from moderate and admin keys', async () => {
    const body = { community: 'scope', outcome: 'upheld', reason: 'clip reviewed' };
    expect((await t.call('/v1/players/bob/verdicts', json(body))).status).toBe(401);
    expect((await post('/v1/players/bob/verdicts', body, 'stk_aaaaaaaaaaaa_' + 'b'.repeat(43))).status).toBe(401);
    const read = await post('/v1/players/bob/verdicts', body, t.keys.read);
    expect(read.status).toBe(403);
    expect(read.body.message).toMatch(/lacks scope "moderate"/);
    expect((await post('/v1/players/bob/verdicts', body, t.keys.ingest)).status).toBe(403);
    expect((await t.call('/v1/audit', { key: t.keys.read })).status).toBe(403);
    expect((await recorded('/v1/players/bob/verdicts', body)).event.moderator).toBe('Mia (trust & safety)');
    expect((await recorded('/v1/players/bob/verdicts', body, unlabelled.key)).event.moderator).toBe(unlabelled.id);
    expect((await recorded('/v1/players/bob/verdicts', body, t.keys.admin)).event.moderator).toMatch(/^[A-Za-z0-9]{12}$/);
  });

  it('lets a moderate key read what a read key reads', async () => {
    await ingest('reads', [{ type: 'action', player: 'ann', delta: 3 }]);
    expect((await t.call('/v1/rankings/cqr?community=reads', { key: mia })).status).toBe(200);
    expect((await t.call('/v1/players/ann?community=reads', { key: mia })).status).toBe(200);
  });

  it('refuses a body naming the moderator, naming the field', async () => {
    const answer = await post('/v1/players/bob/notes', { community: 'scope', text: 'hi', moderator: 'someone else' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'REQUEST_INVALID', message: expect.stringContaining('body/moderator') });
  });
});

describe('issue 17: POST /v1/events makes no moderator event', () => {
  it('refuses a moderator field, verdicts, notes, sanctions and appeal decisions, naming index and field; nothing is stored', async () => {
    const batch = [
      { type: 'action', time: T0, community: 'ingest', player: 'ann', delta: 1, moderator: 'me' },
      { type: 'verdict', time: T0, community: 'ingest', on: 'player', player: 'ann', outcome: 'upheld' },
      { type: 'verdict', time: T0, community: 'ingest', on: 'report', report: 'r1', outcome: 'upheld' },
      { type: 'note', time: T0, community: 'ingest', player: 'ann', text: 'x' },
      { type: 'sanction', time: T0, community: 'ingest', player: 'ann', action: 'ban', reason: 'x' },
      { type: 'appeal', time: T0, community: 'ingest', player: 'ann', status: 'granted', appeal: 'a1' },
      { type: 'action', time: T0, community: 'ingest', player: 'ann', delta: 1 },
    ];
    const response = await t.call('/v1/events', { ...json(batch), key: t.keys.admin });
    expect(response.status).toBe(400);
    const { problems } = (await response.json()) as { problems: { index: number; field: string; reason: string }[] };
    expect(problems.map((p) => [p.index, p.field])).toEqual([
      [0, 'moderator'],
      [1, 'type'],
      [2, 'type'],
      [3, 'type'],
      [4, 'type'],
      [5, 'status'],
    ]);
    expect(problems[1]!.reason).toMatch(/moderation endpoints \(scope moderate\)/);
    expect((await audit('community=ingest')).entries).toEqual([]);
  });

  it('accepts an appeal a player opens, through an ingest key; a moderator sees it and decides it', async () => {
    await ingest('opened', [{ type: 'appeal', id: 'ap-1', player: 'ann', status: 'opened', text: 'I was lagging' }]);
    expect(t.service.moderation.withOpenAppeals('opened')).toEqual(['ann']);
    const { entries } = await audit('community=opened');
    expect(entries.map((e) => [e.action, e.player, e.moderator])).toEqual([['appeal.opened', 'ann', undefined]]);
    const decided = await recorded('/v1/players/ann/appeals/ap-1/decision', { community: 'opened', outcome: 'denied', reason: 'the logs show four drops' });
    expect(decided.event).toMatchObject({ type: 'appeal', status: 'denied', appeal: 'ap-1', moderator: 'Mia (trust & safety)' });
    expect(t.service.moderation.withOpenAppeals('opened')).toEqual([]);
  });
});

describe('issue 17: every action', () => {
  it('records a verdict on a player, feeds reports\' verdict defence, and answers a retry by id with the stored event', async () => {
    const c = 'verdicts';
    await ingest(c, [
      ...['a', 'b', 'x', 'y'].map((player) => ({ type: 'played', player, games: 10 })),
      { type: 'report', id: 'r1', from: 'a', to: 'x' },
      { type: 'report', id: 'r2', from: 'b', to: 'x' },
      { type: 'report', id: 'r3', from: 'a', to: 'y' },
    ]);
    const before = (await (await t.call(`/v1/players/x?community=${c}`, { key: mia })).json()) as { communities: { scores: { scorer: string; score: number }[] }[] };
    expect(before.communities[0]!.scores.find((s) => s.scorer.startsWith('reports'))!.score).toBeCloseTo(0.75 * (1 / 2) + 0.75, 10);
    const first = await recorded('/v1/players/x/verdicts', { community: c, id: 'v-x', outcome: 'dismissed', reason: 'the reports were a brigade' });
    expect(first.event).toMatchObject({ type: 'verdict', on: 'player', player: 'x', outcome: 'dismissed', id: 'v-x', community: c, moderator: 'Mia (trust & safety)' });
    expect(typeof first.event.time).toBe('number');
    const after = (await (await t.call(`/v1/players/x?community=${c}`, { key: mia })).json()) as typeof before;
    // Both reports of x dismissed: BP(x) = 0 (docs/spec.md §5, accuracyPrior).
    expect(after.communities[0]!.scores.find((s) => s.scorer.startsWith('reports'))!.score).toBe(0);
    const again = await post('/v1/players/x/verdicts', { community: c, id: 'v-x', outcome: 'upheld', reason: 'a retry' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first, duplicate: true });
    expect(t.service.moderation.facts(c, 'x', t.service.live.lastTime(c))).toMatchObject({ handledAt: first.event.time, openAppeals: 0, activeSanctions: [] });
  });

  it('records a verdict on a report by id (404 for an id the community lacks) and by reporter and reported player', async () => {
    const c = 'report-verdicts';
    await ingest(c, [{ type: 'report', id: 'r1', from: 'ann', to: 'bob' }]);
    const unknown = await post('/v1/reports/verdicts', { community: c, report: 'r9', outcome: 'upheld', reason: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/no report with id "r9"/);
    await recorded('/v1/reports/verdicts', { community: c, report: 'r1', outcome: 'upheld', reason: 'seen on the replay' });
    await recorded('/v1/reports/verdicts', { community: c, from: 'ann', to: 'bob', outcome: 'dismissed', reason: 'on review' });
    const neither = await post('/v1/reports/verdicts', { community: c, outcome: 'upheld', reason: 'x' });
    expect(neither.status).toBe(400);
    expect(neither.body.message).toMatch(/body\/report/);
    const { entries } = await audit(`community=${c}&player=bob&order=oldest`);
    expect(entries.map((e) => [e.action, e.player])).toEqual([
      ['verdict.upheld', 'bob'],
      ['verdict.dismissed', 'bob'],
    ]);
    expect((await t.service.moderation.record(c, 'bob', t.service.live.lastTime(c))).verdicts.map((v) => [v.on, v.outcome, v.report ?? v.from])).toEqual([
      ['report', 'dismissed', 'ann'],
      ['report', 'upheld', 'r1'],
    ]);
  });

  it('records a note; a blank one or one over 4,000 characters is refused naming the field', async () => {
    const note = await recorded('/v1/players/bob/notes', { community: 'notes', text: 'second warning in chat' });
    expect(note.event).toMatchObject({ type: 'note', player: 'bob', text: 'second warning in chat' });
    const blank = await post('/v1/players/bob/notes', { community: 'notes', text: '  ' });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toMatch(/body\/text must not be blank/);
    expect((await post('/v1/players/bob/notes', { community: 'notes', text: 'x'.repeat(4001) })).status).toBe(400);
    expect((await t.service.moderation.record('notes', 'bob', Date.now())).notes).toEqual([{ id: note.event.id, time: note.event.time, text: 'second warning in chat', moderator: 'Mia (trust & safety)' }]);
  });

  it('issue 17: a suspension ends at an until given in epoch ms as at one given in ISO-8601 (the body schema no longer makes the number a string first)', async () => {
    const c = 'until-ms';
    const at = Date.parse('2099-03-04T05:06:07Z');
    const byNumber = await recorded('/v1/players/bob/sanctions', { community: c, action: 'suspend', until: at, reason: 'dropped 4 of 10' });
    const byText = await recorded('/v1/players/ann/sanctions', { community: c, action: 'suspend', until: '2099-03-04T05:06:07Z', reason: 'dropped 4 of 10' });
    expect(byNumber.event.until).toBe(at);
    expect(byText.event.until).toBe(at);
  });

  it('sanctions: until required for suspend and refused for ban, a lift ends one by id (404 unknown, 409 no longer active) or all (409 when none)', async () => {
    const c = 'sanctions';
    const noUntil = await post('/v1/players/bob/sanctions', { community: c, action: 'suspend', reason: 'dropped 4 of 10' });
    expect(noUntil.status).toBe(400);
    expect(noUntil.body.message).toMatch(/body\/until is required for "suspend"/);
    expect((await post('/v1/players/bob/sanctions', { community: c, action: 'ban', until: '2099-01-01T00:00:00Z', reason: 'x' })).status).toBe(400);
    expect((await post('/v1/players/bob/sanctions', { community: c, action: 'ban', reason: ' ' })).status).toBe(400);
    expect((await post('/v1/players/bob/sanctions', { community: c, action: 'lift', reason: 'nothing to lift' })).status).toBe(409);
    const suspend = await recorded('/v1/players/bob/sanctions', { community: c, action: 'suspend', until: '2099-01-01T00:00:00Z', reason: 'dropped 4 of his last 10 matches' });
    expect(suspend.event.until).toBe(Date.parse('2099-01-01T00:00:00Z'));
    const mute = await recorded('/v1/players/bob/sanctions', { community: c, action: 'mute', reason: 'slurs in chat' });
    const now = () => t.service.live.lastTime(c);
    expect(t.service.moderation.facts(c, 'bob', now()).activeSanctions).toEqual(['suspend', 'mute']);
    expect((await post('/v1/players/bob/sanctions', { community: c, action: 'lift', sanction: 'nope', reason: 'x' })).status).toBe(404);
    await recorded('/v1/players/bob/sanctions', { community: c, action: 'lift', sanction: String(mute.event.id), reason: 'served' });
    const again = await post('/v1/players/bob/sanctions', { community: c, action: 'lift', sanction: String(mute.event.id), reason: 'x' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'MODERATION_CONFLICT' });
    const record = await t.service.moderation.record(c, 'bob', now());
    expect(record.sanctions.map((s) => [s.action, s.active, s.endedBy?.kind])).toEqual([
      ['mute', false, 'lifted'],
      ['suspend', true, undefined],
    ]);
    await recorded('/v1/players/bob/sanctions', { community: c, action: 'lift', reason: 'all lifted after review' });
    expect(t.service.moderation.facts(c, 'bob', now()).activeSanctions).toEqual([]);
  });

  it('appeals: opened on the player\'s behalf against a sanction (404 unknown), granted once (404 unknown appeal, 409 twice), which lifts the sanction', async () => {
    const c = 'appeals';
    const ban = await recorded('/v1/players/bob/sanctions', { community: c, action: 'ban', reason: 'cheating' });
    expect((await post('/v1/players/bob/appeals', { community: c, sanction: 'nope' })).status).toBe(404);
    const opened = await recorded('/v1/players/bob/appeals', { community: c, sanction: ban.event.id, text: 'it was my brother' });
    expect(opened.event).toMatchObject({ type: 'appeal', status: 'opened', sanction: ban.event.id });
    expect(t.service.moderation.withOpenAppeals(c)).toEqual(['bob']);
    expect((await post('/v1/players/bob/appeals/nope/decision', { community: c, outcome: 'granted', reason: 'x' })).status).toBe(404);
    const granted = await recorded(`/v1/players/bob/appeals/${String(opened.event.id)}/decision`, { community: c, outcome: 'granted', reason: 'account shared; reset' });
    const twice = await post(`/v1/players/bob/appeals/${String(opened.event.id)}/decision`, { community: c, outcome: 'denied', reason: 'x' });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toMatch(/already granted/);
    const record = await t.service.moderation.record(c, 'bob', t.service.live.lastTime(c));
    expect(record.sanctions[0]).toMatchObject({ id: ban.event.id, active: false, endedBy: { kind: 'appeal', id: granted.event.id, moderator: 'Mia (trust & safety)' } });
    expect(record.appeals[0]).toMatchObject({ status: 'granted', decided: { id: granted.event.id, reason: 'account shared; reset' } });
    expect(t.service.moderation.withOpenAppeals(c)).toEqual([]);
  });
});

describe('issue 17: the audit log', () => {
  const c = 'audit';
  beforeAll(async () => {
    const ole = (await createKey(t.service.store, ['moderate'], 'Ole')).key;
    await recorded('/v1/players/bob/notes', { community: c, text: '=HYPERLINK("http://evil","click")' });
    await recorded('/v1/players/bob/notes', { community: c, text: 'said "gg, ez"\non two lines' });
    await recorded('/v1/players/cid/sanctions', { community: c, action: 'warn', reason: '-1 for language' }, ole);
    await recorded('/v1/players/cid/verdicts', { community: c, outcome: 'upheld', reason: '@here spam' }, ole);
  });

  it('filters by player, moderator, action and time, newest first by default, and pages by cursor', async () => {
    expect((await audit(`community=${c}`)).entries.map((e) => e.action)).toEqual(['verdict.upheld', 'sanction.warn', 'note', 'note']);
    expect((await audit(`community=${c}&player=cid&order=oldest`)).entries.map((e) => e.action)).toEqual(['sanction.warn', 'verdict.upheld']);
    expect((await audit(`community=${c}&moderator=Ole`)).entries.map((e) => e.player)).toEqual(['cid', 'cid']);
    expect((await audit(`community=${c}&action=sanction`)).entries.map((e) => e.action)).toEqual(['sanction.warn']);
    expect((await audit(`community=${c}&action=verdict.dismissed`)).entries).toEqual([]);
    const all = (await audit(`community=${c}&order=oldest`)).entries;
    const second = all[1]!.event.time as number;
    expect((await audit(`community=${c}&since=${second}&until=${new Date((all[2]!.event.time as number) + 1).toISOString()}&order=oldest`)).entries.map((e) => e.cursor)).toEqual(
      all.slice(1, 3).map((e) => e.cursor),
    );
    const seen: string[] = [];
    let next: string | undefined;
    do {
      const page = await audit(`community=${c}&limit=3${next === undefined ? '' : `&after=${next}`}`);
      seen.push(...page.entries.map((e) => e.cursor));
      next = page.next;
    } while (next !== undefined);
    expect(seen).toEqual((await audit(`community=${c}`)).entries.map((e) => e.cursor));
    const bad = await t.call('/v1/audit?after=nonsense', { key: mia });
    expect(bad.status).toBe(400);
    expect((await t.call('/v1/audit?since=yesterday', { key: mia })).status).toBe(400);
    expect((await t.call('/v1/audit?action=delete', { key: mia })).status).toBe(400);
  });

  it('exports every matching entry as NDJSON (by format or Accept)', async () => {
    const response = await t.call(`/v1/audit?community=${c}&limit=1`, { key: mia, headers: { accept: 'application/x-ndjson' } });
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const lines = (await response.text()).trim().split('\n').map((line) => JSON.parse(line) as { action: string });
    expect(lines.map((l) => l.action)).toEqual(['verdict.upheld', 'sanction.warn', 'note', 'note']);
    expect((await (await t.call(`/v1/audit?community=${c}&format=ndjson`, { key: mia })).text()).trim().split('\n')).toHaveLength(4);
  });

  it('exports CSV with a header row, RFC 4180 quoting and cells guarded against formulas', async () => {
    const response = await t.call(`/v1/audit?community=${c}&format=csv&order=oldest`, { key: mia });
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = await response.text();
    const rows = text.split('\r\n');
    expect(rows[0]).toBe('time,community,sequence,moderator,moderatorKey,action,player,id,reason,text,until,event');
    expect(rows[1]).toContain(`,"'=HYPERLINK(""http://evil"",""click"")",`);
    expect(text).toContain('"said ""gg, ez""\non two lines"');
    expect(text).toContain(",'-1 for language,");
    expect(text).toContain(",'@here spam,");
    expect(text).toMatch(/\r\n$/);
  });

  it('loses the entries about an erased player, and the moderation book forgets them', async () => {
    const e = 'audit-erase';
    await recorded('/v1/players/eve/notes', { community: e, text: 'to be erased' });
    await recorded('/v1/players/fay/notes', { community: e, text: 'kept' });
    expect((await t.call('/v1/players/eve', { method: 'DELETE', key: t.keys.admin })).status).toBe(200);
    await t.service.moderation.whenCurrent();
    expect((await audit(`community=${e}`)).entries.map((x) => x.player)).toEqual(['fay']);
    expect((await t.service.moderation.record(e, 'eve', Date.now())).notes).toEqual([]);
    expect((await t.service.moderation.record(e, 'fay', Date.now())).notes).toHaveLength(1);
  });
});

describe('issue 17: GET /v1/me', () => {
  it('names the key, its label and scopes, and the moderator name for a senior moderator key; 401 without a valid key', async () => {
    const me = await (await t.call('/v1/me', { key: mia })).json();
    expect(me).toEqual({ key: expect.stringMatching(/^[A-Za-z0-9]{12}$/), label: 'Mia (trust & safety)', scopes: ['senior'], moderator: 'Mia (trust & safety)' });
    expect(await (await t.call('/v1/me', { key: t.keys.ingest })).json()).toMatchObject({ scopes: ['ingest'] });
    expect(await (await t.call('/v1/me', { key: t.keys.read })).json()).not.toHaveProperty('moderator');
    expect((await t.call('/v1/me')).status).toBe(401);
    expect((await t.call('/v1/me', { key: 'stk_aaaaaaaaaaaa_' + 'b'.repeat(43) })).status).toBe(401);
  });

  it('answers the read scope without a key when reads are public, and still checks a key given', async () => {
    const open = await startTestService({ publicRead: true });
    try {
      expect(await (await open.call('/v1/me')).json()).toEqual({ scopes: ['read'] });
      expect((await open.call('/v1/me', { key: 'stk_aaaaaaaaaaaa_' + 'b'.repeat(43) })).status).toBe(401);
      expect((await open.call('/v1/players/x/notes', { ...json({ text: 'x' }) })).status).toBe(401);
    } finally {
      await open.close();
    }
  });
});

describe('issue 17: the client\'s moderation methods', () => {
  it('records every action, reads the audit log and its exports, and names a conflict by its code', async () => {
    const client = new StandingClient({ url: t.url, key: mia });
    const community = 'client';
    await client.recordVerdict('bob', { community, outcome: 'upheld', reason: 'seen' });
    await client.addNote('bob', { community, text: 'n' });
    const ban = await client.sanction('bob', { community, action: 'ban', reason: 'cheats' });
    const appeal = await client.openAppeal('bob', { community, sanction: String(ban.event.id) });
    const decided = await client.decideAppeal('bob', String(appeal.event.id), { community, outcome: 'granted', reason: 'ok' });
    expect(decided).toMatchObject({ community, duplicate: false, event: { status: 'granted' } });
    const conflict = await client.decideAppeal('bob', String(appeal.event.id), { community, outcome: 'denied', reason: 'x' }).catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(StandingApiError);
    expect(conflict).toMatchObject({ status: 409, code: 'MODERATION_CONFLICT' });
    await client.recordReportVerdict({ community, from: 'ann', to: 'bob', outcome: 'dismissed', reason: 'no clip' });
    const page = await client.audit({ community, limit: 4, order: 'oldest' });
    expect(page.entries.map((e) => e.action)).toEqual(['verdict.upheld', 'note', 'sanction.ban', 'appeal.opened']);
    expect((await client.audit({ community, after: page.next!, order: 'oldest' })).entries.map((e) => e.action)).toEqual(['appeal.granted', 'verdict.dismissed']);
    expect((await client.auditExport('ndjson', { community })).trim().split('\n')).toHaveLength(6);
    expect((await client.auditExport('csv', { community })).split('\r\n')).toHaveLength(8); // header, 6 rows, the empty end
    expect(await client.me()).toMatchObject({ scopes: ['senior'], moderator: 'Mia (trust & safety)' });
  });
});
