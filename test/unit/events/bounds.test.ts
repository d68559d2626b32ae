/**
 * Values with bounds (issue 14, points 1 and 3): no accepted event can poison a community's scores.
 * Times stay within what a Date represents, deltas within ±MAX_DELTA (a sum of them cannot reach
 * ±Infinity, which JSON writes as null), `played.games` within 1..MAX_GAMES_PER_EVENT (one
 * `games: 1e15` took every reports judgment point), domain payload numbers within
 * ±MAX_PAYLOAD_NUMBER, and a domain's computed delta is clamped to ±MAX_DELTA.
 */
import { describe, expect, it } from 'vitest';
import { EventValidationError, validateEvent, type ActionEvent } from '../../../src/index.js';
import { MAX_DELTA, MAX_GAMES_PER_EVENT, MAX_PAYLOAD_NUMBER, MAX_TIME_MS } from '../../../src/events/bounds.js';
import { BUILTIN_DOMAINS } from '../../../src/quality/index.js';
import { QualityStage } from '../../../src/quality/stage.js';

const refusal = (value: Record<string, unknown>): { field: string; reason: string } | undefined => {
  try {
    validateEvent(value);
    return undefined;
  } catch (error) {
    if (!(error instanceof EventValidationError)) throw error;
    return { field: error.field, reason: error.reason };
  }
};

describe('issue 14: event value limits', () => {
  it('times: within ±8.64e15 epoch ms (what a Date represents)', () => {
    expect(MAX_TIME_MS).toBe(8.64e15);
    for (const time of [MAX_TIME_MS, -MAX_TIME_MS, 0]) expect(refusal({ type: 'disconnect', time, player: 'a' })).toBeUndefined();
    for (const time of [MAX_TIME_MS + 1, -MAX_TIME_MS - 1, 1e300]) {
      expect(refusal({ type: 'disconnect', time, player: 'a' })).toEqual({ field: 'time', reason: expect.stringMatching(/must be within ±8640000000000000 epoch milliseconds/) });
    }
  });

  it('deltas: within ±1e9', () => {
    for (const delta of [MAX_DELTA, -MAX_DELTA, 0.5]) expect(refusal({ type: 'action', time: 0, player: 'a', delta })).toBeUndefined();
    expect(refusal({ type: 'action', time: 0, player: 'a', delta: 1e300 })).toEqual({ field: 'delta', reason: `must be ≤ ${MAX_DELTA}` });
    expect(refusal({ type: 'action', time: 0, player: 'a', delta: -MAX_DELTA - 1 })).toEqual({ field: 'delta', reason: `must be ≥ ${-MAX_DELTA}` });
  });

  it('played.games: a whole number from 1 to 1000', () => {
    expect(refusal({ type: 'played', time: 0, player: 'a', games: MAX_GAMES_PER_EVENT })).toBeUndefined();
    expect(refusal({ type: 'played', time: 0, player: 'a', games: 1e15 })).toEqual({ field: 'games', reason: `must be ≤ ${MAX_GAMES_PER_EVENT}` });
  });
});

describe('issue 14: quality domains: payload numbers bounded, computed deltas clamped', () => {
  const act = (domain: string, payload: Record<string, unknown>) => validateEvent({ type: 'action', time: 0, player: 'p', domain, ...payload }) as ActionEvent;

  it('refuses a clustering position or recommendation stars beyond ±1e9, naming the field, before changing anything', () => {
    const stage = new QualityStage({ domains: BUILTIN_DOMAINS });
    expect(() => stage.resolve(act('clustering', { dot: 'a', color: 'A', x: 1e300, y: 0 }))).toThrow(
      expect.objectContaining({ field: 'x', reason: `must be within ±${MAX_PAYLOAD_NUMBER}, got 1e+300` }),
    );
    expect(() => stage.resolve(act('recommendation', { item: 'm', stars: -2e9 }))).toThrow(expect.objectContaining({ field: 'stars' }));
    expect(stage.quality('default', 'clustering')).toBe(0);
  });

  it('clamps a computed delta to ±1e9', () => {
    const stage = new QualityStage({ domains: BUILTIN_DOMAINS });
    stage.resolve(act('clustering', { dot: 'a', color: 'A', x: 0, y: 0 }));
    stage.resolve(act('clustering', { dot: 'b', color: 'B', x: 3, y: 4 }));
    // Q goes from 10 to 2e9 (two ordered pairs of colours, each 1e9 apart): Δ ≈ 2e9, clamped.
    const moved = stage.resolve(act('clustering', { dot: 'b', x: 0, y: MAX_PAYLOAD_NUMBER })) as ActionEvent;
    expect(moved.delta).toBe(MAX_DELTA);
    const back = stage.resolve(act('clustering', { dot: 'b', x: 3, y: 4 })) as ActionEvent;
    expect(back.delta).toBe(-MAX_DELTA);
  });
});
