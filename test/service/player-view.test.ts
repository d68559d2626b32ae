/**
 * issue 28, what a player may see, through the real HTTP API: the view's parts on a community
 * built by hand (standing per scorer in words, sanctions with reason and end, advice, appeals);
 * what reporters learn of their reports, by hand-computed outcomes; and the property that the
 * view never holds another player's id, over the demo community and over generated communities
 * (every event type, moderator events included).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchRejectedError } from '../../src/errors.js';
import { DEMO_OBSERVERS, demoEvents } from '../../src/service/demo.js';
import { createKey } from '../../src/service/keys.js';
import { publicNames } from '../../src/service/player-view.js';
import { rawLog, validEvents } from '../support/arbitrary-events.js';
import { json, startTestService, type TestService } from './support.js';

const T0 = Date.parse('2026-11-01T10:00:00Z');
const MINUTE = 60_000;
const UNTIL = Date.parse('2099-01-01T00:00:00Z');

let t: TestService;
let game: string;
let moderator: string;

beforeAll(async () => {
  t = await startTestService({
    scorers: [{ scorer: 'cqr' }, { scorer: 'reliability' }, { scorer: 'chat' }, { scorer: 'trust', params: { observers: DEMO_OBSERVERS } }, { scorer: 'reports' }],
    maxClockSkewSeconds: null,
  });
  game = (await createKey(t.service.store, ['player-view'], 'game server')).key;
  moderator = (await createKey(t.service.store, ['senior'], 'Mia')).key;
  const demo = demoEvents(2024);
  for (let i = 0; i < demo.length; i += 500) await t.service.live.ingest(demo.slice(i, i + 500));
}, 120_000);
afterAll(() => t.close());

interface View {
  player: string;
  standing: { scorer: string; score: number; concern: boolean; text: string; band?: string }[];
  sanctions: { id: string; action: string; since: number; until?: number; reason: string; appeal?: string }[];
  improve: string[];
  appeals: { id: string; status: string; decided?: { reason?: string } }[];
  howToAppeal: { route: string; sanctions: string[]; text: string };
}

async function view(community: string, player: string): Promise<{ status: number; body: View }> {
  const response = await t.call(`/v1/players/${encodeURIComponent(player)}/standing?community=${encodeURIComponent(community)}`, { key: game });
  return { status: response.status, body: (await response.json()) as View };
}

async function act(path: string, body: unknown): Promise<void> {
  const response = await t.call(path, { ...json(body), key: moderator });
  expect(response.status, await response.clone().text()).toBe(201);
}

/** Every player id the events name. */
function playersOf(events: readonly Record<string, unknown>[]): Set<string> {
  const ids = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value === 'string') ids.add(value);
    else if (Array.isArray(value)) value.forEach(add);
  };
  for (const e of events) for (const field of ['player', 'from', 'to', 'players', 'bots']) add(e[field]);
  return ids;
}

/** Every text of a JSON value, keys included. */
function texts(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) texts(v, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      texts(v, out);
    }
  }
  return out;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The other players' ids found in the view, as a whole value or a whole word of a text. */
function othersIn(body: unknown, player: string, players: ReadonlySet<string>): string[] {
  const all = texts(body);
  const found: string[] = [];
  for (const other of players) {
    if (other === player) continue;
    const word = new RegExp(`(^|[^A-Za-z0-9_])${escape(other)}($|[^A-Za-z0-9_])`);
    if (all.some((text) => text === other || word.test(text))) found.push(other);
  }
  return found;
}

describe('issue 28: the player view', () => {
  const c = 'view';

  beforeAll(async () => {
    const events: Record<string, unknown>[] = [];
    // 20 players: kim harms the community, drops every match and is reported by three players who play a lot.
    for (let i = 0; i < 20; i++) events.push({ type: 'action', time: T0 + i, community: c, player: `n${i}`, delta: 5 + i });
    events.push({ type: 'action', time: T0 + 30, community: c, player: 'kim', delta: -80 });
    for (let m = 0; m < 4; m++) {
      events.push({ type: 'match.start', time: T0 + (m + 1) * MINUTE, community: c, match: `m${m}`, players: ['kim', `n${m}`] });
      events.push({ type: 'disconnect', time: T0 + (m + 1) * MINUTE + 5_000, community: c, player: 'kim' });
      events.push({ type: 'match.end', time: T0 + (m + 1) * MINUTE + 30_000, community: c, match: `m${m}` });
    }
    for (const r of ['n1', 'n2', 'n3']) {
      events.push({ type: 'played', time: T0 + 10 * MINUTE, community: c, player: r, games: 40 });
      events.push({ type: 'report', time: T0 + 11 * MINUTE, community: c, from: r, to: 'kim', reason: `${r} saw it` });
    }
    await t.service.live.ingest(events);
    await act('/v1/players/kim/sanctions', { community: c, id: 'v-mute', action: 'mute', until: UNTIL, reason: 'insults in match chat' });
    await act('/v1/players/kim/sanctions', { community: c, id: 'v-warn', action: 'warn', reason: 'leaving matches early' });
    await act('/v1/players/kim/sanctions', { community: c, id: 'v-old', action: 'warn', reason: 'old' });
    await act('/v1/players/kim/sanctions', { community: c, action: 'lift', sanction: 'v-old', reason: 'served' });
    await act('/v1/players/kim/appeals', { community: c, id: 'v-ap', sanction: 'v-warn', text: 'my router' });
  });

  it('says where the player stands per scorer in the scorers\' words, with concern where they are in the bad tail, and advice for those', async () => {
    const { status, body } = await view(c, 'kim');
    expect(status).toBe(200);
    const byScorer = Object.fromEntries(body.standing.map((s) => [s.scorer, s]));
    expect(Object.keys(byScorer)).toEqual(['cqr', 'reliability', 'reports']);
    expect(byScorer.cqr).toMatchObject({ score: -80, concern: true, text: expect.stringMatching(/^1 of their last 1 counted action harmed the community — cqr -80, the worst of 21$/) });
    expect(byScorer.reliability).toMatchObject({ concern: true, band: expect.any(String), text: expect.stringMatching(/^dropped 4 of their 4 matches in the last 100 days .* — reliability /) });
    expect(byScorer.reports).toMatchObject({ concern: true, text: expect.stringMatching(/^reported by 3 players, all with good judgment, the latest 28 days ago — reports /) });
    expect(body.improve).toHaveLength(3);
    expect(body.improve[0]).toMatch(/^Act in ways that help the community/);
    expect(body.improve[1]).toMatch(/^Finish the matches you start: .* Matches older than 100 days stop counting\.$/);
    expect(body.improve[2]).toMatch(/^Play so that nobody has cause to report you/);
  });

  it('lists the active sanctions newest first with reason and end, the open appeal on one, and how to appeal the rest', async () => {
    const { body } = await view(c, 'kim');
    expect(body.sanctions.map(({ id, action, until, reason, appeal }) => ({ id, action, until, reason, appeal }))).toEqual([
      { id: 'v-warn', action: 'warn', until: undefined, reason: 'leaving matches early', appeal: 'v-ap' },
      { id: 'v-mute', action: 'mute', until: UNTIL, reason: 'insults in match chat', appeal: undefined },
    ]);
    expect(body.appeals).toEqual([{ id: 'v-ap', time: expect.any(Number), sanction: 'v-warn', status: 'open' }]);
    expect(body.howToAppeal).toEqual({ route: 'POST /v1/players/kim/standing/appeals', sanctions: ['v-mute'], text: expect.stringMatching(/^Name the sanction you appeal/) });
  });

  it('tells a player who stands well that nothing stands out, and answers 404 for a player it knows nothing of', async () => {
    const { body } = await view(c, 'n19');
    expect(body.standing.every((s) => !s.concern)).toBe(true);
    expect(body.sanctions).toEqual([]);
    expect(body.improve).toEqual(['Nothing stands out: under every score you are outside the worst 10% of the community. Keep it so.']);
    expect(body.howToAppeal.text).toBe('You have no active sanction to appeal.');
    expect((await view(c, 'nobody')).status).toBe(404);
  });

  it('names no reporter, rater, moderator or note: none of the other players of the community', async () => {
    const { body } = await view(c, 'kim');
    const players = new Set([...Array.from({ length: 20 }, (_, i) => `n${i}`), 'kim']);
    expect(othersIn(body, 'kim', players)).toEqual([]);
    expect(JSON.stringify(body)).not.toContain('Mia');
    expect(JSON.stringify(body)).not.toContain('my router'); // the appeal's own text stays the moderators'
  });

  it('calls an instance named after its parameters by its scorer id, numbered past the first', () => {
    expect(publicNames([
      { name: 'cqr', scorer: { id: 'cqr' } },
      { name: 'cqr T=Infinity', scorer: { id: 'cqr' } },
      { name: 'trust observers=F1,F2', scorer: { id: 'trust' } },
      { name: 'strict reports', scorer: { id: 'reports' } },
    ])).toEqual(['cqr', 'cqr 2', 'trust', 'strict reports']);
  });
});

describe('issue 28: the player view never holds another player\'s id', () => {
  it('over every player of the demo community', async () => {
    const players = playersOf(demoEvents(2024) as Record<string, unknown>[]);
    expect(players.size).toBeGreaterThanOrEqual(20);
    for (const player of players) {
      const { status, body } = await view('default', player);
      if (status === 404) continue;
      expect(status).toBe(200);
      expect({ player, others: othersIn(body, player, players) }).toEqual({ player, others: [] });
    }
  });

  it('over generated communities: every event type, moderator events, sanctions and appeals included', async () => {
    let run = 0;
    let viewed = 0;
    let sanctioned = 0;
    await fc.assert(
      fc.asyncProperty(rawLog({ moderation: true, communities: ['here'] }, 80), async (raw) => {
        const community = `generated-${run++}`;
        const events = validEvents(raw.map((e) => ({ ...e, community })));
        try {
          await t.service.live.ingest(events);
        } catch (error) {
          if (!(error instanceof BatchRejectedError)) throw error;
          for (const event of events) await t.service.live.ingest([event]).catch((e: unknown) => (e instanceof BatchRejectedError ? undefined : Promise.reject(e)));
        }
        await t.service.moderation.whenCurrent();
        const players = playersOf(events as unknown as Record<string, unknown>[]);
        for (const player of players) {
          const { status, body } = await view(community, player);
          if (status === 404) continue;
          expect(status).toBe(200);
          viewed++;
          if (body.sanctions.length > 0) sanctioned++;
          expect({ player, others: othersIn(body, player, players) }).toEqual({ player, others: [] });
        }
      }),
      { numRuns: 25, seed: 28 },
    );
    // The property saw views, sanctions among them, not only unknown players.
    expect(viewed).toBeGreaterThan(50);
    expect(sanctioned).toBeGreaterThan(5);
  });
});

describe('issue 28: what reporters learn of their reports', () => {
  const c = 'reporting';

  it('answers acted, not acted or pending per report, newest first, from what moderators did after it; never the sanction', async () => {
    await t.service.live.ingest([
      { type: 'report', time: T0, community: c, id: 'r-bob', from: 'ann', to: 'bob' },
      { type: 'report', time: T0 + 1, community: c, id: 'r-cid', from: 'ann', to: 'cid' },
      { type: 'report', time: T0 + 2, community: c, id: 'r-dan', from: 'ann', to: 'dan' },
      { type: 'report', time: T0 + 3, community: c, id: 'r-eve', from: 'ann', to: 'eve' },
      { type: 'report', time: T0 + 4, community: c, id: 'r-fay', from: 'ann', to: 'fay' },
      { type: 'report', time: T0 + 5, community: c, id: 'r-other', from: 'gil', to: 'bob' },
    ]);
    await act('/v1/players/bob/sanctions', { community: c, action: 'ban', reason: 'cheating, per the replay' });
    await act('/v1/players/cid/verdicts', { community: c, outcome: 'dismissed', reason: 'no clip' });
    await act('/v1/reports/verdicts', { community: c, report: 'r-eve', outcome: 'upheld', reason: 'seen' });
    await act('/v1/reports/verdicts', { community: c, from: 'ann', to: 'fay', outcome: 'dismissed', reason: 'no' });
    // Filed after fay's case was decided, and after cid's: theirs are pending.
    await t.service.live.ingest([
      { type: 'report', time: T0 + 6, community: c, id: 'r-fay2', from: 'ann', to: 'fay' },
      { type: 'report', time: T0 + 7, community: c, id: 'r-cid2', from: 'ann', to: 'cid' },
    ]);
    const token = ((await (await t.call('/v1/player-tokens', { ...json({ player: 'ann', community: c }), key: game })).json()) as { token: string }).token;
    const response = await t.call(`/v1/players/ann/reports?community=${c}`, { key: token });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { reports: { id: string; about: string; outcome: string }[]; next?: number };
    expect(body.reports.map(({ id, about, outcome }) => [id, about, outcome])).toEqual([
      ['r-cid2', 'cid', 'pending'],
      ['r-fay2', 'fay', 'pending'],
      ['r-fay', 'fay', 'not acted'],
      ['r-eve', 'eve', 'acted'],
      ['r-dan', 'dan', 'pending'],
      ['r-cid', 'cid', 'not acted'],
      ['r-bob', 'bob', 'acted'],
    ]);
    expect(body.next).toBeUndefined();
    expect(JSON.stringify(body)).not.toMatch(/ban|cheating|replay/);
    const page = (await (await t.call(`/v1/players/ann/reports?community=${c}&limit=3`, { key: token })).json()) as { reports: { id: string }[]; next: number };
    expect(page.reports.map((r) => r.id)).toEqual(['r-cid2', 'r-fay2', 'r-fay']);
    const rest = (await (await t.call(`/v1/players/ann/reports?community=${c}&limit=3&before=${page.next}`, { key: token })).json()) as { reports: { id: string }[] };
    expect(rest.reports.map((r) => r.id)).toEqual(['r-eve', 'r-dan', 'r-cid']);
    expect((await t.call(`/v1/players/gil/reports?community=${c}`, { key: token })).status).toBe(403);
  });
});
