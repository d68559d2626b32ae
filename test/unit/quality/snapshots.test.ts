/**
 * Quality-stage checkpoints: restoring a community's domain states taken after any prefix of a
 * log and resolving the rest gives the same deltas and the same final state, bit for bit, as
 * resolving the whole log (conflicting actions are skipped the same way in both runs).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ActionEvent } from '../../../src/events/types.js';
import { BUILTIN_DOMAINS } from '../../../src/quality/index.js';
import { QualityStage } from '../../../src/quality/stage.js';
import { parseExact, stringifyExact } from '../../../src/util/exact-json.js';

const id = (prefix: string, n: number) => fc.integer({ min: 0, max: n }).map((i) => `${prefix}${i}`);
const player = id('p', 3);
const payload = fc.oneof(
  fc.record({ domain: fc.constant('clustering'), dot: id('d', 5), color: fc.option(fc.constantFrom('A', 'B', 'C'), { nil: undefined }), x: fc.integer({ min: -9, max: 9 }), y: fc.integer({ min: -9, max: 9 }) }),
  fc.record({ domain: fc.constant('minecraft'), op: fc.constantFrom('place', 'break'), block: fc.constantFrom('stone', 'diamond_ore', 'dirt'), x: fc.integer({ min: 0, max: 2 }), y: fc.constant(0), z: fc.constant(0) }),
  fc.record({ domain: fc.constant('forum'), op: fc.constantFrom('post', 'edit', 'delete'), post: id('t', 3), text: fc.constantFrom('hello', 'HELLO there', 'idiot!', '') }),
  fc.record({ domain: fc.constant('recommendation'), item: id('i', 2), stars: fc.constantFrom(-0, 0, 1, 2.5, 5) }),
);
const log = fc.array(fc.tuple(player, fc.constantFrom('a', 'b'), payload), { maxLength: 80, size: 'max' }).map((items) =>
  items.map(([p, community, body], i) => ({ type: 'action', time: i, community, player: p, ...body }) as ActionEvent),
);

/** Each action's delta (`null` for board set-up, `'conflict'` when the domain refuses it). */
function resolveAll(stage: QualityStage, events: readonly ActionEvent[]): unknown[] {
  return events.map((e) => {
    try {
      const resolved = stage.resolve(e);
      return resolved === null ? null : Object.is((resolved as ActionEvent).delta, -0) ? '-0' : (resolved as ActionEvent).delta;
    } catch {
      return 'conflict';
    }
  });
}

const newStage = () => new QualityStage({ domains: BUILTIN_DOMAINS, options: { forum: { forbiddenWords: 'idiot' } } });

describe('quality-stage checkpoints', () => {
  it('restore(snapshot after any prefix) + the rest == the whole log', () => {
    fc.assert(
      fc.property(log, fc.nat(), (events, at) => {
        const whole = newStage();
        const expected = resolveAll(whole, events);
        const cut = at % (events.length + 1);
        const prefix = newStage();
        const head = resolveAll(prefix, events.slice(0, cut));
        const restored = newStage();
        for (const c of ['a', 'b']) restored.restore(c, prefix.snapshot(c));
        const tail = resolveAll(restored, events.slice(cut));
        expect([...head, ...tail]).toEqual(expected);
        for (const c of ['a', 'b']) expect(restored.snapshot(c)).toBe(whole.snapshot(c));
      }),
      { seed: 21, numRuns: 300 },
    );
  });

  it('a community without actions has no snapshot; restoring undefined forgets one', () => {
    const stage = newStage();
    expect(stage.snapshot('a')).toBeUndefined();
    stage.resolve({ type: 'action', time: 0, community: 'a', player: 'p', domain: 'recommendation', item: 'i', stars: 4 } as ActionEvent);
    expect(stage.snapshot('a')).toBeDefined();
    stage.restore('a', undefined);
    expect(stage.snapshot('a')).toBeUndefined();
    expect(stage.quality('a', 'recommendation')).toBe(0);
  });

  it('exact JSON keeps −0 and leaves everything else as JSON has it', () => {
    const value = { a: -0, b: [0, -0, 1.5e-300], c: 'x', d: { '-0': 2 } };
    const back = parseExact<typeof value>(stringifyExact(value));
    expect(Object.is(back.a, -0)).toBe(true);
    expect(Object.is(back.b[1], -0)).toBe(true);
    expect(Object.is(back.b[0], 0)).toBe(true);
    expect(back).toEqual(value);
  });
});
