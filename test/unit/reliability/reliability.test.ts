/** Gibbon's dropper detection (docs/spec.md §3): the paper's arithmetic, bands, bots, expiry. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bandOf, reliability, type ReliabilityState, type StandingEvent } from '../../../src/index.js';

const DAY = 86_400_000;

/** A tiny log builder: each call appends one event at time `t` (ms). */
function log() {
  const events: StandingEvent[] = [];
  const base = { community: 'c' };
  const api = {
    start: (t: number, match: string, players: string[], bots?: string[]) =>
      (events.push({ ...base, type: 'match.start', time: t, match, players, ...(bots ? { bots } : {}) }), api),
    end: (t: number, match: string) => (events.push({ ...base, type: 'match.end', time: t, match }), api),
    drop: (t: number, player: string) => (events.push({ ...base, type: 'disconnect', time: t, player }), api),
    resume: (t: number, match: string) => (events.push({ ...base, type: 'match.resume', time: t, match }), api),
    events,
  };
  return api;
}

function run(events: readonly StandingEvent[], params: Record<string, unknown> = {}): ReliabilityState {
  const state = reliability.initialState(reliability.params.resolve(params));
  for (const event of events) reliability.evolve(state, event);
  return state;
}

const scoreOf = (state: ReliabilityState, player: string) => reliability.explain(state, 'c', player);

describe('the paper’s arithmetic', () => {
  it('a match played through gives both players 1.0', () => {
    const s = run(log().start(0, 'm', ['ann', 'bob']).end(1, 'm').events);
    expect(scoreOf(s, 'ann')).toMatchObject({ score: 1, confidence: 1, band: 'green', bar: 0.1 });
    expect(scoreOf(s, 'bob')).toMatchObject({ score: 1, confidence: 1 });
  });

  it('a match interrupted once, resumed and finished gives the dropper (−1 + 1.5 + 1)/3 = 0.5', () => {
    const s = run(log().start(0, 'm', ['ann', 'bob']).drop(1, 'ann').resume(2, 'm').end(3, 'm').events);
    expect(scoreOf(s, 'ann')).toMatchObject({ score: 0.5, confidence: 3, band: 'red' });
    expect(scoreOf(s, 'ann')!.events.map((e) => [e.kind, e.value])).toEqual([
      ['drop', -1],
      ['resume', 1.5],
      ['finish', 1],
    ]);
    expect(scoreOf(s, 'bob')).toMatchObject({ score: 1, confidence: 1 }); // the droppee only finishes
  });

  it('twice gives (−2 + 3 + 1)/5 = 0.4', () => {
    const s = run(log().start(0, 'm', ['ann', 'bob']).drop(1, 'ann').resume(2, 'm').drop(3, 'ann').resume(4, 'm').end(5, 'm').events);
    expect(scoreOf(s, 'ann')!.score).toBeCloseTo(0.4, 15);
  });

  it('n times gives (0.5n + 1)/(2n + 1), which tends to 0.25', () => {
    const l = log().start(0, 'm', ['ann', 'bob']);
    const n = 2000;
    for (let i = 0; i < n; i++) l.drop(2 * i + 1, 'ann').resume(2 * i + 2, 'm');
    const s = run(l.end(2 * n + 1, 'm').events);
    expect(scoreOf(s, 'ann')!.score).toBeCloseTo((0.5 * n + 1) / (2 * n + 1), 12);
    expect(scoreOf(s, 'ann')!.score - 0.25).toBeLessThan(0.0002);
  });
});

describe('bands and bar', () => {
  const p = reliability.params.defaults;
  it.each([
    [1, 'green'],
    [0.95, 'green'],
    [0.9499999, 'yellow'],
    [0.85, 'yellow'],
    [0.8499999, 'orange'],
    [0.65, 'orange'],
    [0.6499999, 'red'],
    [-1, 'red'],
  ] as const)('reliability %s is %s', (value, band) => {
    expect(bandOf(value, p)).toBe(band);
  });

  it('the bar grows with confidence and is full at 10', () => {
    const l = log();
    for (let i = 0; i < 12; i++) l.start(2 * i, `m${i}`, ['ann', 'bob']).end(2 * i + 1, `m${i}`);
    const s = run(l.events.slice(0, 2 * 7));
    expect(scoreOf(s, 'ann')!.bar).toBeCloseTo(0.7, 15);
    expect(scoreOf(run(l.events), 'ann')).toMatchObject({ confidence: 12, bar: 1 });
  });
});

describe('bots', () => {
  it('deletes the −1.0 when the dropper resumes against a bot, adding nothing', () => {
    const s = run(log().start(0, 'm', ['ann', 'gnubg'], ['gnubg']).drop(1, 'ann').resume(2, 'm').end(3, 'm').events);
    expect(scoreOf(s, 'ann')).toMatchObject({ score: 1, confidence: 1 });
    expect(scoreOf(s, 'ann')!.events.map((e) => e.kind)).toEqual(['finish']);
  });

  it('keeps the −1.0 while the match against the bot is not resumed', () => {
    const s = run(log().start(0, 'm', ['ann', 'gnubg'], ['gnubg']).drop(1, 'ann').events);
    expect(scoreOf(s, 'ann')).toMatchObject({ score: -1, confidence: 1 });
  });

  it('credits the resume when only some opponents are bots', () => {
    const s = run(log().start(0, 'm', ['ann', 'bob', 'gnubg'], ['gnubg']).drop(1, 'ann').resume(2, 'm').events);
    expect(scoreOf(s, 'ann')).toMatchObject({ score: 0.25, confidence: 2 });
  });
});

describe('what scores nothing', () => {
  it('a disconnect outside any match, and one in an already interrupted match', () => {
    const s = run(log().drop(0, 'ann').start(1, 'm', ['ann', 'bob']).drop(2, 'bob').drop(3, 'ann').events);
    expect(scoreOf(s, 'ann')).toBeUndefined();
    expect(scoreOf(s, 'bob')).toMatchObject({ score: -1, confidence: 1 });
  });

  it('a disconnect after the match ended', () => {
    const s = run(log().start(0, 'm', ['ann', 'bob']).end(1, 'm').drop(2, 'ann').events);
    expect(scoreOf(s, 'ann')).toMatchObject({ score: 1, confidence: 1 });
  });

  it('a resume of an unknown match, of a running match, and of an interruption that expired', () => {
    expect(reliability.rank(run(log().resume(0, 'ghost').events))).toEqual([]);
    const running = run(log().start(0, 'm', ['ann', 'bob']).resume(1, 'm').events);
    expect(reliability.rank(running)).toEqual([]);
    const expired = run(log().start(0, 'm', ['ann', 'bob']).drop(1, 'ann').resume(1 + 101 * DAY, 'm').events);
    expect(scoreOf(expired, 'ann')).toBeUndefined();
  });

  it('a match end for an unknown match', () => {
    expect(reliability.rank(run(log().end(0, 'ghost').events))).toEqual([]);
  });

  it('a disconnect interrupts every running match of the player, one −1.0 each', () => {
    const s = run(log().start(0, 'a', ['ann', 'bob']).start(0, 'b', ['ann', 'cat']).drop(1, 'ann').resume(2, 'a').events);
    expect(scoreOf(s, 'ann')!.events.map((e) => [e.kind, e.match])).toEqual([
      ['drop', 'a'],
      ['drop', 'b'],
      ['resume', 'a'],
    ]);
  });

  it('a match end of an interrupted match scores the finish but no resume', () => {
    const s = run(log().start(0, 'm', ['ann', 'bob']).drop(1, 'ann').end(2, 'm').events);
    expect(scoreOf(s, 'ann')).toMatchObject({ score: 0, confidence: 2 });
  });
});

describe('expiry by event time', () => {
  it('keeps an event exactly keepDays old and forgets one a millisecond older', () => {
    const l = log().start(0, 'm', ['ann', 'bob']).end(0, 'm').start(50 * DAY, 'n', ['cat', 'dan']);
    const kept = run([...l.events, { type: 'match.end', time: 100 * DAY, community: 'c', match: 'n' }]);
    expect(scoreOf(kept, 'ann')).toMatchObject({ confidence: 1 });
    const gone = run([...l.events, { type: 'match.end', time: 100 * DAY + 1, community: 'c', match: 'n' }]);
    expect(scoreOf(gone, 'ann')).toBeUndefined();
    expect(reliability.rank(gone).map((r) => r.player)).toEqual(['cat', 'dan']);
  });

  it('follows keepDays', () => {
    const events = log().start(0, 'm', ['ann', 'bob']).end(0, 'm').start(0, 'x', ['cat', 'dan']).end(3 * DAY, 'x').events;
    expect(scoreOf(run(events, { keepDays: 2 }), 'ann')).toBeUndefined();
    expect(scoreOf(run(events, { keepDays: 3 }), 'ann')).toMatchObject({ confidence: 1 });
  });

  it('drops expired events from memory, not only from queries', () => {
    const l = log();
    for (let i = 0; i < 500; i++) l.start(i * DAY, `m${i}`, [`p${i}`, `q${i}`]).end(i * DAY, `m${i}`);
    const state = run(l.events);
    const community = state.communities.get('c')!;
    // only the last 101 days of matches (days 399..499) are kept: 2 players each
    expect(community.players.size).toBe(202);
    expect(reliability.rank(state)).toHaveLength(202);
  });

  it('counts an event that arrives already expired as nothing', () => {
    const s = run(log().start(200 * DAY, 'x', ['cat', 'dan']).end(200 * DAY, 'x').start(0, 'm', ['ann', 'bob']).end(0, 'm').events);
    expect(scoreOf(s, 'ann')).toBeUndefined();
  });
});

describe('ranking', () => {
  it('orders by reliability, then by evidence, then by id; unscored players are not listed', () => {
    const l = log()
      .start(0, 'a', ['ann', 'bob'])
      .end(1, 'a')
      .start(2, 'b', ['ann', 'cat'])
      .end(3, 'b')
      .start(4, 'c', ['dan', 'eve'])
      .drop(5, 'dan')
      .start(6, 'd', ['fay', 'gus']);
    expect(reliability.rank(run(l.events)).map((r) => [r.rank, r.player, r.score, r.confidence, r.band])).toEqual([
      [1, 'ann', 1, 2, 'green'],
      [2, 'bob', 1, 1, 'green'],
      [3, 'cat', 1, 1, 'green'],
      [4, 'dan', -1, 1, 'red'],
    ]);
  });
});

describe('parameters', () => {
  it('rejects unknown keys, non-positive keepDays and unordered bands', () => {
    expect(() => reliability.params.resolve({ keep: 3 })).toThrow(/not a parameter of reliability/);
    expect(() => reliability.params.resolve({ keepDays: 0 })).toThrow(/keepDays" must be a finite number > 0/);
    expect(() => reliability.params.resolve({ green: 0.5 })).toThrow(/green ≥ yellow ≥ orange/);
    expect(reliability.params.resolve({ resume: '2' }).resume).toBe(2);
  });
});

describe('invariants (property)', () => {
  const action = fc.oneof(
    fc.record({ kind: fc.constant('start' as const), match: fc.integer({ min: 0, max: 4 }), a: fc.integer({ min: 0, max: 5 }), b: fc.integer({ min: 0, max: 5 }), bot: fc.boolean() }),
    fc.record({ kind: fc.constantFrom('end' as const, 'resume' as const), match: fc.integer({ min: 0, max: 4 }) }),
    fc.record({ kind: fc.constant('drop' as const), player: fc.integer({ min: 0, max: 5 }) }),
  );
  const toEvents = (actions: fc.Arbitrary<unknown>[] | unknown[], gaps: number[]) => {
    const l = log();
    let t = 0;
    (actions as { kind: string; match?: number; a?: number; b?: number; bot?: boolean; player?: number }[]).forEach((x, i) => {
      t += gaps[i % gaps.length]!;
      if (x.kind === 'start' && x.a !== x.b) l.start(t, `m${x.match}`, [`p${x.a}`, `p${x.b}`], x.bot ? [`p${x.b}`] : []);
      else if (x.kind === 'end') l.end(t, `m${x.match}`);
      else if (x.kind === 'resume') l.resume(t, `m${x.match}`);
      else if (x.kind === 'drop') l.drop(t, `p${x.player}`);
    });
    return l.events;
  };

  it('each reliability is the mean of the listed events, between −1 and 1.5, with confidence = their number', () => {
    fc.assert(
      fc.property(fc.array(action, { maxLength: 60 }), fc.array(fc.integer({ min: 0, max: 30 * DAY }), { minLength: 1, maxLength: 5 }), (actions, gaps) => {
        const state = run(toEvents(actions, gaps));
        return reliability.rank(state).every((row) => {
          const e = reliability.explain(state, 'c', row.player)!;
          const mean = e.events.reduce((s, x) => s + x.value, 0) / e.events.length;
          return Math.abs(mean - row.score) < 1e-12 && e.events.length === row.confidence && row.score >= -1 && row.score <= 1.5;
        });
      }),
      { seed: 7, numRuns: 300 },
    );
  });
});
