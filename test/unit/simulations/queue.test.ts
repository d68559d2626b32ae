/**
 * `standing simulate queue` (docs/moderation.md#the-queues-measured-worth): precision at k and the
 * report orders on hand-computed cases, the target's check, the scenarios' logs, determinism, and
 * the target met by the recommended configuration on the documented community (seed 1, 800
 * players), read through a whole service as `GET /v1/queue` reads it.
 */
import { describe, expect, it } from 'vitest';
import { serviceQueueReader } from '../../../src/app/queue-service.js';
import type { StandingEvent } from '../../../src/events/types.js';
import { suiteCommunity } from '../../../src/simulations/attacks/suite.js';
import { baselineOrder } from '../../../src/simulations/queue/baselines.js';
import { placesIn, precisionAt } from '../../../src/simulations/queue/precision.js';
import { spammerCount, GRUDGES, REPEATS } from '../../../src/simulations/queue/report-spam.js';
import { runQueueSimulation, targetCheck, type OrderRow } from '../../../src/simulations/queue/run.js';
import { QUEUE_ATTACKS } from '../../../src/simulations/queue/scenarios.js';
import { innocentsText } from '../../../src/simulations/queue/table.js';

const T0 = Date.UTC(2024, 5, 1);
const report = (minute: number, from: string, to: string, community = 'default'): StandingEvent => ({ type: 'report', time: T0 + minute * 60_000, community, from, to });

describe("issue 28: the queue's worth, measured", () => {
  describe('precision at k, by hand', () => {
    // b = truly bad, h = honest; b3 is truly bad but not in the order.
    const bad = new Set(['b1', 'b2', 'b3']);
    const order = ['b1', 'h1', 'b2', 'h2'];

    it('is the share of the first k places held by truly bad players', () => {
      expect(precisionAt(order, bad, 1)).toBe(1); // b1
      expect(precisionAt(order, bad, 2)).toBe(1 / 2); // b1, h1
      expect(precisionAt(order, bad, 3)).toBe(2 / 3); // b1, h1, b2
      expect(precisionAt(order, bad, 4)).toBe(2 / 4);
    });

    it('counts the places an order does not fill as misses', () => {
      expect(precisionAt(order, bad, 10)).toBe(2 / 10);
      expect(precisionAt([], bad, 3)).toBe(0);
    });

    it('refuses a k that is not a positive integer, naming it', () => {
      for (const k of [0, -1, 1.5, Number.NaN]) expect(() => precisionAt(order, bad, k)).toThrow(`precisionAt: k must be an integer ≥ 1, got ${k}`);
    });

    it('gives each player its first place, null when not in the order', () => {
      expect(placesIn(['a', 'b', 'a', 'c'], ['c', 'a', 'z'])).toEqual([4, 1, null]);
    });
  });

  describe('the report orders, by hand', () => {
    // Received: x 3 reports (newest at minute 5), y 3 (newest at 9), z 1 (at 10), w 1 (at 10); v only in another community.
    const events: StandingEvent[] = [
      report(1, 'a', 'x'),
      report(2, 'b', 'x'),
      report(3, 'a', 'y'),
      report(5, 'c', 'x'),
      report(7, 'b', 'y'),
      report(9, 'c', 'y'),
      report(10, 'a', 'z'),
      report(10, 'b', 'w'),
      report(11, 'a', 'v', 'eu'),
      { type: 'match.start', time: T0, community: 'default', match: 'm1', players: ['a', 'b'] },
    ];

    it('most reports: most first, then the newest report, then the id', () => {
      // x and y tie at 3: y's newest (9) is newer than x's (5). w and z tie at 1 and at minute 10: by id.
      expect(baselineOrder('most reports', events, 'default')).toEqual(['y', 'x', 'w', 'z']);
    });

    it('latest report: the newest report first, then the most reports, then the id', () => {
      expect(baselineOrder('latest report', events, 'default')).toEqual(['w', 'z', 'y', 'x']);
    });

    it('gives precision at k over these orders as for any order', () => {
      const bad = new Set(['x', 'z']);
      expect(precisionAt(baselineOrder('most reports', events, 'default'), bad, 2)).toBe(1 / 2);
      expect(precisionAt(baselineOrder('latest report', events, 'default'), bad, 2)).toBe(1 / 2);
      expect(precisionAt(baselineOrder('most reports', events, 'default'), bad, 4)).toBe(2 / 4);
    });
  });

  describe("the target's check", () => {
    const row = (order: OrderRow['order'], configuration: OrderRow['configuration'], atBad: number, innocents: (number | null)[] = []): OrderRow => ({
      scenario: 's',
      order,
      configuration,
      length: 100,
      precision: { '40': atBad },
      innocents: innocents.map((place, i) => ({ player: `i${i}`, place })),
      hidden: [],
    });

    it('needs 0.9 at the number of truly bad players, a lead of 0.25 where spam misleads the count, and no innocent in the first 50 under the brigades', () => {
      expect(targetCheck('honest', [row('most reports', null, 1), row('queue', 'recommended', 0.9)], 40)).toEqual({ scenario: 'honest', precision: 0.9, mostReports: 1, leadChecked: false, innocentsInCutoff: null, met: true });
      expect(targetCheck('honest', [row('most reports', null, 1), row('queue', 'recommended', 0.875)], 40)!.met).toBe(false);
      // 0.95 − 0.7 is 0.2499999999999999 in floating point: a lead of 0.25 all the same.
      expect(targetCheck('reports/combined', [row('most reports', null, 0.7), row('queue', 'recommended', 0.95, [null, 51, 62])], 40)).toMatchObject({ leadChecked: true, innocentsInCutoff: 0, met: true });
      expect(targetCheck('reports/combined', [row('most reports', null, 0.725), row('queue', 'recommended', 0.95)], 40)!.met).toBe(false);
      expect(targetCheck('reports/outsiders', [row('most reports', null, 1), row('queue', 'recommended', 1, [50])], 40)).toMatchObject({ innocentsInCutoff: 1, met: false });
    });

    it('is not checked without the recommended queue', () => {
      expect(targetCheck('honest', [row('most reports', null, 1), row('queue', 'undefended', 1)], 40)).toBeUndefined();
    });

    it('lists a few innocents place by place and counts many', () => {
      expect(innocentsText([{ player: 'a', place: 3 }, { player: 'b', place: null }])).toBe('3, —');
      expect(innocentsText([10, 60, null, 49].map((place, i) => ({ player: `p${i}`, place })))).toBe('2 of 4 in the first 50, best 10');
      expect(innocentsText([null, null, null, null].map((place, i) => ({ player: `p${i}`, place })))).toBe('0 of 4 in the first 50, best —');
    });
  });

  describe('the scenario logs', () => {
    const community = suiteCommunity({ seed: 1, players: 200 });
    const logOf = (name: string) => QUEUE_ATTACKS.find((a) => a.name === name)!.log(community, 1);

    it('date every attack after the honest log, in time order', () => {
      for (const attack of QUEUE_ATTACKS) {
        const { events } = attack.log(community, 1);
        expect(events.length, attack.name).toBeGreaterThan(0);
        expect(events[0]!.time, attack.name).toBeGreaterThan(community.end);
        expect(events.every((e, i) => i === 0 || events[i - 1]!.time <= e.time), attack.name).toBe(true);
      }
    });

    it('aim the combined brigades at three distinct honest players, none of them spammed', () => {
      const { events, innocents } = logOf('reports/combined');
      expect(new Set(innocents).size).toBe(3);
      for (const p of innocents) expect(community.bad.has(p)).toBe(false);
      const spam = events.filter((e): e is Extract<StandingEvent, { type: 'report' }> => e.type === 'report' && e.reason === 'spam');
      expect(spam.some((e) => innocents.includes(e.to))).toBe(false);
      // Each spammer reports GRUDGES players REPEATS times.
      expect(spam).toHaveLength(spammerCount(200) * GRUDGES * REPEATS);
    });

    it('spams from honest members only, at players they met', () => {
      const spam = logOf('reports/spammers').events.filter((e): e is Extract<StandingEvent, { type: 'report' }> => e.type === 'report');
      const met = new Set<string>();
      for (const e of community.events) if (e.type === 'match.start') for (const a of e.players) for (const b of e.players) met.add(`${a}>${b}`);
      for (const e of spam) {
        expect(community.bad.has(e.from)).toBe(false);
        expect(met.has(`${e.from}>${e.to}`)).toBe(true);
      }
    });
  });

  it('gives the same document for the same seed, and another community for another seed', async () => {
    const options = { players: 150, scenarios: ['honest', 'reports/combined'] };
    const first = await runQueueSimulation({ seed: 7, ...options }, serviceQueueReader);
    const again = await runQueueSimulation({ seed: 7, ...options }, serviceQueueReader);
    expect(again).toEqual(first);
    expect(first.rows.map((r) => `${r.scenario} ${r.order} ${r.configuration}`)).toEqual([
      'honest most reports null',
      'honest latest report null',
      'honest queue undefended',
      'honest queue recommended',
      'reports/combined most reports null',
      'reports/combined latest report null',
      'reports/combined queue undefended',
      'reports/combined queue recommended',
    ]);
    expect(first.ks).toEqual([8, 10, 50, 100]); // 5 % of 150 players are truly bad: 8 (rounded).
    const other = await runQueueSimulation({ seed: 8, ...options }, serviceQueueReader);
    expect(other.rows).not.toEqual(first.rows);
  });

  it('meets the target with the recommended defences on the documented community (seed 1, 800 players)', async () => {
    const result = await runQueueSimulation({ seed: 1, players: 800, scenarios: ['reports/outsiders', 'reports/insiders', 'reports/combined'], configurations: ['recommended'] }, serviceQueueReader);
    expect(result.community).toMatchObject({ players: 800, trulyBad: 40 });
    expect(result.targets.map((t) => t.scenario)).toEqual(['reports/outsiders', 'reports/insiders', 'reports/combined']);
    for (const t of result.targets) {
      expect(t.precision, t.scenario).toBeGreaterThanOrEqual(0.9);
      expect(t.innocentsInCutoff, t.scenario).toBe(0);
      expect(t.met, t.scenario).toBe(true);
    }
    const combined = result.targets.find((t) => t.scenario === 'reports/combined')!;
    expect(combined.leadChecked).toBe(true);
    expect(combined.precision - combined.mostReports).toBeGreaterThanOrEqual(0.25 - 1e-9);
    // The count the target is set against is misled: the three innocents lead it.
    const counts = result.rows.find((r) => r.scenario === 'reports/combined' && r.order === 'most reports')!;
    expect(counts.innocents.map((p) => p.place).sort()).toEqual([1, 2, 3]);
  });
});
