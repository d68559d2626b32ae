/**
 * RatingLog: the live ratings are each pair's latest arrival unless it withdraws (value 0) or has
 * expired, whatever compactions ran in between; compaction bounds memory.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RatingLog } from '../../../src/graph/rating-log.js';
import { DistinctPairs } from '../../../src/util/distinct-pairs.js';

const players = ['a', 'b', 'c', 'd', 'e', 'f'];

/** Live ratings as [ratee, rater, value, time], ratees in interning order, each in log order. */
function liveOf(log: RatingLog): [string, string, number, number][] {
  const { offsets, sources, weights, entries } = log.byRatee();
  const out: [string, string, number, number][] = [];
  for (let j = 0; j + 1 < offsets.length; j++) {
    for (let k = offsets[j]!; k < offsets[j + 1]!; k++) {
      const e = entries[k]!;
      expect(log.fromAt(e)).toBe(sources[k]);
      expect(log.valueAt(e)).toBe(weights[k]); // the default weight is the value
      out.push([log.players.idAt(j), log.players.idAt(sources[k]!), weights[k]!, log.timeAt(entries[k]!)]);
    }
  }
  return out;
}

describe('RatingLog', () => {
  it('keeps the latest arrival per pair, drops withdrawals and expired ratings (hand case)', () => {
    const log = new RatingLog(10);
    const at = (time: number) => log.advance(time);
    at(0);
    log.append('a', 'b', 1, 0);
    log.append('c', 'b', -0.5, 0);
    log.append('a', 'b', 0.5, 0); // re-rated: replaces the first
    at(3);
    log.append('c', 'a', 1, 3);
    log.append('c', 'b', 0, 3); // withdrawn
    at(10);
    // a→b (0.5, set at 0) expired at 10 (0 + 10 ≤ 10); c→b is withdrawn; c→a (set at 3) lives.
    expect(liveOf(log)).toEqual([['a', 'c', 1, 3]]);
    log.append('b', 'a', 1, 1); // arrives late but not expired (1 + 10 > 10)
    log.append('d', 'a', 1, 0); // expired on arrival: nothing, and d is not created
    expect(log.players.indexOf('d')).toBe(-1);
    expect(liveOf(log)).toEqual([
      ['a', 'c', 1, 3],
      ['a', 'b', 1, 1],
    ]);
    expect(log.countLive()).toBe(2);
  });

  it('creates no one for a withdrawal between unknown players', () => {
    const log = new RatingLog(10);
    log.append('x', 'y', 0, 0);
    expect(log.players.size).toBe(0);
    expect(log.length).toBe(0);
  });

  it('matches a model of latest arrivals under any events, compactions included, restored from a snapshot at any point or not (property)', () => {
    const event = fc.record({
      from: fc.constantFrom(...players),
      to: fc.constantFrom(...players),
      value: fc.constantFrom(-1, -0.5, 0, 0.5, 1),
      step: fc.constantFrom(-3, 0, 1, 2, 3), // on average forward, so ratings keep expiring
    });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 600, size: 'max' }), fc.constantFrom(8, 16, 1024), fc.nat(), (events, capacity, at) => {
        const lifetime = 12;
        const log = new RatingLog(lifetime, capacity);
        // Restored from a snapshot after `cut` events and fed the rest: its compactions (if any)
        // fall elsewhere than the uninterrupted log's, and the results must not tell.
        const cut = at % (events.length + 1);
        let resumed = cut === 0 ? new RatingLog(lifetime, capacity) : undefined;
        const model = new Map<string, { from: string; to: string; value: number; time: number; seq: number }>();
        const known = new Set<string>();
        let clock = 0;
        let newest = -Infinity;
        let seq = 0;
        for (const [i, e] of events.entries()) {
          clock += e.step; // sometimes back in time: late arrivals
          log.advance(clock);
          newest = Math.max(newest, clock);
          log.append(e.from, e.to, e.value, clock);
          if (resumed !== undefined) {
            resumed.advance(clock);
            resumed.append(e.from, e.to, e.value, clock);
          }
          if (i + 1 === cut) resumed = RatingLog.fromSnapshot(lifetime, JSON.parse(JSON.stringify(log.toSnapshot())));
          if (e.value === 0) {
            if (known.has(e.from) && known.has(e.to)) model.set(`${e.from}>${e.to}`, { ...e, time: clock, seq: seq++ });
          } else if (clock + lifetime > newest) {
            known.add(e.from).add(e.to);
            model.set(`${e.from}>${e.to}`, { ...e, time: clock, seq: seq++ });
          }
        }
        const expected = [...model.values()]
          .filter((r) => r.value !== 0 && r.time + lifetime > newest)
          .sort((x, y) => log.players.indexOf(x.to) - log.players.indexOf(y.to) || x.seq - y.seq)
          .map((r) => [r.to, r.from, r.value, r.time]);
        expect(liveOf(log)).toEqual(expected);
        expect(log.players.size).toBe(known.size);
        expect(liveOf(resumed!)).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('starts small (an empty community costs little) and stays small when the same few pairs are re-rated again and again', () => {
    expect(new RatingLog(Infinity).capacity).toBe(4);
    const log = new RatingLog(Infinity, 1024);
    for (let i = 0; i < 200_000; i++) log.append(`p${i % 7}`, `p${(i + 1) % 7}`, (i % 10) / 10 + 0.1, i);
    expect(log.countLive()).toBe(7);
    expect(log.capacity).toBe(1024); // compacted in place, never grown
  });

  it('stays small when ratings keep expiring, and when they keep being withdrawn', () => {
    const expiring = new RatingLog(100, 1024);
    for (let i = 0; i < 200_000; i++) {
      expiring.advance(i);
      expiring.append(`p${i % 50}`, `p${(i * 7 + 1) % 50}`, 1, i);
    }
    expect(expiring.countLive()).toBeLessThanOrEqual(100); // only the last 100 time units are in force
    expect(expiring.capacity).toBe(1024);
    const withdrawn = new RatingLog(Infinity, 1024);
    for (let i = 0; i < 200_000; i++) withdrawn.append(`p${i % 40}`, `q${i % 40}`, Math.floor(i / 40) % 2 === 0 ? 1 : 0, i); // rated, withdrawn, rated, …
    expect(withdrawn.countLive()).toBe(0);
    expect(withdrawn.capacity).toBe(1024);
  });

  it('builds the grouped ratings in arrays it is given, with the same contents, and refuses arrays of the wrong size', () => {
    const log = new RatingLog(Infinity, 1024);
    for (let i = 0; i < 100; i++) log.append(`p${i % 9}`, `p${(i * 5 + 2) % 9}`, ((i % 7) - 3) / 4 || 0.5, i);
    const plain = log.byRatee();
    const into = { offsets: new Int32Array(10).fill(7), sources: new Int32Array(120), weights: new Float64Array(120) };
    const built = log.byRatee(undefined, into);
    expect(built.sources.buffer).toBe(into.sources.buffer);
    expect(built.offsets).toBe(into.offsets);
    for (const key of ['offsets', 'sources', 'weights', 'entries'] as const) expect(Array.from(built[key])).toEqual(Array.from(plain[key]));
    expect(() => log.byRatee(undefined, { ...into, offsets: new Int32Array(9) })).toThrow('arrays for 9 players and 100 entries expected');
    expect(() => log.byRatee(undefined, { ...into, weights: new Float64Array(99) })).toThrow(RangeError);
  });

  it('keeps its entries right across chunks of 65,536, through growth, compactions and a snapshot', () => {
    // 300,000 ratings among 400 × 400 pairs: over 100,000 pairs live, many superseded, so full
    // logs compact, moving entries back across chunk boundaries; some are withdrawals.
    const log = new RatingLog(Infinity);
    const latest = new Map<string, { rater: string; ratee: string; value: number; time: number; seq: number }>();
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < 300_000; i++) {
      const rater = `r${Math.floor(next() * 400)}`;
      const ratee = `t${Math.floor(next() * 400)}`;
      const value = i % 7 === 0 ? 0 : Math.round(next() * 20 - 10) / 10 || 0.5;
      const counts = value !== 0 || (log.players.indexOf(rater) >= 0 && log.players.indexOf(ratee) >= 0);
      log.advance(i);
      log.append(rater, ratee, value, i);
      if (counts) latest.set(`${rater}>${ratee}`, { rater, ratee, value, time: i, seq: i });
    }
    const expected = [...latest.values()]
      .filter((r) => r.value !== 0)
      .sort((x, y) => log.players.indexOf(x.ratee) - log.players.indexOf(y.ratee) || x.seq - y.seq)
      .map((r) => [r.ratee, r.rater, r.value, r.time]);
    expect(log.capacity).toBeGreaterThan(2 * 65_536 - 1); // it grew past the first chunk…
    expect(log.length).toBeLessThan(300_000); // …and compacted
    expect(liveOf(log)).toEqual(expected);
    expect(liveOf(RatingLog.fromSnapshot(Infinity, log.toSnapshot()))).toEqual(expected);
  });

  it('grows while there are more players than entries, so compaction never walks players for nothing', () => {
    const log = new RatingLog(1);
    for (let i = 0; i < 10_000; i++) {
      log.advance(i);
      log.append(`a${i}`, `b${i}`, 1, i); // each rating between new players, gone a moment later
    }
    expect(log.countLive()).toBe(1);
    expect(log.capacity).toBeGreaterThanOrEqual(log.players.size / 2);
  });

  it('grows without compacting when nothing would be freed', () => {
    const log = new RatingLog(Infinity);
    for (let i = 0; i < 5_000; i++) log.append(`p${i}`, `q${i}`, 1, i);
    expect(log.length).toBe(5_000);
    expect(log.version).toBe(5_000); // one per append: no compaction ran
    expect(log.countLive()).toBe(5_000);
  });
});

describe('DistinctPairs', () => {
  it('estimates the distinct pairs added within 10 %, repeats not counted', () => {
    for (const n of [50, 1_000, 60_000]) {
      const d = new DistinctPairs();
      for (let r = 0; r < 3; r++) for (let i = 0; i < n; i++) d.add(i % 977, Math.floor(i / 977));
      expect(Math.abs(d.estimate() - n) / n).toBeLessThan(0.1);
    }
    const d = new DistinctPairs();
    expect(d.estimate()).toBe(0);
    d.add(1, 2);
    d.clear();
    expect(d.estimate()).toBe(0);
  });
});
