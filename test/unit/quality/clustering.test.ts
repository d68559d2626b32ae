import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventConflictError, EventValidationError, ParameterError } from '../../../src/errors.js';
import type { ActionEvent } from '../../../src/events/types.js';
import { clustering, type ClusteringState } from '../../../src/quality/clustering.js';
import { expectEventError } from '../../support/errors.js';

function act(payload: Record<string, unknown>, player = 'p1'): ActionEvent {
  return { type: 'action', time: 0, community: 'default', player, domain: 'clustering', ...payload };
}

function fresh(): ClusteringState {
  return clustering.initialState(clustering.options.resolve());
}

interface Dot {
  readonly colour: string;
  x: number;
  y: number;
}

/**
 * eq. 11 straight from the positions, O(dots²). `scale` is the sum of the magnitudes of both
 * parts, the yardstick for the relative tolerance (Q itself may cancel to near 0).
 */
function bruteForce(board: ReadonlyMap<string, Dot>): { q: number; scale: number } {
  const byColour = new Map<string, Dot[]>();
  for (const dot of board.values()) {
    const list = byColour.get(dot.colour) ?? [];
    list.push(dot);
    byColour.set(dot.colour, list);
  }
  const groups = [...byColour.values()];
  let intra = 0;
  for (const g of groups) {
    const cx = g.reduce((s, d) => s + d.x, 0) / g.length;
    const cy = g.reduce((s, d) => s + d.y, 0) / g.length;
    intra += g.reduce((s, d) => s + Math.hypot(d.x - cx, d.y - cy), 0) / g.length;
  }
  let inter = 0;
  for (const g1 of groups) {
    for (const g2 of groups) {
      if (g1 === g2) continue;
      let sum = 0;
      for (const d1 of g1) for (const d2 of g2) sum += Math.hypot(d1.x - d2.x, d1.y - d2.y);
      inter += sum / (g1.length * g2.length);
    }
  }
  return { q: -intra + inter, scale: intra + inter };
}

const TOLERANCE = 1e-9;


function expectClose(actual: number, expected: number, scale: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(TOLERANCE * (1 + scale));
}

describe('clustering domain', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('has no options', () => {
    expect(clustering.name).toBe('clustering');
    expect(clustering.options.resolve()).toEqual({});
    expect(() => clustering.options.resolve({ k: 1 })).toThrow(ParameterError);
  });

  it('computes a hand-checked board', () => {
    const state = fresh();
    expect(clustering.quality(state)).toBe(0);
    // Placing dots sets up the board: not a contribution, so null.
    expect(clustering.apply(state, act({ dot: 'a1', color: 'A', x: 0, y: 0 }))).toBeNull();
    expect(clustering.apply(state, act({ dot: 'a2', color: 'A', x: 6, y: 0 }))).toBeNull();
    // A = {(0,0), (6,0)}: centroid (3,0), intra = (3 + 3)/2 = 3; no other colour: Q = −3.
    expect(clustering.quality(state)).toBe(-3);
    expect(clustering.apply(state, act({ dot: 'b1', color: 'B', x: 3, y: 4 }))).toBeNull();
    // B = {(3,4)}: intra 0. dist(a1,b1) = dist(a2,b1) = 5 (3-4-5), mean 5, two ordered pairs
    // (A,B) and (B,A): Q = −3 − 0 + 5 + 5 = 7.
    expect(clustering.quality(state)).toBe(7);
    // Move a2 to (0,0): A's intra 0, both A dots at distance 5 from b1: Q = 10, Δ = 10 − 7 = 3.
    expect(clustering.apply(state, act({ dot: 'a2', x: 0, y: 0 }))).toBeCloseTo(3, 12);
    expect(clustering.quality(state)).toBeCloseTo(10, 12);
    // Move b1 to (0,8), colour given and matching: both A dots at 8: Q = 8 + 8 = 16, Δ = 6.
    expect(clustering.apply(state, act({ dot: 'b1', color: 'B', x: 0, y: 8 }))).toBeCloseTo(6, 12);
    expect(clustering.quality(state)).toBeCloseTo(16, 12);
    // Moving a dot onto its own position changes nothing.
    expect(clustering.apply(state, act({ dot: 'b1', x: 0, y: 8 }))).toBe(0);
  });

  it('counts ordered pairs of three colours', () => {
    const state = fresh();
    clustering.apply(state, act({ dot: 'a', color: 'A', x: 0, y: 0 }));
    clustering.apply(state, act({ dot: 'b', color: 'B', x: 3, y: 0 }));
    clustering.apply(state, act({ dot: 'c', color: 'C', x: 0, y: 4 }));
    // One dot per colour (intra 0); pair distances 3, 4, 5, each counted twice: Q = 24.
    expect(clustering.quality(state)).toBe(24);
    // Move c to (3,4): distances a–b 3, a–c 5, b–c 4: still 24, Δ = 0 (up to rounding).
    expect(clustering.apply(state, act({ dot: 'c', x: 3, y: 4 }))).toBeCloseTo(0, 12);
  });

  it('rejects bad payloads with the field name', () => {
    const state = fresh();
    clustering.apply(state, act({ dot: 'a', color: 'A', x: 0, y: 0 }));
    const cases: [Record<string, unknown>, string][] = [
      [{ x: 1, y: 1 }, 'dot'],
      [{ dot: '', x: 1, y: 1 }, 'dot'],
      [{ dot: 7, x: 1, y: 1 }, 'dot'],
      [{ dot: 'a', y: 1 }, 'x'],
      [{ dot: 'a', x: '1', y: 1 }, 'x'],
      [{ dot: 'a', x: Number.NaN, y: 1 }, 'x'],
      [{ dot: 'a', x: Infinity, y: 1 }, 'x'],
      [{ dot: 'a', x: 1 }, 'y'],
      [{ dot: 'a', x: 1, y: null }, 'y'],
      [{ dot: 'a', x: 1, y: 1, color: '' }, 'color'],
      [{ dot: 'z', x: 1, y: 1, color: 3 }, 'color'],
    ];
    for (const [payload, field] of cases) {
      expectEventError(() => clustering.apply(state, act(payload)), EventValidationError, field);
    }
  });

  it('rejects moving an unknown dot and a colour change as conflicts', () => {
    const state = fresh();
    clustering.apply(state, act({ dot: 'a', color: 'A', x: 0, y: 0 }));
    expectEventError(() => clustering.apply(state, act({ dot: 'ghost', x: 1, y: 1 })), EventConflictError, 'dot');
    expectEventError(() => clustering.apply(state, act({ dot: 'a', color: 'B', x: 1, y: 1 })), EventConflictError, 'color');
  });

  it('leaves the state untouched when apply throws', () => {
    const state = fresh();
    clustering.apply(state, act({ dot: 'a', color: 'A', x: 0, y: 0 }));
    clustering.apply(state, act({ dot: 'b', color: 'B', x: 3, y: 4 }));
    const snapshot = structuredClone(state);
    const q = clustering.quality(state);
    for (const payload of [
      { dot: 'a', color: 'B', x: 9, y: 9 },
      { dot: 'a', x: 9, y: Number.NaN },
      { dot: 'ghost', x: 9, y: 9 },
      { dot: 'new', color: 'C', x: 9, y: '9' },
    ]) {
      expect(() => clustering.apply(state, act(payload))).toThrow();
    }
    expect(state).toEqual(snapshot);
    expect(clustering.quality(state)).toBe(q);
  });

  it('costs O(dots) distance computations per move', () => {
    const state = fresh();
    const dots = 200;
    for (let i = 0; i < dots; i++) {
      clustering.apply(state, act({ dot: `d${i}`, color: `c${i % 4}`, x: i % 17, y: i % 13 }));
    }
    const hypot = vi.spyOn(Math, 'hypot');
    clustering.apply(state, act({ dot: 'd5', x: 100, y: -3 }));
    // 2 per dot of another colour (old and new position) + 1 per dot of the moved colour.
    expect(hypot.mock.calls.length).toBeLessThanOrEqual(2 * dots);
  });

  const coordinate = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ min: -1000, max: 1000, noNaN: true }));

  it('gives Δ = brute-force Q(after) − Q(before) for every move, and Q itself (property)', () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('place' as const), colour: fc.nat(3), x: coordinate, y: coordinate }),
      fc.record({ kind: fc.constant('move' as const), dot: fc.nat(), x: coordinate, y: coordinate, tell: fc.boolean() }),
    );
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
        const state = fresh();
        const board = new Map<string, Dot>();
        for (const s of steps) {
          if (s.kind === 'place' || board.size === 0) {
            const colour = `c${s.kind === 'place' ? s.colour : 0}`;
            const dot = `d${board.size}`;
            expect(clustering.apply(state, act({ dot, color: colour, x: s.x, y: s.y }))).toBeNull();
            board.set(dot, { colour, x: s.x, y: s.y });
          } else {
            const dot = `d${s.dot % board.size}`;
            const model = board.get(dot)!;
            const before = bruteForce(board);
            const payload = { dot, x: s.x, y: s.y, ...(s.tell ? { color: model.colour } : {}) };
            const delta = clustering.apply(state, act(payload));
            model.x = s.x;
            model.y = s.y;
            const after = bruteForce(board);
            expect(delta).not.toBeNull();
            expectClose(delta!, after.q - before.q, before.scale + after.scale);
          }
          const now = bruteForce(board);
          expectClose(clustering.quality(state), now.q, now.scale);
        }
      }),
      { seed: 20240611, numRuns: 200 },
    );
  });

  it('telescopes: Σ Δ over moves = Q(final) − Q(board set up) (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(3), coordinate, coordinate), { minLength: 1, maxLength: 30 }),
        fc.array(fc.tuple(fc.nat(), coordinate, coordinate), { maxLength: 80 }),
        (dots, moves) => {
          const state = fresh();
          dots.forEach(([c, x, y], i) => clustering.apply(state, act({ dot: `d${i}`, color: `c${c}`, x, y })));
          const initial = clustering.quality(state);
          let sum = 0;
          for (const [d, x, y] of moves) sum += clustering.apply(state, act({ dot: `d${d % dots.length}`, x, y }))!;
          const final = clustering.quality(state);
          const scale = moves.length * (Math.abs(initial) + Math.abs(final) + 1);
          expect(Math.abs(sum - (final - initial))).toBeLessThanOrEqual(TOLERANCE * scale);
        },
      ),
      { seed: 7, numRuns: 200 },
    );
  });
});
