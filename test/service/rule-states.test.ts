/**
 * issue 28: a senior moderator sets how a configured rule runs in a community (live, dry-run,
 * paused) through POST /v1/rules/:name/state, over real HTTP, on a real SQLite file and on a real
 * PostgreSQL: the scope it needs, keys restricted to other communities, an idempotent retry, a
 * rule not configured, pausing stopping its firings, a dry run only proposing, resuming acting
 * again and ending a breaker's pause, and the state kept over a restart. Each test works in a
 * community of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StandingClient } from '../../src/client/index.js';
import type { ServiceConfig } from '../../src/service/config.js';
import { createKey } from '../../src/service/keys.js';
import { dropPostgresSchemas, freshPostgresUrl, postgresAvailable } from '../support/postgres.js';
import { json, startTestService, tempDb, type TestService } from './support.js';

const RULES = {
  intervalMinutes: 0,
  list: [
    { name: 'quitter', label: 'Leaves matches', when: 'recent.drops >= 2', action: 'mute', ladder: ['10m', '1h'] },
    { name: 'crowd', label: 'Anyone in the crowd', when: 'player.startsWith("crowd")', action: 'propose', breaker: { share: 0.1, minPlayers: 2, pauseHours: 1 } },
  ],
};
const CONFIG = { scorers: [{ scorer: 'reliability' }, { scorer: 'reports' }], rules: RULES } as unknown as Partial<ServiceConfig>;

interface AuditEntry {
  action: string;
  player?: string;
  moderator?: string;
  moderatorKey?: string;
  event: Record<string, unknown>;
}

interface RuleRow {
  name: string;
  state: string;
  stateChange?: { state: string; id: string; time: number; moderator?: string; moderatorKey?: string; reason: string };
  paused?: { since: number; until: number };
  proposals: number;
  actions: number;
}

afterAll(dropPostgresSchemas);

const BACKENDS = [
  { name: 'SQLite', db: async () => tempDb(), skip: false },
  { name: 'PostgreSQL', db: freshPostgresUrl, skip: !postgresAvailable },
];

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(`issue 28: rule states through the API on ${backend.name}`, () => {
    let db: string;
    let t: TestService;
    let senior: { key: string; id: string };
    let moderator: string;
    let seniorElsewhere: string;

    beforeAll(async () => {
      db = await backend.db();
      t = await startTestService({ ...CONFIG, db });
      const made = await createKey(t.service.store, ['senior'], 'Sam');
      senior = { key: made.key, id: made.stored.id };
      moderator = (await createKey(t.service.store, ['moderate'], 'Mia')).key;
      seniorElsewhere = (await createKey(t.service.store, ['senior'], 'Sol', { communities: ['elsewhere'] })).key;
    });
    afterAll(async () => t.close());

    /** Event times from now on (the service's clock stamps a moderator's change now: later events must follow it). */
    let last = 0;
    const soon = (): string => {
      last = Math.max(last + 1000, Date.now() + 1000);
      return new Date(last).toISOString();
    };

    async function ingest(community: string, events: Record<string, unknown>[]): Promise<void> {
      const response = await t.call('/v1/events', { ...json(events.map((e) => ({ community, ...e }))), key: t.keys.ingest });
      expect(response.status, await response.clone().text()).toBe(200);
    }

    async function get<T>(path: string, key = moderator): Promise<T> {
      const response = await t.call(path, { key });
      expect(response.status, await response.clone().text()).toBe(200);
      return (await response.json()) as T;
    }

    const setState = (rule: string, body: Record<string, unknown>, key = senior.key) => t.call(`/v1/rules/${rule}/state`, { ...json(body), key });

    async function set(community: string, rule: string, state: string, reason: string): Promise<void> {
      const response = await setState(rule, { community, state, reason });
      expect(response.status, await response.clone().text()).toBe(201);
    }

    const ruleRow = async (community: string, name: string) => (await get<{ rules: RuleRow[] }>(`/v1/rules?community=${community}`)).rules.find((r) => r.name === name)!;
    const byRule = async (community: string, rule: string) => (await get<{ entries: AuditEntry[] }>(`/v1/audit?community=${community}&moderator=rule:${rule}&order=oldest`)).entries;

    /** A match `dropper` leaves: two events. */
    let match = 0;
    const drop = (dropper: string) => {
      match++;
      return [
        { type: 'match.start', id: `s${match}`, match: `m${match}`, players: [dropper, 'partner'], time: soon() },
        { type: 'disconnect', id: `d${match}`, player: dropper, time: soon() },
      ];
    };

    it('a senior moderator sets a rule paused, with its reason, recorded as a rule event in the audit log; GET /v1/rules says who, when and why', async () => {
      const c = 'states';
      const response = await setState('quitter', { community: c, state: 'paused', reason: 'too many false positives after the patch', id: 'pause-1' });
      expect(response.status).toBe(201);
      const recorded = (await response.json()) as { duplicate: boolean; event: Record<string, unknown> };
      expect(recorded.duplicate).toBe(false);
      expect(recorded.event).toMatchObject({ type: 'rule', id: 'pause-1', community: c, rule: 'quitter', state: 'paused', reason: 'too many false positives after the patch', moderator: 'Sam', moderatorKey: senior.id });
      const row = await ruleRow(c, 'quitter');
      expect(row.state).toBe('paused');
      expect(row.stateChange).toEqual({ state: 'paused', id: 'pause-1', time: recorded.event.time, moderator: 'Sam', moderatorKey: senior.id, reason: 'too many false positives after the patch' });
      // Other rules, and the same rule in another community, run as configured.
      expect((await ruleRow(c, 'crowd')).state).toBe('live');
      expect((await ruleRow(c, 'crowd')).stateChange).toBeUndefined();
      expect((await ruleRow('untouched', 'quitter')).state).toBe('live');
      const { entries } = await get<{ entries: AuditEntry[] }>(`/v1/audit?community=${c}&action=rule.paused`);
      expect(entries.map((e) => [e.action, e.player, e.moderator, e.moderatorKey, e.event.rule, e.event.reason])).toEqual([
        ['rule.paused', undefined, 'Sam', senior.id, 'quitter', 'too many false positives after the patch'],
      ]);
      // The typed client reads the same.
      const client = new StandingClient({ url: t.url, key: senior.key });
      const again = await client.setRuleState('quitter', { community: c, state: 'paused', reason: 'too many false positives after the patch', id: 'pause-1' });
      expect(again.duplicate).toBe(true);
    });

    it('an id sent again is answered 200 with the stored change, recording nothing twice, even with another body', async () => {
      const c = 'retries';
      const first = await setState('quitter', { community: c, state: 'dry-run', reason: 'watching it', id: 'dry-1' });
      expect(first.status).toBe(201);
      const stored = ((await first.json()) as { event: Record<string, unknown>; sequence: number });
      const retry = await setState('quitter', { community: c, state: 'dry-run', reason: 'watching it', id: 'dry-1' });
      expect(retry.status).toBe(200);
      expect(await retry.json()).toEqual({ community: c, sequence: stored.sequence, duplicate: true, event: stored.event });
      const changed = await setState('quitter', { community: c, state: 'paused', reason: 'another thing', id: 'dry-1' });
      expect(changed.status).toBe(200);
      expect(((await changed.json()) as { event: Record<string, unknown> }).event).toEqual(stored.event);
      expect((await get<{ entries: AuditEntry[] }>(`/v1/audit?community=${c}&action=rule`)).entries).toHaveLength(1);
      expect((await ruleRow(c, 'quitter')).state).toBe('dry-run');
    });

    it('needs senior: a moderator is refused 403 naming it, a reader too, and a senior key restricted to other communities is refused', async () => {
      const c = 'scopes';
      const refused = await setState('quitter', { community: c, state: 'paused', reason: 'r' }, moderator);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { message: string }).message).toContain('"senior"');
      expect((await setState('quitter', { community: c, state: 'paused', reason: 'r' }, t.keys.read)).status).toBe(403);
      const elsewhere = await setState('quitter', { community: c, state: 'paused', reason: 'r' }, seniorElsewhere);
      expect(elsewhere.status).toBe(403);
      expect(((await elsewhere.json()) as { message: string }).message).toContain(c);
      // In its own community, the restricted senior key may.
      expect((await setState('quitter', { community: 'elsewhere', state: 'paused', reason: 'r' }, seniorElsewhere)).status).toBe(201);
      expect((await get<{ entries: AuditEntry[] }>(`/v1/audit?community=${c}&action=rule`)).entries).toEqual([]);
      expect((await ruleRow(c, 'quitter')).state).toBe('live');
    });

    it('refuses a rule not configured (404 naming it), a state it does not know, a blank reason, a moderator in the body, and a rule event posted as an event', async () => {
      const c = 'refusals';
      const unknown = await setState('nosuchrule', { community: c, state: 'paused', reason: 'r' });
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { message: string }).message).toBe('no configured rule is named "nosuchrule" (configured: "quitter", "crowd"); rules are defined in the configuration');
      expect((await setState('quitter', { community: c, state: 'off', reason: 'r' })).status).toBe(400);
      expect((await setState('quitter', { community: c, state: 'paused' })).status).toBe(400);
      const blank = await setState('quitter', { community: c, state: 'paused', reason: '   ' });
      expect(blank.status).toBe(400);
      expect(((await blank.json()) as { message: string }).message).toBe("body/reason must not be blank: a change of a rule's state says why");
      expect((await setState('quitter', { community: c, state: 'paused', reason: 'r', moderator: 'me' })).status).toBe(400);
      const posted = await t.call('/v1/events', { ...json([{ type: 'rule', community: c, time: soon(), rule: 'quitter', state: 'paused', reason: 'r' }]), key: t.keys.ingest });
      expect(posted.status).toBe(400);
      expect(await posted.json()).toMatchObject({ problems: [{ field: 'type', reason: '"rule" changes how a moderation rule runs: only a senior moderator does, through POST /v1/rules/{name}/state' }] });
      expect((await ruleRow(c, 'quitter')).state).toBe('live');
    });

    it('paused: the rule fires no more; dry-run: it only proposes what it would do; live: it acts again', async () => {
      const c = 'firings';
      await set(c, 'quitter', 'paused', 'investigating');
      await ingest(c, [...drop('ann'), ...drop('ann'), ...drop('ann')]);
      expect(await byRule(c, 'quitter')).toEqual([]);

      await set(c, 'quitter', 'dry-run', 'see what it would do');
      await ingest(c, drop('ann'));
      const proposed = await byRule(c, 'quitter');
      expect(proposed.map((e) => [e.action, e.player])).toEqual([['note', 'ann']]);
      expect(proposed[0]!.event.text).toBe('Leaves matches: recent.drops >= 2 (dry run: would mute for 10m, offence 1)');

      await set(c, 'quitter', 'live', 'looks right');
      await ingest(c, [...drop('bob'), ...drop('bob')]);
      const acted = await byRule(c, 'quitter');
      expect(acted.map((e) => [e.action, e.player])).toEqual([
        ['note', 'ann'],
        ['sanction.mute', 'bob'],
      ]);
      expect(await get<{ entries: AuditEntry[] }>(`/v1/audit?community=${c}&action=rule&order=oldest`).then((r) => r.entries.map((e) => e.action))).toEqual(['rule.paused', 'rule.dry-run', 'rule.live']);
    });

    it("live ends a circuit breaker's pause early: the rule acts again, and the breaker's alert is cleared", async () => {
      const c = 'breaker';
      // Three crowd players at once: over max(2, 0.1 · 3), so the rule pauses itself for an hour.
      await ingest(c, [{ type: 'chat', id: 'c1', from: 'crowd1', to: ['crowd2', 'crowd3'], time: soon() }]);
      const tripped = await ruleRow(c, 'crowd');
      expect(tripped.paused).toBeDefined();
      expect(tripped.proposals).toBe(0);
      await ingest(c, [{ type: 'played', id: 'p4', player: 'crowd4', games: 1, time: soon() }]);
      expect(await byRule(c, 'crowd')).toEqual([]);

      await set(c, 'crowd', 'live', 'the raid is over');
      const resumed = await ruleRow(c, 'crowd');
      expect(resumed.paused).toBeUndefined();
      expect(resumed).toMatchObject({ state: 'live', stateChange: { state: 'live', reason: 'the raid is over', moderator: 'Sam' } });
      await ingest(c, [{ type: 'played', id: 'p5', player: 'crowd5', games: 1, time: soon() }]);
      expect((await byRule(c, 'crowd')).map((e) => [e.action, e.player])).toEqual([['note', 'crowd5']]);
      await t.service.alerts.flush();
      const alerts = await get<{ alerts: { scorer: string; threshold: string; kind: string }[] }>(`/v1/alerts?community=${c}`);
      expect(alerts.alerts.map((a) => [a.scorer, a.threshold, a.kind])).toEqual([
        ['rule:crowd', 'circuit-breaker', 'raised'],
        ['rule:crowd', 'circuit-breaker', 'cleared'],
      ]);
    });

    it('a restart on the same store keeps the state: the rule stays paused and fires no more', async () => {
      const c = 'restarts';
      await set(c, 'quitter', 'paused', 'kept over a restart');
      const before = await ruleRow(c, 'quitter');
      await t.close();
      t = await startTestService({ ...CONFIG, db }, t.keys);
      const after = await ruleRow(c, 'quitter');
      expect(after.state).toBe('paused');
      expect(after.stateChange).toEqual(before.stateChange);
      await ingest(c, [...drop('cat'), ...drop('cat')]);
      expect(await byRule(c, 'quitter')).toEqual([]);
    });
  });
}
