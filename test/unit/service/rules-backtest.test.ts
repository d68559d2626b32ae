/**
 * issue 28, the property: a backtest over a log (`standing backtest`'s code, a replay of the log
 * file) decides exactly what the live engine decided and stored on the same log — whatever the
 * batches it arrived in, groups committed together, crashes between batches (the tail replayed
 * from the last checkpoint, the rules deciding again and recognising their stored events),
 * events dated before the community's clock, and senior moderators' changes of the rules' states
 * (paused, dry-run, live). Over a real SQLite file.
 */
import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openEventSource } from '../../../src/events/ndjson.js';
import { BatchRejectedError } from '../../../src/errors.js';
import { backtest } from '../../../src/service/backtest.js';
import { configuredInstances, configuredRules, resolveConfig, type ServiceConfig } from '../../../src/service/config.js';
import { LiveEngine } from '../../../src/service/live-engine.js';
import type { EventStore } from '../../../src/store/types.js';
import { openSqlite, QUALITY, sqlitePath } from './support.js';

const T0 = Date.parse('2026-10-01T00:00:00Z');
const MIN = 60_000;

const RULES = [
  { name: 'quitter', label: 'Leaves matches', when: 'recent.drops >= 2', action: 'mute', ladder: ['10m', '1h', '1d'], windowHours: 6 },
  { name: 'reported', label: 'Reported', when: 'recent.reports >= 2 || (scores.reports.ranked && scores.reports.tail > 0.5)', action: 'propose' },
  { name: 'unreliable', label: 'Unreliable', when: 'scores.reliability.ranked && scores.reliability.band == "red" && ageDays >= 0.01', action: 'warn', breaker: { share: 0.3, minPlayers: 2, pauseHours: 2 } },
  { name: 'dry', label: 'Dry', when: 'sanctions.active.size() > 0 && recent.reports >= 1', action: 'suspend', ladder: ['1d'], dryRun: true },
];

function configOf(intervalMinutes: number): ServiceConfig {
  return resolveConfig([{ source: 'test', values: { scorers: [{ scorer: 'reliability' }, { scorer: 'reports' }], rules: { intervalMinutes, list: RULES } } }]);
}

async function openLive(config: ServiceConfig, store: EventStore, checkpointEvery: number): Promise<LiveEngine> {
  return LiveEngine.open({ store, instances: configuredInstances(config), quality: QUALITY, checkpointEvery, checkpointSeconds: 0, rules: { compiled: configuredRules(config), tailShare: config.queue.tailShare } });
}

const player = fc.integer({ min: 0, max: 5 }).map((i) => `p${i}`);
const match = fc.constantFrom('m0', 'm1', 'm2');
const rawEvent = fc.oneof(
  { weight: 3, arbitrary: fc.record({ type: fc.constant('match.start'), match, players: fc.uniqueArray(player, { minLength: 2, maxLength: 2 }) }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('match.end'), match }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('disconnect'), player }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('report'), from: player, to: player }).filter((r) => r.from !== r.to) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('played'), player, games: fc.integer({ min: 1, max: 5 }) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('chat'), from: player, to: fc.array(player, { minLength: 1, maxLength: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('verdict'), on: fc.constant('player'), player, outcome: fc.constantFrom('upheld', 'dismissed'), reason: fc.constant('looked'), moderator: fc.constant('mia') }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('sanction'), player, action: fc.constant('lift'), reason: fc.constant('enough'), moderator: fc.constant('mia') }) },
  // A senior moderator's change of a rule's state ("gone": a rule these rules do not have, ignored).
  {
    weight: 2,
    arbitrary: fc.record({ type: fc.constant('rule'), rule: fc.constantFrom('quitter', 'reported', 'unreliable', 'dry', 'gone'), state: fc.constantFrom('live', 'dry-run', 'paused'), reason: fc.constant('checking'), moderator: fc.constant('sam') }),
  },
);
/** An event, the minutes after the one before (negative: dated before the clock), and where a batch ends after it. */
const step = fc.record({ event: rawEvent, gap: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 40 }) }, { weight: 1, arbitrary: fc.integer({ min: -30, max: -1 }) }), cut: fc.boolean(), crash: fc.boolean() });

describe('issue 28: a backtest decides what the live engine decided on the same log', () => {
  it('the same rule events, ids and all, however the log arrived (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 60 }), fc.constantFrom(0, 10, 60), fc.integer({ min: 1, max: 12 }), fc.boolean(), async (steps, interval, every, together) => {
        const config = configOf(interval);
        let time = T0;
        const log = steps.map(({ event }, i) => {
          time = Math.max(T0, time + steps[i]!.gap * MIN);
          return { ...event, id: `e${i}`, time };
        });
        const path = sqlitePath();
        let live = await openLive(config, openSqlite(path), every);
        let batch: Record<string, unknown>[] = [];
        const waiting: Promise<unknown>[] = [];
        const send = async (crash: boolean) => {
          if (batch.length === 0) return;
          const sent = live.ingest(batch).catch((error: unknown) => {
            if (!(error instanceof BatchRejectedError)) throw error;
          });
          batch = [];
          // Several batches in flight commit as one group; a crash waits for them first.
          if (together && !crash) waiting.push(sent);
          else await sent;
          if (crash) {
            await Promise.all(waiting.splice(0));
            await live.store.close();
            live = await openLive(config, openSqlite(path), every);
            await live.settleRules();
          }
        };
        for (const [i, event] of log.entries()) {
          batch.push(event);
          if (steps[i]!.cut) await send(steps[i]!.crash);
        }
        await send(false);
        await Promise.all(waiting);
        const stored = (await live.store.read('default'))
          .map((s) => s.event as unknown as Record<string, unknown>)
          .filter((e) => typeof e.moderator === 'string' && e.moderator.startsWith('rule:'))
          .map((e) => [e.id, e.moderator, e.player, e.time, e.type === 'note' ? 'propose' : e.action, e.until ?? null]);
        await live.close();

        const file = `${path}.ndjson`;
        writeFileSync(file, log.map((e) => JSON.stringify(e)).join('\n') + '\n');
        const replayed = await backtest(config, openEventSource(file));
        const decided = replayed.decisions.map((d) => [d.id, `rule:${d.rule}`, d.player, d.time, d.action, d.until ?? null]);
        const order = (rows: unknown[][]) => [...rows].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
        expect(order(stored)).toEqual(order(decided));
      }),
      { seed: 28, numRuns: 40 },
    );
  });

  it("stores on restart what a crash kept from being stored, under the same ids a backtest gives", async () => {
    const config = configOf(0);
    const path = sqlitePath();
    const log = [
      ...[1, 2].flatMap((n) => [
        { type: 'match.start', id: `s${n}`, match: `m${n}`, players: ['ann', 'bob'], time: T0 + n * 10 * MIN },
        { type: 'disconnect', id: `d${n}`, player: 'ann', time: T0 + (n * 10 + 1) * MIN },
      ]),
    ];
    // A store that refuses the rules' events: the batch is stored, its rule's mute is not.
    const real = openSqlite(path);
    const refusing = new Proxy(real, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (key !== 'append') return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        return (events: readonly { moderator?: string }[]) => (events.some((e) => e.moderator?.startsWith('rule:') === true) ? Promise.reject(new Error('disk full')) : target.append(events as never));
      },
    });
    const failures: unknown[] = [];
    const live = await LiveEngine.open({ store: refusing, instances: configuredInstances(config), quality: QUALITY, checkpointEvery: 1, checkpointSeconds: 0, rules: { compiled: configuredRules(config), tailShare: 0.1 }, onRulesFailed: (e) => failures.push(e) });
    await live.ingest(log.slice(0, 2));
    await live.ingest(log.slice(2));
    expect(failures).toHaveLength(1);
    expect(live.rules!.pending()).toHaveLength(1);
    // A crash: only the store remains.
    await real.close();
    const restarted = await openLive(config, openSqlite(path), 1);
    await restarted.settleRules();
    const stored = (await restarted.store.read('default')).filter((s) => (s.event as { moderator?: string }).moderator === 'rule:quitter').map((s) => s.event.id);
    await restarted.close();
    const file = `${path}.ndjson`;
    writeFileSync(file, log.map((e) => JSON.stringify(e)).join('\n') + '\n');
    expect(stored).toEqual((await backtest(config, openEventSource(file))).decisions.map((d) => d.id));
    expect(stored).toHaveLength(1);
  });
});
