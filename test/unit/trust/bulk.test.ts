/**
 * loadTrustRatings (src/scorers/trust/bulk.ts) against trust.evolve: the same ratings, as columns
 * or as events one by one, give the same state (rankings with their exact scores, residuals and
 * snapshots); and the grouping by ratee, in one pass and in two (src/graph/group-by-ratee.ts), against a plain
 * reference on graphs with many buckets and long rows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventValidationError, InputError, loadTrustRatings, trust, trustStats, type StandingEvent, type TrustRatings, type TrustState } from '../../../src/index.js';
import { RatingLog } from '../../../src/graph/rating-log.js';
import type { RatingColumns } from '../../../src/graph/rating-columns.js';
import { groupByRatee } from '../../../src/graph/group-by-ratee.js';
import { seededRng } from '../../../src/util/random.js';

const HOUR = 3_600_000;

/** The ratings of `columns` as events, fed one by one to a fresh state (then the clock moved to `now`). */
function evolved(params: Record<string, unknown>, columns: TrustRatings, now?: number): TrustState {
  const state = trust.initialState(trust.params.resolve(params));
  const id = (i: number) => (typeof columns.players === 'number' ? String(i) : columns.players[i]!);
  for (let e = 0; e < columns.from.length; e++) {
    const event: StandingEvent = { type: 'rating', time: columns.time[e]!, community: 'default', from: id(columns.from[e]!), to: id(columns.to[e]!), value: columns.value[e]! };
    trust.evolve(state, event);
  }
  if (now !== undefined) trust.advance!(state, now, 'default');
  return state;
}

/** Everything a user can see of a state's one community. */
function seen(state: TrustState) {
  return {
    communities: trust.communities(state),
    rank: trust.rank(state),
    stats: trustStats(state).map(({ milliseconds: _, ...rest }) => rest),
    snapshot: state.communities.size === 0 ? undefined : trust.snapshot(state, 'default'),
  };
}

/** Random ratings over `players` players: few players (so pairs repeat) or many, withdrawals, times that sometimes go back past the lifetime. */
function randomRatings(seed: number, players: number, count: number, shuffledIds: boolean): TrustRatings {
  const rng = seededRng(seed);
  const from = new Int32Array(count);
  const to = new Int32Array(count);
  const value = new Float64Array(count);
  const time = new Float64Array(count);
  let clock = 0;
  for (let e = 0; e < count; e++) {
    const f = Math.floor(rng() * players);
    let t = Math.floor(players * rng() ** 2);
    if (t === f) t = (t + 1) % players;
    from[e] = f;
    to[e] = t;
    const kind = rng();
    value[e] = kind < 0.15 ? 0 : Math.round((rng() * 2 - 1) * 8) / 8 || 0.5;
    clock += Math.floor(rng() * 2 * HOUR);
    time[e] = rng() < 0.1 ? clock - Math.floor(rng() * 8 * HOUR) : clock; // some arrive late, some expired on arrival
  }
  const ids = Array.from({ length: players }, (_, i) => `p${i}`);
  return { players: shuffledIds ? ids.reverse() : ids, from, to, value, time };
}

/** Ratings whose players are first met in index order, with no pair repeated, none withdrawn or late: the columns are taken over as they are. */
function orderedRatings(count: number): TrustRatings {
  const from = new Int32Array(count);
  const to = new Int32Array(count);
  for (let e = 0; e < count; e++) {
    from[e] = e % 2 === 0 ? e : e - 1;
    to[e] = e % 2 === 0 ? e + 1 : e + 1;
  }
  // Pairs (0→1), (0→2), (2→3), (2→4), …: from and to never exceed the next new index.
  const players = count + 1;
  const value = Float64Array.from({ length: count }, (_, e) => ((e % 7) - 3) / 4);
  const time = Float64Array.from({ length: count }, (_, e) => e * 1000);
  return { players, from, to, value, time };
}

const copy = (r: TrustRatings): TrustRatings => ({ players: typeof r.players === 'number' ? r.players : [...r.players], from: r.from.slice(), to: r.to.slice(), value: r.value.slice(), time: r.time.slice() });

describe('issue 27: loadTrustRatings gives the state trust.evolve gives', () => {
  it('on small random graphs, with and without repeated pairs, withdrawals and late ratings (property, seeded)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 2, max: 60 }),
        fc.integer({ min: 0, max: 300 }),
        fc.boolean(),
        fc.option(fc.integer({ min: 0, max: 400 * HOUR }), { nil: undefined }),
        (seed, players, count, shuffledIds, now) => {
          const ratings = randomRatings(seed, players, count, shuffledIds);
          const params = { observers: shuffledIds ? `p${players - 1}` : 'p0,p1', ttlMax: 6, expireHours: 1, negativeWeight: seed % 2 === 0 ? 1 : 2, tolerance: 0, maxIterations: 30 };
          const reference = seen(evolved(params, ratings, now));
          const loaded = seen(loadTrustRatings(params, copy(ratings), now === undefined ? {} : { now }));
          expect(loaded).toEqual(reference);
        },
      ),
      { seed: 27, numRuns: 150 },
    );
  });

  it('takes columns over as they are when every rating is kept in index order (more than one chunk), with ids by index', () => {
    const ratings = orderedRatings(70_000);
    const params = { observers: '0', tolerance: 0, maxIterations: 20 };
    const reference = seen(evolved(params, ratings));
    const state = loadTrustRatings(params, ratings);
    expect(seen(state)).toEqual(reference);
    // Appending after a bulk load goes on as after events.
    const more: StandingEvent = { type: 'rating', time: 80_000_000, community: 'default', from: '5', to: '9', value: 1 };
    const after = evolved(params, ratings);
    trust.evolve(after, more);
    trust.evolve(state, more);
    expect(seen(state)).toEqual(seen(after));
  });

  it('gives no community for no ratings, and one with no player when none is kept', () => {
    const none = loadTrustRatings({ observers: 'a' }, { players: ['a'], from: new Int32Array(0), to: new Int32Array(0), value: new Float64Array(0), time: new Float64Array(0) });
    expect(trust.communities(none)).toEqual([]);
    const withdrawals = { players: ['a', 'b'], from: Int32Array.of(0), to: Int32Array.of(1), value: Float64Array.of(0), time: Float64Array.of(5) };
    const params = { observers: 'a' };
    expect(seen(loadTrustRatings(params, copy(withdrawals)))).toEqual(seen(evolved(params, withdrawals)));
  });

  it('refuses columns of different lengths, repeated ids and invalid ratings with typed errors', () => {
    const base = { players: ['a', 'b', 'c'], from: Int32Array.of(0, 1), to: Int32Array.of(1, 2), value: Float64Array.of(1, 0.5), time: Float64Array.of(0, 1) };
    const params = { observers: 'a' };
    expect(() => loadTrustRatings(params, { ...base, time: Float64Array.of(0) })).toThrow(InputError);
    expect(() => loadTrustRatings(params, { ...base, players: ['a', 'b', 'a'] })).toThrow(/players lists the id "a" twice/);
    const invalid = (change: Partial<TrustRatings>, message: RegExp) => {
      let error: unknown;
      try {
        loadTrustRatings(params, { ...base, ...change });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(EventValidationError);
      expect((error as Error).message).toMatch(message);
    };
    invalid({ to: Int32Array.of(1, 3) }, /ratings \[1\]: field "to" must be a player index in \[0, 3\), got 3/);
    invalid({ from: Int32Array.of(-1, 1) }, /ratings \[0\]: field "from"/);
    invalid({ to: Int32Array.of(0, 2) }, /ratings \[0\]: field "to" must differ from "from"/);
    invalid({ value: Float64Array.of(1, 1.5) }, /ratings \[1\]: field "value" must be in \[-1, 1\], got 1.5/);
    invalid({ value: Float64Array.of(NaN, 1) }, /field "value"/);
    invalid({ time: Float64Array.of(0, Infinity) }, /ratings \[1\]: field "time"/);
    expect(() => loadTrustRatings({ observers: 'a', ttlMax: 0 }, base)).toThrow(/ttlMax/);
  });
});

/** The live ratings of `log` by ratee, computed plainly: per ratee, the latest arrival per rater when in force, in log order. */
function plainLive(log: RatingLog, n: number): { offsets: number[]; sources: number[]; entries: number[] } {
  const latest = new Map<string, number>();
  for (let e = 0; e < log.length; e++) latest.set(`${log.fromAt(e)} ${toOf(log, e)}`, e);
  const rows: number[][] = Array.from({ length: n }, () => []);
  for (let e = 0; e < log.length; e++) {
    const inForce = log.valueAt(e) !== 0 && log.timeAt(e) + log.lifetime > log.newest;
    if (latest.get(`${log.fromAt(e)} ${toOf(log, e)}`) === e && inForce) rows[toOf(log, e)]!.push(e);
  }
  const offsets = [0];
  for (const row of rows) offsets.push(offsets.at(-1)! + row.length);
  const entries = rows.flat();
  return { offsets, sources: entries.map((e) => log.fromAt(e)), entries };
}

const toOf = (log: RatingLog, e: number): number => (log as unknown as { columns: { toAt(e: number): number } }).columns.toAt(e);

describe('issue 27: grouping a rating log by ratee in one pass or two', () => {
  it('matches a plain grouping with many buckets, long rows, repeated pairs and expired ratings', () => {
    const n = 300_000; // several buckets of ratees
    const rng = seededRng(2727);
    const log = new RatingLog(50);
    const ids = Array.from({ length: n }, (_, i) => `q${i}`);
    for (let i = 0; i < n; i++) log.append(ids[i]!, ids[(i + 1) % n]!, 1, 0); // every player, in index order
    for (let e = 0; e < 200_000; e++) {
      const f = Math.floor(rng() * n);
      // Half onto a few popular ratees (long rows), half anywhere; few raters for the popular ones, so pairs repeat.
      const popular = rng() < 0.5;
      const t = popular ? Math.floor(rng() * 40) * 7_001 : Math.floor(rng() * n);
      const rater = popular ? Math.floor(rng() * 300) * 997 : f;
      if (rater === t) continue;
      const time = 10 + Math.floor(e / 4_000);
      log.advance(time);
      log.append(ids[rater]!, ids[t]!, rng() < 0.1 ? 0 : 0.5, time);
    }
    const plain = plainLive(log, n);
    expect(plain.offsets.at(-1)).toBeGreaterThan(100_000);
    const { offsets, sources, entries } = log.byRatee();
    expect(Array.from(offsets)).toEqual(plain.offsets);
    expect(Array.from(sources)).toEqual(plain.sources);
    expect(Array.from(entries)).toEqual(plain.entries);
    // Both sorts, whichever byRatee chose for this size, give the same groups.
    const columns = (log as unknown as { columns: RatingColumns }).columns;
    const inForce = (value: number, time: number): boolean => value !== 0 && time + log.lifetime > log.newest;
    for (const passes of [1, 2] as const) {
      const out = { offsets: new Int32Array(n + 1), sources: new Int32Array(log.length), weights: new Float64Array(log.length), entries: new Int32Array(log.length) };
      const kept = groupByRatee({ players: n, length: log.length, columns, inForce, weigh: (value) => value, passes }, out);
      expect(kept, `${passes} passes`).toBe(plain.entries.length);
      expect(Array.from(out.offsets), `${passes} passes`).toEqual(plain.offsets);
      expect(Array.from(out.sources.subarray(0, kept)), `${passes} passes`).toEqual(plain.sources);
      expect(Array.from(out.entries.subarray(0, kept)), `${passes} passes`).toEqual(plain.entries);
    }
  });
});
