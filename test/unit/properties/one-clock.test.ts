/**
 * Issue 24, point 2: one clock per community (docs/spec.md §1). For every scorer under every
 * parameter set, an event of a type the scorer does not use, dated t, changes its rankings and
 * explanations exactly as evaluating at t (`--now`, Engine.advance) does; and the cases the issue
 * found: trust's ratings expire on a chat's time, reliability forgets on a rating's, and a domain
 * action that is nobody's contribution (a dot placed on the board) moves the clock too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine, instantiate, type ScorerInstance } from '../../../src/engine/engine.js';
import { SCORERS, type StandingEvent } from '../../../src/index.js';
import { BUILTIN_DOMAINS } from '../../../src/quality/index.js';
import { QualityStage } from '../../../src/quality/stage.js';
import { DAY, rawLog, T0, validEvents } from '../../support/arbitrary-events.js';
import { PARAMETER_SETS } from '../../support/parameter-sets.js';

const PLAYERS = ['p0', 'p1', 'p2', 'p3', 'p4', 'gnubg'];

/** An event of community `a` at `time` of a type `scorerId` does not use. */
function unused(scorerId: string, time: number): StandingEvent {
  return scorerId === 'trust' || scorerId === 'reports'
    ? { type: 'chat', time, community: 'a', from: 'p8', to: ['p9'] }
    : { type: 'rating', time, community: 'a', from: 'p8', to: 'p9', value: 1 };
}

function engineOf(instance: () => ScorerInstance): Engine {
  return new Engine([instance()], { quality: new QualityStage({ domains: BUILTIN_DOMAINS }) });
}

/** What a ranking shows of community a: its rows and every player's explanation. */
function shown(engine: Engine): string {
  const { scorer, state } = engine.instances[0]!;
  return JSON.stringify({ rank: scorer.rank(state, { community: 'a' }), explain: PLAYERS.map((p) => scorer.explain(state, 'a', p) ?? null) });
}

describe('issue 24: an event of any type moves the clock exactly as --now does', () => {
  for (const [id, scorer] of Object.entries(SCORERS)) {
    PARAMETER_SETS[id]!.forEach((params, n) => {
      it(`${id} ${JSON.stringify(params)}`, () => {
        const instance = () => instantiate(scorer, params);
        fc.assert(
          fc.property(rawLog({ communities: ['a'] }, 40), fc.integer({ min: -400, max: 400 }), (raw, days) => {
            const events = validEvents(raw);
            const t = T0 + days * DAY;
            const byEvent = engineOf(instance);
            for (const e of [...events, unused(id, t)]) byEvent.apply(e);
            const byNow = engineOf(instance);
            for (const e of events) byNow.apply(e);
            byNow.advance(t);
            expect(shown(byEvent)).toBe(shown(byNow));
          }),
          { seed: 2424 + n, numRuns: 40 },
        );
      });
    });
  }
});

describe('issue 24: the cases found', () => {
  const rating = (time: string, to: string, value: number): StandingEvent => ({ type: 'rating', time: Date.parse(time), community: 'default', from: 'mod', to, value });
  const scores = (engine: Engine) => Object.fromEntries(engine.instances[0]!.scorer.rank(engine.instances[0]!.state).map((r) => [r.player, r.score]));

  it("trust: two ratings on 2026-01-01 and a chat on 2026-03-01 leave both at 0, as --now 2026-03-01 does (ratings live 30 days)", () => {
    const events: StandingEvent[] = [rating('2026-01-01T00:00:00Z', 'ann', 1), rating('2026-01-01T00:00:00Z', 'bob', -1), { type: 'chat', time: Date.parse('2026-03-01T00:00:00Z'), community: 'default', from: 'ann', to: ['bob'] }];
    const engine = engineOf(() => instantiate(SCORERS.trust!, { observers: 'mod' }));
    for (const e of events.slice(0, 2)) engine.apply(e);
    expect(scores(engine)).toEqual({ ann: 1, bob: -1 });
    engine.apply(events[2]!);
    expect(scores(engine)).toEqual({ ann: 0, bob: 0 });
  });

  it('trust: a rating arriving after a later chat is dated by its own time, and is out of force when older than its lifetime', () => {
    const engine = engineOf(() => instantiate(SCORERS.trust!, { observers: 'mod' }));
    engine.apply({ type: 'chat', time: Date.parse('2026-03-01T00:00:00Z'), community: 'default', from: 'ann', to: ['bob'] });
    engine.apply(rating('2026-02-20T00:00:00Z', 'ann', 1)); // 9 days old on arrival: in force, TTL 720 − 216
    engine.apply(rating('2026-01-01T00:00:00Z', 'bob', 1)); // 59 days old on arrival: already expired
    const { scorer, state } = engine.instances[0]!;
    const e = scorer.explain(state, 'default', 'ann') as { ratings: { time: number; ttl: number }[] };
    expect(e.ratings).toEqual([expect.objectContaining({ time: Date.parse('2026-02-20T00:00:00Z'), ttl: 720 - 9 * 24 })]);
    expect(scores(engine)).toEqual({ ann: 1 - (9 * 24) / 720 });
  });

  it('reliability: a finish is forgotten 100 days on, whether a rating or --now brings the clock there', () => {
    const events: StandingEvent[] = [
      { type: 'match.start', time: T0, community: 'default', match: 'm1', players: ['ann', 'bob'] },
      { type: 'match.end', time: T0 + 60_000, community: 'default', match: 'm1' },
    ];
    const engine = engineOf(() => instantiate(SCORERS.reliability!, {}));
    for (const e of events) engine.apply(e);
    expect(scores(engine)).toEqual({ ann: 1, bob: 1 });
    engine.apply({ type: 'rating', time: T0 + 101 * DAY, community: 'default', from: 'x', to: 'y', value: 1 });
    expect(scores(engine)).toEqual({});
  });

  it('a domain action that is no player’s contribution (a dot placed) moves the clock too', () => {
    const engine = engineOf(() => instantiate(SCORERS.trust!, { observers: 'mod' }));
    engine.apply(rating('2026-01-01T00:00:00Z', 'ann', 1));
    engine.apply({ type: 'action', time: Date.parse('2026-02-15T00:00:00Z'), community: 'default', player: 'gm', domain: 'clustering', dot: 'd1', x: 0, y: 0, color: 'red' });
    expect(scores(engine)).toEqual({ ann: 0 });
  });
});
