/**
 * Checkpoints: for every scorer, restoring a snapshot taken after any prefix of a log and
 * replaying the rest gives exactly what replaying the whole log gives (docs/spec.md §1: a replay gives
 * the same answer as the live run), into a fresh state or over one already in use. Compared as
 * rankings, explanations and snapshots, bit for bit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SCORERS, type AnyScorer, type StandingEvent, scorerById } from '../../src/index.js';
import { restoresExactly as restoresExactlyAt, scorerView } from '../../src/testing/index.js';

const DAY = 86_400_000;
const player = fc.integer({ min: 0, max: 7 }).map((i) => `p${i}`);
const match = fc.integer({ min: 0, max: 4 }).map((i) => `m${i}`);
const community = fc.constantFrom('a', 'b');

const event: fc.Arbitrary<Omit<StandingEvent, 'time'>> = fc.oneof(
  fc.record({ type: fc.constant('action' as const), community, player, delta: fc.integer({ min: -40, max: 40 }) }),
  fc.record({ type: fc.constant('match.start' as const), community, match, players: fc.uniqueArray(player, { minLength: 2, maxLength: 3 }), bots: fc.constantFrom([], ['p7']) }),
  fc.record({ type: fc.constantFrom('match.end' as const, 'match.resume' as const), community, match }),
  fc.record({ type: fc.constant('disconnect' as const), community, player }),
  fc.record({ type: fc.constant('rating' as const), community, from: player, to: player, value: fc.constantFrom(-1, -0.5, 0, 0.3, 1) }),
  fc.record({ type: fc.constant('report' as const), community, from: player, to: player }),
  fc.record({ type: fc.constant('played' as const), community, player, games: fc.integer({ min: 1, max: 9 }) }),
  fc.record({ type: fc.constant('chat' as const), community, from: player, to: fc.array(player, { minLength: 1, maxLength: 3 }) }),
) as fc.Arbitrary<Omit<StandingEvent, 'time'>>;

/** Valid events at non-decreasing times (gaps up to 40 days, so expiry happens). */
const log = fc.array(fc.tuple(event, fc.integer({ min: 0, max: 40 * DAY })), { maxLength: 120, size: 'max' }).map((items) => {
  let time = 0;
  return items
    .map(([e, gap]) => ((time += gap), { ...e, time }) as StandingEvent)
    .filter((e) => !(e.type === 'rating' && e.from === e.to));
});

const PARAMS: Record<string, Record<string, unknown>> = {
  cqr: { T: 4, x: 5, k: 2 },
  reliability: { keepDays: 60 },
  chat: { recipe: 1 },
  trust: { observers: 'p0,p1', ttlMax: 24 * 50 },
  reports: {},
};

/** What the tests compare: rankings, the explanations of these players, the snapshots of these communities. */
const SEEN = { communities: ['a', 'b', 'c'], players: ['p0', 'p3', 'p7'] };
const view = (scorer: AnyScorer, state: unknown) => scorerView(scorer, state, SEEN.communities, SEEN.players);
const restoresExactly = (scorer: AnyScorer, input: Record<string, unknown>, events: readonly StandingEvent[], at: number) => restoresExactlyAt(scorer, input, events, at, SEEN);

describe('checkpoints', () => {
  for (const [id, scorer] of Object.entries(SCORERS)) {
    it(`${id}: restore(snapshot after any prefix) + the rest == the whole log`, () => {
      fc.assert(
        fc.property(log, fc.nat(), (events, at) => restoresExactly(scorer, PARAMS[id]!, events, at)),
        { seed: 12, numRuns: 150 },
      );
    });
  }

  it('trust: the same on rating-heavy logs, with re-ratings, withdrawals and expiry', () => {
    const scorer = SCORERS.trust!;
    const rating = fc.record({
      from: fc.integer({ min: 0, max: 5 }),
      to: fc.integer({ min: 0, max: 5 }),
      value: fc.constantFrom(-1, 0, 0, 0.5, 1),
      gap: fc.integer({ min: 0, max: 20 * DAY }),
    });
    fc.assert(
      fc.property(fc.array(rating, { minLength: 10, maxLength: 150, size: 'max' }), fc.nat(), (items, at) => {
        let time = 0;
        const events: StandingEvent[] = items
          .filter((r) => r.from !== r.to)
          .map((r) => ({ type: 'rating', time: (time += r.gap), community: 'c', from: `p${r.from}`, to: `p${r.to}`, value: r.value }));
        return restoresExactly(scorer, { observers: 'p0', ttlMax: 24 * 30 }, events, at);
      }),
      { seed: 13, numRuns: 300 },
    );
  });

  it('reliability: the same on match-heavy logs, where expiry and the bot rule kill events', () => {
    const scorer = SCORERS.reliability!;
    const step = fc.oneof(
      fc.record({ type: fc.constant('match.start' as const), match, players: fc.uniqueArray(player, { minLength: 2, maxLength: 2 }), bots: fc.constantFrom([], ['p7']) }),
      fc.record({ type: fc.constantFrom('match.end' as const, 'match.resume' as const), match }),
      fc.record({ type: fc.constant('disconnect' as const), player }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(step, fc.integer({ min: 0, max: 3 * DAY })), { minLength: 10, maxLength: 200, size: 'max' }), fc.nat(), (items, at) => {
        let time = 0;
        const events = items.map(([e, gap]) => ({ ...e, time: (time += gap), community: 'c' }) as StandingEvent);
        return restoresExactly(scorer, { keepDays: 10 }, events, at);
      }),
      { seed: 14, numRuns: 300 },
    );
  });

  it('chat and reports snapshots holding their arrays\' whole capacity (the earlier form) restore exactly', () => {
    const events: StandingEvent[] = [
      { type: 'chat', time: 0, community: 'c', from: 'p0', to: ['p1', 'p2'] },
      { type: 'report', time: 1, community: 'c', from: 'p1', to: 'p0' },
      { type: 'played', time: 2, community: 'c', player: 'p0', games: 3 },
      { type: 'chat', time: 3, community: 'c', from: 'p2', to: ['p0'] },
      { type: 'report', time: 4, community: 'c', from: 'p2', to: 'p3' },
      { type: 'chat', time: 5, community: 'c', from: 'p4', to: ['p0', 'p5'] },
      { type: 'played', time: 6, community: 'c', player: 'p5', games: 2 },
    ];
    const pad = (text: string, bytes: number, fill: number) => {
      const padded = Buffer.alloc(bytes, fill);
      Buffer.from(text, 'base64').copy(padded);
      return padded.toString('base64');
    };
    const widen: Record<string, (s: Record<string, string>, L: number) => Record<string, string>> = {
      chat: (s, L) => ({ ...s, rep: pad(s.rep!, 8 * 1024, 0), sent: pad(s.sent!, 8 * 1024, 0), received: pad(s.received!, 8 * 1024, 0), lists: pad(s.lists!, 4 * 1024 * L, 0xff) }),
      reports: (s) => ({ ...s, games: pad(s.games!, 8 * 1024, 0), made: pad(s.made!, 8 * 1024, 0) }),
    };
    for (const [id, wide] of Object.entries(widen)) {
      const scorer = scorerById(id)!;
      const params = scorer.params.resolve(PARAMS[id]!);
      const whole = scorer.initialState(params);
      for (const e of events) scorer.evolve(whole, e);
      const prefix = scorer.initialState(params);
      for (const e of events.slice(0, 4)) scorer.evolve(prefix, e);
      const restored = scorer.initialState(params);
      const snapshot = JSON.parse(scorer.snapshot(prefix, 'c') as string) as Record<string, string>; // a small state: one part
      scorer.restore(restored, 'c', JSON.stringify(wide(snapshot, (params as { L?: number }).L ?? 0)));
      for (const e of events.slice(4)) scorer.evolve(restored, e);
      expect(view(scorer, restored)).toBe(view(scorer, whole));
    }
  });

  it('a snapshot is plain text that survives a round trip unchanged', () => {
    const scorer = SCORERS.reliability!;
    const state = scorer.initialState(scorer.params.resolve({}));
    scorer.evolve(state, { type: 'match.start', time: 0, community: 'c', match: 'm', players: ['a', 'b'] });
    scorer.evolve(state, { type: 'disconnect', time: 1, community: 'c', player: 'a' });
    const text = scorer.snapshot(state, 'c');
    expect(typeof text).toBe('string');
    const restored = scorer.initialState(scorer.params.resolve({}));
    scorer.restore(restored, 'c', text);
    expect(scorer.snapshot(restored, 'c')).toBe(text);
    expect(scorer.snapshot(restored, 'other')).toBeUndefined();
  });

  it('restoring one community leaves the others alone, and an undefined snapshot forgets it', () => {
    const scorer = SCORERS.cqr!;
    const params = scorer.params.resolve({ T: 2, x: 0, k: 2 });
    const state = scorer.initialState(params);
    scorer.evolve(state, { type: 'action', time: 0, community: 'a', player: 'p', delta: 5 });
    scorer.evolve(state, { type: 'action', time: 0, community: 'b', player: 'p', delta: 7 });
    const before = scorer.snapshot(state, 'a');
    scorer.evolve(state, { type: 'action', time: 1, community: 'a', player: 'p', delta: 100 });
    scorer.restore(state, 'a', before);
    expect(scorer.rank(state).map((r) => [r.community, r.score])).toEqual([['a', 5], ['b', 7]]);
    scorer.restore(state, 'b', undefined);
    expect(scorer.communities(state)).toEqual(['a']);
  });
});
