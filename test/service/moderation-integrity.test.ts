/**
 * issue 28, found on the way: over real HTTP on a real SQLite file — an erasure of a reporter
 * keeps the verdicts about the player they reported (without them) in the audit log and the
 * record; an ingest key cannot open an appeal against a sanction that does not exist or is
 * another player's; every moderator event names its key's id beside its label, and two live
 * keys cannot share a label; ids refuse control, bidirectional and zero-width characters on every
 * route, while free texts are stored exactly as given. Each test works in a community of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyLabelError } from '../../src/errors.js';
import { createKey } from '../../src/service/keys.js';
import { json, startTestService, type TestService } from './support.js';

const T0 = '2026-11-01T10:00:00Z';
const SCORERS = [{ scorer: 'cqr' }, { scorer: 'reports', params: { accuracyPrior: 0.1 } }];

let t: TestService;
let mia: { key: string; id: string };

beforeAll(async () => {
  t = await startTestService({ scorers: SCORERS });
  const made = await createKey(t.service.store, ['senior'], 'Mia');
  mia = { key: made.key, id: made.stored.id };
});
afterAll(async () => t.close());

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function send(path: string, body: unknown, key: string, method = 'POST'): Promise<Answer> {
  const response = await t.call(path, { ...json(body), method, key });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function recorded(path: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await send(path, body, mia.key);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.event as Record<string, unknown>;
}

async function ingest(community: string, events: Record<string, unknown>[]): Promise<Answer> {
  return send('/v1/events', events.map((e) => ({ time: T0, community, ...e })), t.keys.ingest);
}

interface Entry {
  action: string;
  player?: string;
  moderator?: string;
  moderatorKey?: string;
  event: Record<string, unknown>;
}

async function audit(query: string): Promise<Entry[]> {
  const response = await t.call(`/v1/audit?${query}`, { key: mia.key });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { entries: Entry[] }).entries;
}

describe('issue 28: erasing a reporter keeps the verdicts about the player they reported, without them', () => {
  it('keeps the verdicts naming the report pair and the report id in the audit log and the record of the reported player, and removes those about the reporter', async () => {
    const c = 'erase-reporter';
    expect((await ingest(c, [
      { type: 'report', id: 'r1', from: 'rex', to: 'tom' },
      { type: 'report', id: 'r2', from: 'rex', to: 'tom' },
      { type: 'report', id: 'r3', from: 'tom', to: 'rex' },
      { type: 'report', id: 'r4', from: 'amy', to: 'tom' },
    ])).status).toBe(200);
    const byPair = await recorded('/v1/reports/verdicts', { community: c, id: 'v-pair', from: 'rex', to: 'tom', outcome: 'upheld', reason: 'aimbot on the clip' });
    const byId = await recorded('/v1/reports/verdicts', { community: c, id: 'v-id', report: 'r2', outcome: 'dismissed', reason: 'no evidence' });
    await recorded('/v1/reports/verdicts', { community: c, id: 'v-about-rex', report: 'r3', outcome: 'upheld', reason: 'rex was griefing' });
    await recorded('/v1/reports/verdicts', { community: c, id: 'v-other', report: 'r4', outcome: 'upheld', reason: 'seen it' });
    await recorded('/v1/players/rex/notes', { community: c, id: 'n-rex', text: 'files many reports' });
    await recorded('/v1/players/tom/sanctions', { community: c, id: 's-tom', action: 'ban', reason: 'aimbot' });

    const erased = await t.call('/v1/players/rex', { method: 'DELETE', key: t.keys.admin });
    expect(erased.status, await erased.clone().text()).toBe(200);
    await t.service.moderation.whenCurrent();

    const entries = await audit(`community=${c}&order=oldest`);
    expect(entries.map((e) => [e.event.id, e.action, e.player])).toEqual([
      ['v-pair', 'verdict.upheld', 'tom'],
      ['v-id', 'verdict.dismissed', 'tom'],
      ['v-other', 'verdict.upheld', 'tom'],
      ['s-tom', 'sanction.ban', 'tom'],
    ]);
    // The kept verdicts: as recorded, less the reporter, naming the reported player.
    const { from: _from, ...pairKept } = byPair;
    expect(entries[0]!.event).toEqual({ ...pairKept, reporterErased: true });
    const { report: _report, ...idKept } = byId;
    expect(entries[1]!.event).toEqual({ ...idKept, to: 'tom', reporterErased: true });
    expect(entries[0]).toMatchObject({ moderator: 'Mia', moderatorKey: mia.id });
    // Nothing left names the reporter, in the audit log or the store.
    expect(JSON.stringify(await audit(`community=${c}`))).not.toContain('rex');
    expect(JSON.stringify(await t.service.store.read(c))).not.toContain('"rex"');
    // The reported player's record keeps them; the reporter has none.
    const record = await t.service.moderation.record(c, 'tom', Date.now());
    expect(record.verdicts.map((v) => [v.id, v.outcome, v.reporterErased, v.from, v.report])).toEqual([
      ['v-other', 'upheld', undefined, undefined, 'r4'],
      ['v-id', 'dismissed', true, undefined, undefined],
      ['v-pair', 'upheld', true, undefined, undefined],
    ]);
    expect(await t.service.moderation.record(c, 'rex', Date.now())).toEqual({ sanctions: [], appeals: [], notes: [], verdicts: [] });
    const caseAnswer = await t.call(`/v1/players/tom/case?community=${c}`, { key: mia.key });
    expect(caseAnswer.status).toBe(200);
    expect(((await caseAnswer.json()) as { record: { verdicts: { id: string; reporterErased?: boolean }[] } }).record.verdicts.filter((v) => v.reporterErased === true).map((v) => v.id)).toEqual(['v-id', 'v-pair']);
    // A second erasure finds nothing of the reporter.
    expect((await t.call('/v1/players/rex', { method: 'DELETE', key: t.keys.admin })).status).toBe(404);
  });
});

describe('issue 28: an ingest key opens appeals only against a sanction of the same player', () => {
  it('refuses an appeal against a sanction that does not exist, or that is another player’s (400, EVENT_CONFLICT naming index and sanction, nothing of the batch stored); takes one against the player’s own', async () => {
    const c = 'appeal-owner';
    await recorded('/v1/players/ann/sanctions', { community: c, id: 's-ann', action: 'mute', reason: 'spam' });
    const opening = (id: string, player: string, sanction: string) => ({ type: 'appeal', id, player, status: 'opened', sanction, text: 'not me' });
    for (const [what, events] of [
      ['unknown', [opening('a1', 'bob', 'no-such-sanction'), { type: 'action', id: 'x1', player: 'bob', delta: 1 }]],
      ['another player’s', [{ type: 'action', id: 'x1', player: 'bob', delta: 1 }, opening('a1', 'bob', 's-ann')]],
    ] as const) {
      const answer = await ingest(c, [...events]);
      expect({ what, status: answer.status, error: answer.body.error }).toEqual({ what, status: 400, error: 'BATCH_REJECTED' });
      const index = events.findIndex((e) => e.type === 'appeal');
      expect(answer.body.problems).toEqual([
        { index, code: 'EVENT_CONFLICT', field: 'sanction', reason: `names no sanction of player "bob" in community "${c}": an appeal is against a sanction of the player who appeals (the sanction event's id), or names none` },
      ]);
    }
    // The same sanction id in another community is not the player's there.
    expect((await ingest(`${c}-2`, [opening('a1', 'ann', 's-ann')])).body.problems).toMatchObject([{ index: 0, field: 'sanction' }]);
    expect(await t.service.store.knownIds(c, ['a1', 'x1'])).toEqual(new Set());
    expect(await ingest(c, [opening('a1', 'ann', 's-ann')])).toMatchObject({ status: 200, body: { accepted: 1 } });
    expect(t.service.moderation.withOpenAppeals(c)).toEqual(['ann']);
    // As NDJSON, the problem names the line too.
    const ndjson = await t.call('/v1/events', { method: 'POST', key: t.keys.ingest, headers: { 'content-type': 'application/x-ndjson' }, body: `${JSON.stringify({ time: T0, community: c, ...opening('a9', 'cid', 's-ann') })}\n` });
    expect(ndjson.status).toBe(400);
    expect(((await ndjson.json()) as { problems: unknown[] }).problems).toMatchObject([{ index: 0, line: 1, code: 'EVENT_CONFLICT', field: 'sanction' }]);
    // The moderation action answers the same question alike: 404.
    const action = await send(`/v1/players/bob/appeals`, { community: c, sanction: 's-ann', text: 'not me' }, mia.key);
    expect(action).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } });
  });
});

describe('issue 28: the audit log names the key, and a label names one live key', () => {
  it('records moderatorKey (the key id) beside moderator on every action, and refuses a body or an event naming it', async () => {
    const c = 'keys';
    const note = await recorded('/v1/players/ann/notes', { community: c, text: 'hello' });
    expect(note).toMatchObject({ moderator: 'Mia', moderatorKey: mia.id });
    const entries = await audit(`community=${c}`);
    expect(entries.map((e) => [e.moderator, e.moderatorKey])).toEqual([['Mia', mia.id]]);
    const csv = (await (await t.call(`/v1/audit?community=${c}&format=csv`, { key: mia.key })).text()).split('\r\n');
    expect(csv[0]).toBe('time,community,sequence,moderator,moderatorKey,action,player,id,reason,text,until,event');
    expect(csv[1]).toContain(`,Mia,${mia.id},note,ann,`);
    expect(await send('/v1/players/ann/notes', { community: c, text: 'x', moderatorKey: 'someone' }, mia.key)).toMatchObject({
      status: 400,
      body: { error: 'REQUEST_INVALID', message: "body/moderatorKey is set by the service: the acting key's id; a request cannot name it" },
    });
    const forged = await ingest(c, [{ type: 'appeal', player: 'ann', status: 'opened', moderatorKey: mia.id }]);
    expect(forged).toMatchObject({ status: 400, body: { problems: [{ index: 0, field: 'moderatorKey' }] } });
  });

  it('refuses a second live key with a label (trimmed), making nothing; the label is free again once its key is revoked', async () => {
    const before = (await t.service.store.listKeys()).length;
    await expect(createKey(t.service.store, ['moderate'], ' Mia ')).rejects.toThrow(KeyLabelError);
    await expect(createKey(t.service.store, ['moderate'], 'Mia')).rejects.toThrow(`key label "Mia" is the label of live key ${mia.id}`);
    await expect(createKey(t.service.store, ['moderate'], 'adm\u202Enimda\u202C')).rejects.toThrow('key label "adm\\u202enimda\\u202c" contains U+202E (a bidirectional control) at position 3');
    expect((await t.service.store.listKeys()).length).toBe(before);
    const ole = await createKey(t.service.store, ['moderate'], 'Ole');
    expect(await t.service.store.revokeKey(ole.stored.id, new Date().toISOString())).toBe(true);
    const again = await createKey(t.service.store, ['moderate'], 'Ole');
    expect(again.stored.label).toBe('Ole');
    expect(again.stored.id).not.toBe(ole.stored.id);
  });
});

describe('issue 28: ids refuse control, bidirectional and zero-width characters; free texts are kept as given', () => {
  const spoof = 'adm\u202Enimda\u202C';

  it('POST /v1/events names every bad index, its field and the code point; nothing is stored', async () => {
    const c = 'ids';
    const answer = await ingest(c, [
      { type: 'action', id: 'ok', player: 'ann', delta: 1 },
      { type: 'action', id: 'e1', player: spoof, delta: 1 },
      { type: 'report', id: 'e2', from: 'ann', to: 'b\u200Bob' },
      { type: 'match.start', id: 'e3', match: 'm1', players: ['ann', 'bob\u0007'] },
      { type: 'action', id: 'e4', community: 'c\u2028', player: 'ann', delta: 1 },
      { type: 'action', id: 'e\uFEFF5', player: 'ann', delta: 1 },
    ]);
    expect(answer.status).toBe(400);
    const problems = answer.body.problems as { index: number; field: string; reason: string }[];
    expect(problems.map((p) => [p.index, p.field, p.reason.slice(0, p.reason.indexOf(':'))])).toEqual([
      [1, 'player', 'contains U+202E (a bidirectional control) at position 3'],
      [2, 'to', 'contains U+200B (a zero-width character) at position 1'],
      [3, 'players/1', 'contains U+0007 (a control character) at position 3'],
      [4, 'community', 'contains U+2028 (a line separator) at position 1'],
      [5, 'id', 'contains U+FEFF (a zero-width character) at position 1'],
    ]);
    expect(await t.service.store.knownIds(c, ['ok'])).toEqual(new Set());
  });

  it('a moderation action refuses them in the path’s player (params/id) and the body’s ids, and stores reasons and texts exactly as given', async () => {
    const c = 'ids-moderation';
    const note = await send(`/v1/players/${encodeURIComponent(spoof)}/notes`, { community: c, text: 'hi' }, mia.key);
    expect(note).toMatchObject({ status: 400, body: { error: 'REQUEST_INVALID', message: expect.stringMatching(/^params\/id contains U\+202E \(a bidirectional control\) at position 3: /) } });
    const verdict = await send('/v1/reports/verdicts', { community: c, from: 'ann', to: 'b\u200Dob', outcome: 'upheld', reason: 'x' }, mia.key);
    expect(verdict).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^body\/to contains U\+200D \(a zero-width character\) at position 1: /) } });
    const id = await send('/v1/players/ann/notes', { community: c, id: 'n\u202A1', text: 'x' }, mia.key);
    expect(id).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^body\/id contains U\+202A/) } });
    const text = `see ${spoof}, zero\u200Bwidth\tand\nlines 😀`;
    const kept = await recorded('/v1/players/ann/notes', { community: c, id: 'n1', text });
    expect(kept.text).toBe(text);
    await recorded('/v1/players/ann/sanctions', { community: c, id: 's1', action: 'warn', reason: text });
    expect((await audit(`community=${c}&order=oldest`)).map((e) => [e.event.text ?? e.event.reason])).toEqual([[text], [text]]);
    expect((await ingest(c, [{ type: 'report', id: 'r1', from: 'bob', to: 'ann', reason: text }])).status).toBe(200);
    expect((await t.service.store.read(c)).at(-1)!.event).toMatchObject({ id: 'r1', reason: text });
  });
});
