/**
 * issue 28: a cluster's worker applies the moderation rules as `standing serve` does — the same
 * events, with the same ids, as a backtest of the log gives (which equals what serve stores,
 * test/unit/service/rules-backtest.test.ts) — and its gateway answers GET /v1/rules and the
 * queue's proposals from the owning worker; a senior moderator's change of a rule's state, sent
 * to the gateway, is recorded by the owning worker and applied there as serve applies it. Real
 * nats-server processes and the real PostgreSQL.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openEventSource } from '../../src/events/ndjson.js';
import { backtest } from '../../src/service/backtest.js';
import { resolveConfig } from '../../src/service/config.js';
import { openPostgresStore } from '../../src/store/postgres.js';
import { freshPostgresUrl } from '../support/postgres.js';
import { clusterConfig, ingestKey, keyWith, post, until } from './support.js';
import { clusterPerFile } from './per-file.js';

const cluster = clusterPerFile();

const T0 = Date.parse('2026-11-01T10:00:00Z');
const MIN = 60_000;
const RULES = {
  intervalMinutes: 0,
  list: [
    { name: 'quitter', label: 'Leaves matches', when: 'recent.drops >= 2', action: 'mute', ladder: ['10m', '1h'] },
    { name: 'reported', label: 'Reported twice', when: 'recent.reports >= 2', action: 'propose' },
  ],
};

/** ann leaves three matches in two communities' worth of events; two players report cat, whom both met in the last (the reports' match defences count a report after a shared match). */
function log(community: string): Record<string, unknown>[] {
  const at = (m: number) => T0 + m * MIN;
  return [
    ...[0, 10, 30].flatMap((m, n) => [
      { type: 'match.start', id: `${community}-s${n}`, match: `m${n}`, players: n === 2 ? ['ann', 'bob', 'cat'] : ['ann', 'bob'], time: at(m) },
      { type: 'disconnect', id: `${community}-d${n}`, player: 'ann', time: at(m + 1) },
    ]),
    { type: 'played', id: `${community}-p1`, player: 'bob', games: 3, time: at(40) },
    { type: 'played', id: `${community}-p2`, player: 'ann', games: 3, time: at(40) },
    { type: 'report', id: `${community}-r1`, from: 'bob', to: 'cat', time: at(41) },
    { type: 'report', id: `${community}-r2`, from: 'ann', to: 'cat', time: at(42) },
  ].map((e) => ({ ...e, community }));
}

describe('issue 28: rules in a cluster', () => {
  it("a worker stores the rules' events a backtest of the log gives, and the gateway forwards GET /v1/rules and the queue", async () => {
    const db = await freshPostgresUrl();
    const base = clusterConfig(db, cluster.nats.urls, { partitions: 2 });
    const config = resolveConfig([{ source: 'test', values: { ...base, scorers: [{ scorer: 'reliability' }, { scorer: 'reports' }], alerts: { ...base.alerts, thresholds: [] }, rules: RULES } }]);
    const key = await ingestKey(db);
    const moderator = await keyWith(db, ['moderate']);
    const gateway = await cluster.gateway(config);
    await cluster.worker(config, 'w');
    const events = [...log('c0'), ...log('c1')];
    // One batch per three events: the rules decide the same however the log arrives.
    for (let i = 0; i < events.length; i += 3) expect((await post(gateway.url, key, events.slice(i, i + 3))).status).toBe(200);

    const file = join(mkdtempSync(join(tmpdir(), 'standing-rules-')), 'log.ndjson');
    writeFileSync(file, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    const expected = (await backtest(config, openEventSource(file))).decisions.map((d) => [d.community, d.id, `rule:${d.rule}`, d.player, d.time]);
    expect(expected).toHaveLength(6); // per community: two mutes of ann, a proposal on cat

    const store = await openPostgresStore(db);
    try {
      const stored = async () =>
        (await store.moderationEvents({ limit: 100 }))
          .filter((e) => String((e.event as { moderator?: string }).moderator).startsWith('rule:'))
          .map((e) => [e.community, e.event.id, (e.event as { moderator?: string }).moderator, e.player, e.event.time]);
      // A batch is answered once applied, its rules' events stored in the same commit.
      const order = (rows: unknown[][]) => [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
      expect(order(await stored())).toEqual(order(expected));
    } finally {
      await store.close();
    }

    const get = async (path: string) => {
      const response = await fetch(`${gateway.url}${path}`, { headers: { authorization: `Bearer ${moderator}` } });
      expect(response.status, path).toBe(200);
      return (await response.json()) as Record<string, unknown>;
    };
    const rules = (await get('/v1/rules?community=c1')).rules as { name: string; actions: number; escalations: number; players: number }[];
    expect(rules.map((r) => [r.name, r.actions, r.escalations, r.players])).toEqual([
      ['quitter', 2, 1, 1],
      ['reported', 1, 0, 1],
    ]);
    const queue = (await get('/v1/queue?community=c0')).rows as { player: string; proposals: { rule: string; label?: string }[] }[];
    expect(queue.find((r) => r.player === 'cat')?.proposals).toMatchObject([{ rule: 'reported', label: 'Reported twice' }]);
  });

  it("a rule's state set through the gateway is recorded in the log and applied by the owning worker: paused fires nothing, live acts, and a backtest of the log agrees", async () => {
    const db = await freshPostgresUrl();
    const base = clusterConfig(db, cluster.nats.urls, { partitions: 2 });
    const config = resolveConfig([{ source: 'test', values: { ...base, scorers: [{ scorer: 'reliability' }, { scorer: 'reports' }], alerts: { ...base.alerts, thresholds: [] }, rules: RULES } }]);
    const key = await ingestKey(db);
    const moderator = await keyWith(db, ['moderate']);
    const senior = await keyWith(db, ['senior']);
    const gateway = await cluster.gateway(config);
    await cluster.worker(config, 'w');
    const c = 'states';
    const setState = (body: Record<string, unknown>, as = senior) =>
      fetch(`${gateway.url}/v1/rules/quitter/state`, { method: 'POST', headers: { authorization: `Bearer ${as}`, 'content-type': 'application/json' }, body: JSON.stringify({ community: c, ...body }) });
    expect((await setState({ state: 'paused', reason: 'r' }, moderator)).status).toBe(403);
    // Answered 503 (nothing recorded) until the worker serves the partition: sent again, with its id, until then.
    const first = await until('the worker to record the change', async () => {
      const response = await setState({ state: 'paused', reason: 'r', id: 'st-0' });
      return response.status === 503 ? undefined : response;
    });
    expect(first.status, await first.clone().text()).toBe(201);
    const retry = await setState({ state: 'dry-run', reason: 'r', id: 'st-1' });
    expect(retry.status).toBe(201);
    const again = await setState({ state: 'dry-run', reason: 'r', id: 'st-1' });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ duplicate: true, event: { type: 'rule', id: 'st-1', rule: 'quitter', state: 'dry-run' } });
    expect((await setState({ state: 'paused', reason: 'investigating', id: 'st-2' })).status).toBe(201);
    const unknown = await fetch(`${gateway.url}/v1/rules/nosuch/state`, { method: 'POST', headers: { authorization: `Bearer ${senior}`, 'content-type': 'application/json' }, body: JSON.stringify({ community: c, state: 'live', reason: 'r' }) });
    expect(unknown.status).toBe(404);

    // Event times after the changes (the service stamps them now).
    const start = Date.now() + 60 * MIN;
    const at = (m: number) => start + m * MIN;
    /** Two matches `player` leaves, from minute `from`. */
    const drops = (player: string, from: number) =>
      [0, 1].flatMap((k) => [
        { type: 'match.start', id: `${c}-${player}-s${k}`, match: `${player}${k}`, players: [player, 'zed'], time: at(from + k * 10), community: c },
        { type: 'disconnect', id: `${c}-${player}-d${k}`, player, time: at(from + k * 10 + 1), community: c },
      ]);
    expect((await post(gateway.url, key, drops('ann', 0))).status).toBe(200);
    const get = async (path: string) => {
      const response = await fetch(`${gateway.url}${path}`, { headers: { authorization: `Bearer ${moderator}` } });
      expect(response.status, path).toBe(200);
      return (await response.json()) as Record<string, unknown>;
    };
    const byRule = async () => ((await get(`/v1/audit?community=${c}&moderator=rule:quitter&order=oldest`)).entries as { action: string; player: string }[]).map((e) => [e.action, e.player]);
    expect(await byRule()).toEqual([]);
    const paused = ((await get(`/v1/rules?community=${c}`)).rules as { name: string; state: string; stateChange?: { id: string; reason: string } }[]).find((r) => r.name === 'quitter')!;
    expect(paused).toMatchObject({ state: 'paused', stateChange: { id: 'st-2', reason: 'investigating' } });

    expect((await setState({ state: 'live', reason: 'back on', id: 'st-3' })).status).toBe(201);
    expect((await post(gateway.url, key, drops('bob', 100))).status).toBe(200);
    expect(await byRule()).toEqual([['sanction.mute', 'bob']]);

    // The log as stored, replayed by a backtest: the same decisions, people's changes of state included.
    const store = await openPostgresStore(db);
    try {
      const logged = (await store.read(c)).map((s) => s.event);
      const file = join(mkdtempSync(join(tmpdir(), 'standing-rule-states-')), 'log.ndjson');
      writeFileSync(file, logged.map((e) => JSON.stringify(e)).join('\n') + '\n');
      const replayed = await backtest(config, openEventSource(file));
      expect(replayed.decisions.map((d) => [d.rule, d.player, d.action])).toEqual([['quitter', 'bob', 'mute']]);
    } finally {
      await store.close();
    }
  });
});
