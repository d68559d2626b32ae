/** The engine: several parameterizations on one pass, domain deltas resolved once, no partial apply. */
import { describe, expect, it } from 'vitest';
import {
  BUILTIN_DOMAINS,
  cqr,
  Engine,
  EventConflictError,
  EventValidationError,
  instantiate,
  ParameterError,
  QualityStage,
  trust,
  type StandingEvent,
} from '../../src/index.js';
import { TABLE1 } from '../support/table1.js';
import type { CqrState } from '../../src/index.js';

const cqrState = (engine: Engine, i = 0) => engine.instances[i]!.state as CqrState;

const stage = () => new QualityStage({ domains: BUILTIN_DOMAINS });

describe('Engine', () => {
  it('runs several parameterizations side by side with the same results as separate runs', () => {
    const specs = [{ T: Infinity, x: 0, k: Infinity }, { T: 8, x: 10, k: 4 }, { T: 3, x: 5, k: 2 }];
    const together = new Engine(specs.map((p) => instantiate(cqr, p)), { quality: stage() });
    const events: StandingEvent[] = TABLE1.flatMap((p) =>
      p.deltas.map((delta, a) => ({ type: 'action' as const, time: a, community: 'default', player: p.player, delta })),
    );
    for (const e of events) together.apply(e);
    specs.forEach((p, i) => {
      const alone = instantiate(cqr, p);
      for (const e of events) cqr.evolve(alone.state, e);
      expect(cqr.rank(cqrState(together, i))).toEqual(cqr.rank(alone.state));
    });
    expect(together.count).toBe(400);
    expect(together.instances.map((i) => i.name)).toEqual(['cqr T=Infinity,x=0,k=Infinity', 'cqr T=8,x=10,k=4', 'cqr T=3,x=5,k=2']);
  });

  it('gives a domain action its delta before the scorers, and skips unscored setup actions', () => {
    const seen: StandingEvent[] = [];
    const engine = new Engine([instantiate(cqr, { T: 8, x: 0, k: 8 })], { quality: stage(), observe: (e) => seen.push(e) });
    const at = (player: string, payload: Record<string, unknown>): StandingEvent =>
      ({ type: 'action', time: 0, community: 'g', player, domain: 'clustering', ...payload }) as StandingEvent;
    engine.apply(at('board', { dot: 'a', color: 'black', x: 0, y: 0 }));
    engine.apply(at('board', { dot: 'b', color: 'black', x: 4, y: 0 }));
    // moving b from 4 to 2 halves the black cluster: mean distance to centroid 2 → 1, so Q rises by 1
    engine.apply(at('p', { dot: 'b', x: 2, y: 0 }));
    expect(seen).toHaveLength(1);
    expect((seen[0] as { delta: number }).delta).toBeCloseTo(1, 12);
    expect(cqr.rank(cqrState(engine))).toEqual([{ rank: 1, player: 'p', score: expect.closeTo(1, 12), community: 'g', actions: 1 }]);
  });

  it('rejects an impossible domain action with its place, changing nothing', () => {
    const engine = new Engine([instantiate(cqr, {})], { quality: stage() });
    const move = { type: 'action', time: 0, community: 'g', player: 'p', domain: 'clustering', dot: 'ghost', x: 1, y: 1 } as StandingEvent;
    expect(() => engine.apply(move, { source: 'log', line: 9 })).toThrow(EventConflictError);
    expect(() => engine.apply(move, { source: 'log', line: 9 })).toThrow(/^log line 9: field "dot" "ghost"/);
    const unknown = { type: 'action', time: 0, community: 'g', player: 'p', domain: 'chess' } as StandingEvent;
    expect(() => engine.apply(unknown, { line: 3 })).toThrow(EventValidationError);
    expect(() => engine.apply(unknown, { line: 3 })).toThrow(/line 3: field "domain" "chess" is not a known domain/);
    expect(engine.count).toBe(0);
    expect(cqr.rank(cqrState(engine))).toEqual([]);
  });

  it('names an instance by its scorer and parameters, functions by their names', () => {
    expect(instantiate(trust, { observers: 'a,b' }).name).toBe(
      'trust observers=a,b,expireHours=1,ttlMax=720,negativeWeight=1,maxIterations=100,tolerance=1e-9,decay=linearDecay,influence=positiveInfluence,threads=0,minFlow=0,flowDamping=0.5',
    );
  });

  it('refuses two instances with one name', () => {
    expect(() => new Engine([instantiate(cqr, {}), instantiate(cqr, {})], { quality: stage() })).toThrow(/two scorer instances/);
  });

  it('issue 26: refuses them with a ParameterError naming the engine\'s instances', () => {
    expect(() => new Engine([instantiate(cqr, {}), instantiate(cqr, {})], { quality: stage() })).toThrow(
      new ParameterError('engine', 'instances', 'holds two scorer instances named "cqr T=8,x=10,k=4"'),
    );
  });
});
