/**
 * issue 28: moderation rules in `standing serve`, over real HTTP on a real SQLite file: a rule's
 * sanction and a rule's proposal recorded as ordinary moderator events (audit log, case, queue
 * with the rule's label), GET /v1/rules with firings and precision against a person's verdict, a
 * retried batch and a restart adding nothing, the circuit breaker pausing a rule and raising an
 * alert. Each test works in a community of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StandingClient } from '../../src/client/index.js';
import { createKey } from '../../src/service/keys.js';
import { ruleEventId } from '../../src/moderation/rules/stage.js';
import type { ServiceConfig } from '../../src/service/config.js';
import { json, startTestService, tempDb, type TestService } from './support.js';

const MIN = 60_000;
/** Event times an hour ago and on, so the service's clock bound never refuses them. */
const T0 = Math.floor((Date.now() - 3_600_000) / MIN) * MIN;
const at = (minutes: number) => new Date(T0 + minutes * MIN).toISOString();

const RULES = {
  intervalMinutes: 0,
  list: [
    { name: 'quitter', label: 'Leaves matches', when: 'recent.drops >= 2', action: 'mute', ladder: ['10m', '1h'] },
    { name: 'reported', label: 'Reported by two players', reason: 'two reports within a day', when: 'recent.reports >= 2', action: 'propose' },
    { name: 'everyone', label: 'Anyone who chats', when: 'player.startsWith("crowd")', action: 'propose', breaker: { share: 0.1, minPlayers: 2, pauseHours: 1 } },
  ],
};
const CONFIG = { scorers: [{ scorer: 'reliability' }, { scorer: 'reports' }], rules: RULES } as unknown as Partial<ServiceConfig>;

let db: string;
let t: TestService;
let mia: string;

beforeAll(async () => {
  db = tempDb();
  t = await startTestService({ ...CONFIG, db });
  mia = (await createKey(t.service.store, ['moderate'], 'Mia')).key;
});
afterAll(async () => t.close());

async function ingest(community: string, events: Record<string, unknown>[]): Promise<{ accepted: number; duplicates: number }> {
  const response = await t.call('/v1/events', { ...json(events.map((e) => ({ community, ...e }))), key: t.keys.ingest });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as { accepted: number; duplicates: number };
}

async function get<T>(path: string, key = mia): Promise<T> {
  const response = await t.call(path, { key });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}

/** A match of `dropper` and `other` at minute `m`, which `dropper` leaves a minute later. */
const dropped = (n: number, m: number, dropper: string, other: string) => [
  { type: 'match.start', id: `s${n}`, match: `m${n}`, players: [dropper, other], time: at(m) },
  { type: 'disconnect', id: `d${n}`, player: dropper, time: at(m + 1) },
];

interface AuditEntry {
  action: string;
  player?: string;
  moderator?: string;
  event: Record<string, unknown>;
}

describe('issue 28: rules in standing serve', () => {
  it("records a rule's mute as a sanction by rule:<name>, with its deterministic id, in the audit log and the case; a retry adds nothing", async () => {
    const c = 'mutes';
    const batch = [...dropped(1, 0, 'ann', 'bob'), ...dropped(2, 10, 'ann', 'bob')];
    await ingest(c, batch);
    const id = ruleEventId(c, 'quitter', 'ann', T0 + 11 * MIN);
    const { entries } = await get<{ entries: AuditEntry[] }>(`/v1/audit?community=${c}&moderator=rule:quitter`);
    expect(entries.map((e) => [e.action, e.player, e.moderator, e.event.id, e.event.until, e.event.reason])).toEqual([
      ['sanction.mute', 'ann', 'rule:quitter', id, T0 + 21 * MIN, 'Leaves matches: recent.drops >= 2 (offence 1: mute for 10m)'],
    ]);
    const kase = await get<{ record: { sanctions: { id: string; moderator?: string; active: boolean }[] } }>(`/v1/players/ann/case?community=${c}`);
    expect(kase.record.sanctions).toMatchObject([{ id, moderator: 'rule:quitter', active: true }]);
    // The same batch again: duplicates, and the rule decides nothing new.
    expect(await ingest(c, batch)).toMatchObject({ accepted: 0, duplicates: 4 });
    expect((await get<{ entries: AuditEntry[] }>(`/v1/audit?community=${c}&moderator=rule:quitter`)).entries).toHaveLength(1);
  });

  it("puts a proposed player in the queue with the rule's label and reason, and counts precision once a person judges", async () => {
    const c = 'proposals';
    await ingest(c, [
      { type: 'played', id: 'p1', player: 'r1', games: 3, time: at(0) },
      { type: 'played', id: 'p2', player: 'r2', games: 3, time: at(0) },
      { type: 'report', id: 'rep1', from: 'r1', to: 'cat', reason: 'griefing', time: at(1) },
      { type: 'report', id: 'rep2', from: 'r2', to: 'cat', reason: 'griefing', time: at(2) },
    ]);
    const queue = await get<{ rows: { player: string; proposals: { rule: string; label?: string; time: number }[]; reasons: string[] }[] }>(`/v1/queue?community=${c}`);
    const row = queue.rows.find((r) => r.player === 'cat')!;
    expect(row.proposals).toEqual([{ rule: 'reported', label: 'Reported by two players', time: T0 + 2 * MIN }]);
    expect(row.reasons[0]).toBe('rule reported (Reported by two players) proposes a look, just now');
    const { entries } = await get<{ entries: AuditEntry[] }>(`/v1/audit?community=${c}&moderator=rule:reported`);
    expect(entries.map((e) => [e.action, e.player, e.event.text])).toEqual([['note', 'cat', 'Reported by two players: two reports within a day']]);

    type Rules = { rules: { name: string; actions: number; proposals: number; players: number; verdicts: { judged: number; upheld: number }; precision: number | null; recall: number | null }[] };
    const before = (await get<Rules>(`/v1/rules?community=${c}`)).rules.find((r) => r.name === 'reported')!;
    expect(before).toMatchObject({ actions: 1, proposals: 1, players: 1, verdicts: { judged: 0, upheld: 0 }, precision: null, recall: null });
    // Mia upholds: the proposal is handled (cat leaves the queue) and the rule's precision is 1.
    const verdict = await t.call('/v1/players/cat/verdicts', { ...json({ community: c, outcome: 'upheld', reason: 'clips reviewed' }), key: mia });
    expect(verdict.status).toBe(201);
    const after = (await get<Rules>(`/v1/rules?community=${c}`)).rules.find((r) => r.name === 'reported')!;
    expect(after).toMatchObject({ verdicts: { judged: 1, upheld: 1 }, precision: 1, recall: 1 });
    expect((await get<{ rows: { player: string }[] }>(`/v1/queue?community=${c}`)).rows.map((r) => r.player)).not.toContain('cat');
  });

  it('pauses a rule past its circuit breaker, raises an alert about it, and GET /v1/rules says so', async () => {
    const c = 'breaker';
    // Two crowd players: within max(2, 0.1 · 2); then three more at once: five in the hour, over the limit.
    await ingest(c, [{ type: 'chat', id: 'c1', from: 'crowd1', to: ['crowd2'], time: at(0) }]);
    await ingest(c, [{ type: 'chat', id: 'c2', from: 'crowd3', to: ['crowd4', 'crowd5'], time: at(1) }]);
    const rules = await get<{ rules: { name: string; proposals: number; trips: number; paused?: { since: number; until: number } }[] }>(`/v1/rules?community=${c}`);
    expect(rules.rules.find((r) => r.name === 'everyone')).toMatchObject({ proposals: 2, trips: 1, paused: { since: T0 + MIN, until: T0 + 61 * MIN } });
    await t.service.alerts.flush();
    const alerts = await get<{ alerts: { scorer: string; player: string; threshold: string; kind: string; community: string }[] }>(`/v1/alerts?community=${c}`);
    expect(alerts.alerts).toMatchObject([{ scorer: 'rule:everyone', player: '', threshold: 'circuit-breaker', kind: 'raised', community: c }]);
    // The breaker's alert is about no player: the queue lists none for it.
    const queue = await get<{ rows: { player: string }[] }>(`/v1/queue?community=${c}`);
    expect(queue.rows.map((r) => r.player)).not.toContain('');
  });

  it('GET /v1/rules needs the moderate scope and lists every rule, in order, for a community without events', async () => {
    expect((await t.call('/v1/rules', { key: t.keys.read })).status).toBe(403);
    const empty = await get<{ community: string; sequence: number; intervalMinutes: number; rules: { name: string; actions: number; failures: number }[] }>('/v1/rules?community=nobody');
    expect(empty).toMatchObject({ community: 'nobody', sequence: 0, intervalMinutes: 0 });
    expect(empty.rules.map((r) => [r.name, r.actions, r.failures])).toEqual([
      ['quitter', 0, 0],
      ['reported', 0, 0],
      ['everyone', 0, 0],
    ]);
    // The typed client reads the same.
    const client = new StandingClient({ url: t.url, key: mia });
    expect((await client.rules({ community: 'nobody' })).rules.map((r) => r.name)).toEqual(['quitter', 'reported', 'everyone']);
  });

  it('a restart on the same store decides nothing again: the log holds the same rule events', async () => {
    const c = 'restart';
    await ingest(c, [...dropped(1, 0, 'dan', 'eve'), ...dropped(2, 5, 'dan', 'eve')]);
    const before = (await get<{ entries: AuditEntry[] }>(`/v1/audit?community=${c}`)).entries.map((e) => e.event.id);
    expect(before).toHaveLength(1);
    await t.close();
    t = await startTestService({ ...CONFIG, db }, t.keys);
    await ingest(c, [{ type: 'chat', id: 'later', from: 'dan', to: ['eve'], time: at(7) }]);
    expect((await get<{ entries: AuditEntry[] }>(`/v1/audit?community=${c}`)).entries.map((e) => e.event.id)).toEqual(before);
  });

  it("refuses a client's event or action whose id starts with rule-, which would keep a rule's action from being stored", async () => {
    const response = await t.call('/v1/events', { ...json([{ type: 'chat', id: 'rule-abc', from: 'a', to: ['b'], time: at(0), community: 'ids' }]), key: t.keys.ingest });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'BATCH_REJECTED', problems: [{ index: 0, code: 'EVENT_INVALID', field: 'id', reason: 'starts with "rule-", which names the moderation rules\' own events: give the event another id' }] });
    const action = await t.call('/v1/players/a/notes', { ...json({ community: 'ids', id: 'rule-abc', text: 'hi' }), key: mia });
    expect(action.status).toBe(400);
    expect(await action.json()).toEqual({ error: 'REQUEST_INVALID', message: 'body/id starts with "rule-", which names the moderation rules\' own events: give the event another id' });
  });
});
