/**
 * issue 28, roles, tenants and second opinions, through the real HTTP API of `standing serve` on
 * a real SQLite file: what `moderate`, `senior` and `player-view` keys may do; keys restricted to
 * communities, refused 403 naming the community on every kind of route; the four-eyes rules, on
 * and off; claims on cases; player tokens. Each test works in communities of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StandingClient } from '../../src/client/index.js';
import { createKey } from '../../src/service/keys.js';
import { PlayerTokens, TOKEN_SECRET } from '../../src/service/player-tokens.js';
import { until } from '../support/until.js';
import { json, startTestService, type TestService } from './support.js';

const T0 = '2026-11-01T10:00:00Z';
const SCORERS = [{ scorer: 'cqr' }, { scorer: 'reliability' }, { scorer: 'reports' }];

let t: TestService;
/** Senior moderators, a moderator, a moderator of the eu community alone, a game server's key, a rule's events. */
let mia: string;
let ole: string;
let jun: string;
let euMod: string;
let game: string;

beforeAll(async () => {
  t = await startTestService({ scorers: SCORERS, fourEyes: { appeals: true, ruleDismissals: true }, claims: { minutes: 15, maxMinutes: 60 } });
  mia = (await createKey(t.service.store, ['senior'], 'Mia')).key;
  ole = (await createKey(t.service.store, ['senior'], 'Ole')).key;
  jun = (await createKey(t.service.store, ['moderate'], 'Jun')).key;
  euMod = (await createKey(t.service.store, ['moderate'], 'EU team', { communities: ['eu'] })).key;
  game = (await createKey(t.service.store, ['player-view'], 'game server')).key;
});
afterAll(() => t.close());

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function send(path: string, key: string | undefined, init: RequestInit = {}): Promise<Answer> {
  const response = await t.call(path, { ...init, ...(key === undefined ? {} : { key }) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

const post = (path: string, body: unknown, key: string) => send(path, key, json(body));
const get = (path: string, key: string) => send(path, key);

async function ingest(community: string, events: Record<string, unknown>[]): Promise<void> {
  const response = await t.call('/v1/events', { ...json(events.map((e) => ({ time: T0, community, ...e }))), key: t.keys.ingest });
  expect(response.status, await response.clone().text()).toBe(200);
}

/** Records moderator events as a rule running inside the service would: through the live engine, its moderator `rule:<name>`. */
async function byRule(community: string, events: Record<string, unknown>[]): Promise<void> {
  await t.service.live.ingest(events.map((e) => ({ time: Date.now(), community, moderator: 'rule:spam', ...e })));
  await t.service.moderation.whenCurrent();
}

describe('issue 28: roles — moderate and senior', () => {
  const c = 'roles';

  it('lets a moderator warn, mute and lift those, and refuses suspend, ban and their lifts, naming the senior scope', async () => {
    await ingest(c, [{ type: 'action', player: 'bob', delta: -5 }]);
    const mute = await post('/v1/players/bob/sanctions', { community: c, id: 'r-mute', action: 'mute', reason: 'slurs' }, jun);
    expect(mute.status).toBe(201);
    expect((await post('/v1/players/bob/sanctions', { community: c, action: 'warn', reason: 'language' }, jun)).status).toBe(201);
    for (const body of [
      { community: c, action: 'suspend', until: '2099-01-01T00:00:00Z', reason: 'drops' },
      { community: c, action: 'ban', reason: 'cheats' },
    ]) {
      const refused = await post('/v1/players/bob/sanctions', body, jun);
      expect(refused).toMatchObject({ status: 403, body: { error: 'FORBIDDEN', message: expect.stringMatching(/lacks scope "senior": a (suspension|ban) needs a senior moderator/) } });
    }
    expect((await post('/v1/players/bob/sanctions', { community: c, id: 'r-ban', action: 'ban', reason: 'cheats' }, mia)).status).toBe(201);
    expect(await post('/v1/players/bob/sanctions', { community: c, action: 'lift', sanction: 'r-ban', reason: 'mistake' }, jun)).toMatchObject({ status: 403, body: { message: expect.stringContaining('lifting a ban') } });
    expect(await post('/v1/players/bob/sanctions', { community: c, action: 'lift', reason: 'all' }, jun)).toMatchObject({ status: 403, body: { message: expect.stringContaining('a ban among them') } });
    expect((await post('/v1/players/bob/sanctions', { community: c, action: 'lift', sanction: 'r-mute', reason: 'served' }, jun)).status).toBe(201);
    expect((await post('/v1/players/bob/sanctions', { community: c, action: 'lift', reason: 'all' }, mia)).status).toBe(201);
    const record = (await get(`/v1/players/bob/case?community=${c}`, jun)).body.record as { sanctions: { action: string; active: boolean }[] };
    expect(record.sanctions.every((s) => !s.active)).toBe(true);
  });

  it('lets only a senior moderator (or admin) decide appeals; a moderator may open one on the player\'s behalf', async () => {
    expect((await post('/v1/players/cid/sanctions', { community: c, id: 'r-warn', action: 'warn', reason: 'spam' }, jun)).status).toBe(201);
    expect((await post('/v1/players/cid/appeals', { community: c, id: 'r-ap', sanction: 'r-warn' }, jun)).status).toBe(201);
    const refused = await post('/v1/players/cid/appeals/r-ap/decision', { community: c, outcome: 'granted', reason: 'ok' }, jun);
    expect(refused).toMatchObject({ status: 403, body: { message: expect.stringContaining('lacks scope "senior"') } });
    expect((await post('/v1/players/cid/appeals/r-ap/decision', { community: c, outcome: 'granted', reason: 'ok' }, t.keys.admin)).status).toBe(201);
  });

  it('answers /v1/me with the scopes, and a moderator name for moderate and senior keys', async () => {
    expect((await get('/v1/me', jun)).body).toMatchObject({ scopes: ['moderate'], moderator: 'Jun' });
    expect((await get('/v1/me', mia)).body).toMatchObject({ scopes: ['senior'], moderator: 'Mia' });
    expect((await get('/v1/me', game)).body).toEqual({ key: expect.any(String), label: 'game server', scopes: ['player-view'] });
    expect((await get('/v1/me', euMod)).body).toMatchObject({ scopes: ['moderate'], communities: ['eu'] });
  });

  it('keeps a player-view key to the player routes: no ranking, no case, no action', async () => {
    expect((await get('/v1/rankings/cqr', game)).status).toBe(403);
    expect((await get(`/v1/players/bob/case?community=${c}`, game)).status).toBe(403);
    expect((await post('/v1/players/bob/notes', { community: c, text: 'hi' }, game)).status).toBe(403);
  });
});

describe('issue 28: keys restricted to communities', () => {
  let euIngest: string;
  let euAdmin: string;

  beforeAll(async () => {
    euIngest = (await createKey(t.service.store, ['ingest'], 'eu game', { communities: ['eu'] })).key;
    euAdmin = (await createKey(t.service.store, ['admin'], 'eu admin', { communities: ['eu'] })).key;
    await ingest('eu', [{ type: 'action', player: 'ann', delta: 3 }, { type: 'report', from: 'ann', to: 'bob' }]);
    await ingest('us', [{ type: 'action', player: 'ann', delta: -3 }]);
  });

  it('reads and acts in its communities, and is refused 403 naming any other, on reads and writes alike', async () => {
    expect((await get('/v1/rankings/cqr?community=eu', euMod)).status).toBe(200);
    expect((await get('/v1/queue?community=eu', euMod)).status).toBe(200);
    expect((await post('/v1/players/ann/notes', { community: 'eu', text: 'fine' }, euMod)).status).toBe(201);
    const refusals = await Promise.all([
      get('/v1/rankings/cqr?community=us', euMod),
      get('/v1/rankings/cqr', euMod),
      get('/v1/queue?community=us', euMod),
      get('/v1/players/ann/case?community=us', euMod),
      get('/v1/players/ann/explain?scorer=cqr&community=us', euMod),
      get('/v1/players/ann/history?scorer=cqr&community=us', euMod),
      get('/v1/players/ann?community=us', euMod),
      post('/v1/players/ann/notes', { community: 'us', text: 'x' }, euMod),
      post('/v1/players/ann/notes', { text: 'x' }, euMod),
      post('/v1/players/ann/case/claim', { community: 'us' }, euMod),
      post('/v1/reports/verdicts', { community: 'us', from: 'ann', to: 'bob', outcome: 'upheld', reason: 'r' }, euMod),
    ]);
    const named = ['"us"', '"default"', '"us"', '"us"', '"us"', '"us"', '"us"', '"us"', '"default"', '"us"', '"us"'];
    refusals.forEach((answer, i) => {
      expect(answer, `request ${i}`).toMatchObject({ status: 403, body: { error: 'FORBIDDEN', message: expect.stringContaining(`community ${named[i]}`) } });
      expect(answer.body.message).toContain('may reach only community "eu"');
    });
  });

  it('refuses a batch holding an event of another community whole, naming its index; nothing is stored', async () => {
    const before = t.service.live.sequence('us');
    const batch = [
      { type: 'action', time: T0, community: 'eu', player: 'eve', delta: 1 },
      { type: 'action', time: T0, community: 'us', player: 'eve', delta: 1 },
    ];
    const refused = await send('/v1/events', euIngest, json(batch));
    expect(refused).toMatchObject({ status: 403, body: { message: expect.stringContaining('events[1] is of community "us"') } });
    expect(await send('/v1/events', euIngest, json([{ type: 'action', time: T0, player: 'eve', delta: 1 }]))).toMatchObject({ status: 403, body: { message: expect.stringContaining('events[0] is of community "default"') } });
    expect(t.service.live.sequence('us')).toBe(before);
    expect((await send('/v1/events', euIngest, json(batch.slice(0, 1)))).status).toBe(200);
  });

  it('answers the routes that span communities with its communities only, or asks it to name one, or refuses', async () => {
    const player = (await get('/v1/players/ann', euMod)).body as { communities: { community: string }[] };
    expect(player.communities.map((x) => x.community)).toEqual(['eu']);
    const communities = (await get('/v1/communities', euMod)).body as { communities: { community: string }[] };
    expect(communities.communities.map((x) => x.community)).toEqual(['eu']);
    expect((await get('/v1/players/ann', jun)).body.communities).toHaveLength(2);
    for (const path of ['/v1/audit', '/v1/alerts']) {
      expect(await get(path, euMod)).toMatchObject({ status: 403, body: { message: expect.stringContaining('spans every community: name one') } });
      expect((await get(`${path}?community=eu`, euMod)).status).toBe(200);
      expect((await get(`${path}?community=us`, euMod)).status).toBe(403);
    }
    expect(await get('/metrics', euMod)).toMatchObject({ status: 403, body: { message: expect.stringContaining('GET /metrics reaches every community') } });
    expect(await send('/v1/players/ann', euAdmin, { method: 'DELETE' })).toMatchObject({ status: 403, body: { message: expect.stringContaining('reaches every community') } });
    expect((await get('/v1/scorers', euMod)).status).toBe(200);
    expect((await get('/v1/limits', euIngest)).status).toBe(200);
  });
});

describe('issue 28: four-eyes — an appeal is decided by another moderator than the one who imposed the sanction', () => {
  const c = 'eyes-appeals';

  it('refuses the imposer 409 FOUR_EYES naming them, and takes another moderator\'s decision', async () => {
    await ingest(c, [{ type: 'action', player: 'bob', delta: -5 }]);
    expect((await post('/v1/players/bob/sanctions', { community: c, id: 'e-ban', action: 'ban', reason: 'cheats' }, mia)).status).toBe(201);
    await ingest(c, [{ type: 'appeal', id: 'e-ap', player: 'bob', status: 'opened', sanction: 'e-ban', text: 'not me' }]);
    const refused = await post('/v1/players/bob/appeals/e-ap/decision', { community: c, outcome: 'denied', reason: 'no' }, mia);
    expect(refused).toMatchObject({ status: 409, body: { error: 'FOUR_EYES', message: expect.stringContaining('which "Mia" imposed: another moderator decides it (fourEyes.appeals)') } });
    const decided = await post('/v1/players/bob/appeals/e-ap/decision', { community: c, outcome: 'granted', reason: 'shared account' }, ole);
    expect(decided).toMatchObject({ status: 201, body: { event: { moderator: 'Ole', status: 'granted' } } });
  });

  it('lets anyone decide an appeal against a rule\'s sanction, or against no sanction', async () => {
    await byRule(c, [{ type: 'sanction', id: 'e-rmute', player: 'cid', action: 'mute', until: Date.now() + 3_600_000, reason: 'spam burst' }]);
    await ingest(c, [
      { type: 'appeal', id: 'e-ap2', player: 'cid', status: 'opened', sanction: 'e-rmute' },
      { type: 'appeal', id: 'e-ap3', player: 'cid', status: 'opened' },
    ]);
    expect((await post('/v1/players/cid/appeals/e-ap2/decision', { community: c, outcome: 'granted', reason: 'false positive' }, mia)).status).toBe(201);
    expect((await post('/v1/players/cid/appeals/e-ap3/decision', { community: c, outcome: 'denied', reason: 'nothing to appeal' }, mia)).status).toBe(201);
  });

  it('is off by default: the imposer may decide', async () => {
    const plain = await startTestService({ scorers: SCORERS });
    try {
      const solo = (await createKey(plain.service.store, ['senior'], 'Solo')).key;
      const call = (path: string, body: unknown) => plain.call(path, { ...json(body), key: solo });
      expect((await call('/v1/players/bob/sanctions', { id: 'p-ban', action: 'ban', reason: 'cheats' })).status).toBe(201);
      expect((await call('/v1/players/bob/appeals', { id: 'p-ap', sanction: 'p-ban' })).status).toBe(201);
      expect((await call('/v1/players/bob/appeals/p-ap/decision', { outcome: 'denied', reason: 'no' })).status).toBe(201);
    } finally {
      await plain.close();
    }
  });
});

describe('issue 28: four-eyes — a case a rule proposed is dismissed by two moderators', () => {
  const c = 'eyes-rules';

  it('records the first dismissal and keeps the case open, refuses the same moderator again, closes it at the second', async () => {
    await ingest(c, [{ type: 'action', player: 'dan', delta: -30 }]);
    await byRule(c, [{ type: 'note', player: 'dan', text: 'proposed: 5 reports in an hour' }]);
    const first = await post('/v1/players/dan/verdicts', { community: c, outcome: 'dismissed', reason: 'banter among friends' }, mia);
    expect(first).toMatchObject({ status: 201, body: { secondOpinion: { rule: 'rule:spam', dismissedBy: ['Mia'] } } });
    const clock = t.service.moderation.clock(c);
    expect(t.service.moderation.facts(c, 'dan', clock)).toMatchObject({ secondOpinion: { dismissedBy: ['Mia'] } });
    expect(t.service.moderation.facts(c, 'dan', clock).handledAt).toBeUndefined();
    const kase = (await get(`/v1/players/dan/case?community=${c}`, jun)).body;
    expect(kase.secondOpinion).toEqual({ rule: 'rule:spam', dismissedBy: ['Mia'] });
    const again = await post('/v1/players/dan/verdicts', { community: c, outcome: 'dismissed', reason: 'still banter' }, mia);
    expect(again).toMatchObject({ status: 409, body: { error: 'FOUR_EYES', message: expect.stringContaining('"Mia" already dismissed the case rule:spam proposed') } });
    const second = await post('/v1/players/dan/verdicts', { community: c, outcome: 'dismissed', reason: 'agreed' }, jun);
    expect(second.status).toBe(201);
    expect(second.body.secondOpinion).toBeUndefined();
    expect(t.service.moderation.facts(c, 'dan', t.service.moderation.clock(c)).handledAt).toBeDefined();
    expect((await get(`/v1/players/dan/case?community=${c}`, jun)).body.secondOpinion).toBeUndefined();
  });

  it('takes one moderator\'s upheld verdict or sanction as handling the proposal at once', async () => {
    await byRule(c, [{ type: 'note', player: 'eve', text: 'proposed' }]);
    expect((await post('/v1/players/eve/verdicts', { community: c, outcome: 'upheld', reason: 'clear' }, mia)).status).toBe(201);
    expect(t.service.moderation.proposal(c, 'eve')).toBeUndefined();
    expect(t.service.moderation.facts(c, 'eve', t.service.moderation.clock(c)).handledAt).toBeDefined();
  });

  it('needs no second dismissal of a case no rule proposed', async () => {
    await ingest(c, [{ type: 'action', player: 'fay', delta: -30 }]);
    const answer = await post('/v1/players/fay/verdicts', { community: c, outcome: 'dismissed', reason: 'fine' }, mia);
    expect(answer.status).toBe(201);
    expect(answer.body.secondOpinion).toBeUndefined();
    expect(t.service.moderation.facts(c, 'fay', t.service.moderation.clock(c)).handledAt).toBeDefined();
  });
});

describe('issue 28: claims on cases', () => {
  const c = 'claims';

  it('holds back another moderator\'s verdict, sanction and decision while the claim is in force, never a note; released, anyone acts', async () => {
    await ingest(c, [{ type: 'action', player: 'gus', delta: -9 }]);
    const claim = await post('/v1/players/gus/case/claim', { community: c }, mia);
    expect(claim).toMatchObject({ status: 200, body: { community: c, player: 'gus', moderator: 'Mia' } });
    const { claimedAt, until: end } = claim.body as { claimedAt: number; until: number };
    expect(end - claimedAt).toBe(15 * 60_000);
    const held = `is claimed by "Mia" until ${new Date(end).toISOString()}`;
    for (const [path, body] of [
      ['/v1/players/gus/verdicts', { community: c, outcome: 'upheld', reason: 'r' }],
      ['/v1/players/gus/sanctions', { community: c, action: 'warn', reason: 'r' }],
      ['/v1/reports/verdicts', { community: c, from: 'hal', to: 'gus', outcome: 'upheld', reason: 'r' }],
    ] as const) {
      expect(await post(path, body, ole)).toMatchObject({ status: 409, body: { error: 'CASE_CLAIMED', message: expect.stringContaining(held) } });
    }
    expect(await post('/v1/players/gus/case/claim', { community: c }, ole)).toMatchObject({ status: 409, body: { error: 'CASE_CLAIMED' } });
    expect((await post('/v1/players/gus/notes', { community: c, text: 'second look welcome' }, ole)).status).toBe(201);
    expect((await post('/v1/players/gus/sanctions', { community: c, id: 'c-warn', action: 'warn', reason: 'r' }, mia)).status).toBe(201);
    expect((await get(`/v1/players/gus/case?community=${c}`, ole)).body.claim).toMatchObject({ moderator: 'Mia', until: end });
    // Claiming again renews it, from when it was first claimed.
    const renewed = await post('/v1/players/gus/case/claim', { community: c, minutes: 30 }, mia);
    expect(renewed.body).toMatchObject({ claimedAt, moderator: 'Mia' });
    expect((await send(`/v1/players/gus/case/claim?community=${c}`, mia, { method: 'DELETE' })).status).toBe(200);
    expect((await send(`/v1/players/gus/case/claim?community=${c}`, mia, { method: 'DELETE' })).status).toBe(404);
    expect((await post('/v1/players/gus/sanctions', { community: c, action: 'warn', reason: 'r' }, ole)).status).toBe(201);
    expect((await get(`/v1/players/gus/case?community=${c}`, ole)).body.claim).toBeUndefined();
  });

  it('ends a claim at its end', async () => {
    await ingest(c, [{ type: 'action', player: 'ida', delta: -9 }]);
    expect((await post('/v1/players/ida/case/claim', { community: c, minutes: 0.002 }, mia)).status).toBe(200);
    await until('the claim to end', async () => ((await get(`/v1/players/ida/case?community=${c}`, ole)).body.claim === undefined ? true : undefined));
    expect((await post('/v1/players/ida/sanctions', { community: c, action: 'warn', reason: 'r' }, ole)).status).toBe(201);
  });

  it('bounds a claim by claims.maxMinutes, and lets a senior moderator release anyone\'s claim but not a moderator', async () => {
    expect(await post('/v1/players/joe/case/claim', { community: c, minutes: 61 }, jun)).toMatchObject({ status: 400, body: { message: expect.stringContaining('claims.maxMinutes (60)') } });
    expect((await post('/v1/players/joe/case/claim', { community: c }, mia)).status).toBe(200);
    expect(await send(`/v1/players/joe/case/claim?community=${c}`, jun, { method: 'DELETE' })).toMatchObject({ status: 409, body: { error: 'CASE_CLAIMED' } });
    expect((await post('/v1/players/joe/case/claim', { community: c }, jun)).status).toBe(409);
    expect(await send(`/v1/players/joe/case/claim?community=${c}`, ole, { method: 'DELETE' })).toMatchObject({ status: 200, body: { moderator: 'Mia' } });
    expect((await post('/v1/players/joe/case/claim', { community: c }, jun)).status).toBe(200);
  });
});

describe('issue 28: player tokens', () => {
  const c = 'tokens';
  let token: string;

  beforeAll(async () => {
    await ingest(c, [
      { type: 'action', player: 'kim', delta: -20 },
      { type: 'action', player: 'lou', delta: 8 },
    ]);
    expect((await post('/v1/players/kim/sanctions', { community: c, id: 't-mute', action: 'mute', reason: 'insults in chat' }, jun)).status).toBe(201);
    const minted = await post('/v1/player-tokens', { player: 'kim', community: c, seconds: 600 }, game);
    expect(minted).toMatchObject({ status: 201, body: { player: 'kim', community: c, token: expect.stringMatching(/^stp_/) } });
    token = String(minted.body.token);
  });

  it("opens the player's own view, reports and appeals, and nothing else", async () => {
    const view = await get(`/v1/players/kim/standing?community=${c}`, token);
    expect(view).toMatchObject({ status: 200, body: { player: 'kim', sanctions: [{ id: 't-mute', action: 'mute', reason: 'insults in chat' }] } });
    expect((await get(`/v1/players/kim/reports?community=${c}`, token)).status).toBe(200);
    expect(await get(`/v1/players/lou/standing?community=${c}`, token)).toMatchObject({ status: 403, body: { message: expect.stringContaining('about player "lou", not "kim"') } });
    expect(await get('/v1/players/kim/standing?community=default', token)).toMatchObject({ status: 403, body: { message: expect.stringContaining('community "default"') } });
    expect(await get('/v1/players/kim/standing', token)).toMatchObject({ status: 403 });
    for (const path of [`/v1/rankings/cqr?community=${c}`, `/v1/players/kim?community=${c}`, `/v1/players/kim/case?community=${c}`, '/v1/me']) {
      expect(await get(path, token), path).toMatchObject({ status: 403, body: { message: expect.stringContaining('a player token opens only') } });
    }
    expect(await post('/v1/player-tokens', { player: 'kim', community: c }, token)).toMatchObject({ status: 403, body: { message: expect.stringContaining('cannot mint another') } });
  });

  it('lets the player appeal their own active sanction once, recorded with no moderator', async () => {
    const appeal = await post('/v1/players/kim/standing/appeals', { community: c, id: 't-ap', sanction: 't-mute', text: 'I was quoting someone' }, token);
    expect(appeal).toMatchObject({ status: 201, body: { event: { type: 'appeal', status: 'opened', sanction: 't-mute', player: 'kim' } } });
    expect((appeal.body.event as Record<string, unknown>).moderator).toBeUndefined();
    expect((await post('/v1/players/kim/standing/appeals', { community: c, sanction: 't-mute' }, token)).status).toBe(409);
    expect((await post('/v1/players/kim/standing/appeals', { community: c, sanction: 'nope' }, token)).status).toBe(404);
    expect((await post('/v1/players/lou/standing/appeals', { community: c, sanction: 't-mute' }, token)).status).toBe(403);
    const view = (await get(`/v1/players/kim/standing?community=${c}`, token)).body as { sanctions: { appeal?: string }[]; howToAppeal: { sanctions: string[] } };
    expect(view.sanctions[0]!.appeal).toBe('t-ap');
    expect(view.howToAppeal.sanctions).toEqual([]);
  });

  it('refuses a forged, tampered, foreign or expired token 401, and a token longer than its lifetime cannot be minted', async () => {
    const [head, signature] = token.split('.');
    const flipped = `${head}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
    const foreign = PlayerTokens.withSecret(Buffer.alloc(32, 7)).mint({ player: 'kim', community: c, expiresAt: Date.now() + 60_000, key: 'x' });
    const secret = Buffer.from(await t.service.store.secret(TOKEN_SECRET, () => 'unused'), 'hex');
    const expired = PlayerTokens.withSecret(secret).mint({ player: 'kim', community: c, expiresAt: Date.now() - 1, key: 'x' });
    for (const [bad, reason] of [
      [flipped, 'not one this service signed'],
      [`stp_${Buffer.from(JSON.stringify({ p: 'lou', c, e: Date.now() + 60_000, k: 'x' })).toString('base64url')}.${signature}`, 'not one this service signed'],
      [foreign, 'not one this service signed'],
      [expired, 'has expired'],
    ] as const) {
      expect(await get(`/v1/players/kim/standing?community=${c}`, bad)).toMatchObject({ status: 401, body: { error: 'UNAUTHORIZED', message: expect.stringContaining(reason) } });
    }
    expect(await post('/v1/player-tokens', { player: 'kim', community: c, seconds: 3601 }, game)).toMatchObject({ status: 400, body: { message: expect.stringContaining('playerTokens.maxSeconds (3600)') } });
  });

  it('mints only for communities the minting key reaches, and only with player-view', async () => {
    const euView = (await createKey(t.service.store, ['player-view'], 'eu server', { communities: ['eu'] })).key;
    expect((await post('/v1/player-tokens', { player: 'kim', community: 'eu' }, euView)).status).toBe(201);
    expect(await post('/v1/player-tokens', { player: 'kim', community: c }, euView)).toMatchObject({ status: 403, body: { message: expect.stringContaining(`community "${c}"`) } });
    expect((await post('/v1/player-tokens', { player: 'kim', community: c }, t.keys.read)).status).toBe(403);
    expect((await post('/v1/player-tokens', { player: 'kim', community: c }, jun)).status).toBe(201);
  });
});

describe("issue 28: the client's methods for the player view, tokens and claims", () => {
  const c = 'client';

  it('mints a token with the game key, reads the view and reports and appeals with it, and claims and releases a case', async () => {
    await ingest(c, [{ type: 'action', player: 'max', delta: -3 }]);
    const moderator = new StandingClient({ url: t.url, key: jun });
    const claim = await moderator.claimCase('max', { community: c, minutes: 5 });
    expect(claim).toMatchObject({ player: 'max', moderator: 'Jun' });
    const mute = await moderator.sanction('max', { community: c, action: 'mute', reason: 'spam' });
    expect(await moderator.releaseCase('max', { community: c })).toMatchObject({ moderator: 'Jun', claimedAt: claim.claimedAt });
    const { token, expiresAt } = await new StandingClient({ url: t.url, key: game }).mintPlayerToken({ player: 'max', community: c, seconds: 120 });
    expect(expiresAt).toBeGreaterThan(Date.now());
    const player = new StandingClient({ url: t.url, key: token });
    expect(await player.playerStanding('max', { community: c })).toMatchObject({ sanctions: [{ id: String(mute.event.id), reason: 'spam' }] });
    expect(await player.reportOutcomes('max', { community: c })).toEqual({ reporter: 'max', community: c, reports: [] });
    expect(await player.appealOwnSanction('max', { community: c, sanction: String(mute.event.id) })).toMatchObject({ duplicate: false, event: { status: 'opened' } });
    const refused = await player.playerStanding('lou', { community: c }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 403, code: 'FORBIDDEN' });
  });
});
