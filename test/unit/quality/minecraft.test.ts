import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventValidationError, ParameterError } from '../../../src/errors.js';
import type { ActionEvent } from '../../../src/events/types.js';
import { DEFAULT_RARITY, minecraft, type MinecraftState } from '../../../src/quality/minecraft.js';
import { SpillMap } from '../../../src/util/spill-map.js';
import { expectEventError } from '../../support/errors.js';

function act(player: string, payload: Record<string, unknown>): ActionEvent {
  return { type: 'action', time: 0, community: 'default', player, domain: 'minecraft', ...payload };
}

const at = (x: number, y = 0, z = 0) => ({ x, y, z });

function fresh(options?: Record<string, unknown>): MinecraftState {
  return minecraft.initialState(minecraft.options.resolve(options));
}


describe('minecraft domain', () => {
  it('rewards collecting natural blocks by rarity / (1 + n_other)', () => {
    const s = fresh();
    expect(minecraft.quality(s)).toBe(0);
    // stone (rarity 1), counts (0,0) → (1,0): term 1·(2/1 − 1) = 1, from 0: Δ = 1.
    expect(minecraft.apply(s, act('ann', { op: 'break', block: 'stone', ...at(0) }))).toBe(1);
    // (1,0) → (2,0): 1·(3 − 1) − 1·(2 − 1) = 1.
    expect(minecraft.apply(s, act('ann', { op: 'break', block: 'stone', ...at(1) }))).toBe(1);
    // diamond_ore (rarity 50): 50·(2 − 1) = 50.
    expect(minecraft.apply(s, act('ann', { op: 'break', block: 'diamond_ore', ...at(2) }))).toBe(50);
    // An unknown type weighs 1.
    expect(minecraft.apply(s, act('ann', { op: 'break', block: 'mystery', ...at(3) }))).toBe(1);
    // Q = stone 2 + diamond 50 + mystery 1.
    expect(minecraft.quality(s)).toBe(53);
  });

  it('penalizes collecting a block another player placed', () => {
    const s = fresh();
    minecraft.apply(s, act('ann', { op: 'break', block: 'stone', ...at(0) }));
    minecraft.apply(s, act('ann', { op: 'break', block: 'stone', ...at(1) }));
    // Placing changes nothing.
    expect(minecraft.apply(s, act('ann', { op: 'place', block: 'stone', ...at(5) }))).toBe(0);
    expect(minecraft.quality(s)).toBe(2);
    // stone (2,0) → (2,1): 1·(3/2 − 1) − 1·(3/1 − 1) = 0.5 − 2 = −1.5.
    expect(minecraft.apply(s, act('bob', { op: 'break', block: 'stone', ...at(5) }))).toBe(-1.5);
    // The record is gone: the position is natural again, stone (2,1) → (3,1): 4/2 − 3/2 = 0.5.
    expect(minecraft.apply(s, act('bob', { op: 'break', block: 'stone', ...at(5) }))).toBe(0.5);
  });

  it('counts the first griefing of a never-collected type (the +1s)', () => {
    const s = fresh();
    minecraft.apply(s, act('ann', { op: 'place', block: 'gold_ore', ...at(0) }));
    // gold_ore (rarity 15), (0,0) → (0,1): 15·(1/2 − 1) − 0 = −7.5.
    expect(minecraft.apply(s, act('bob', { op: 'break', block: 'gold_ore', ...at(0) }))).toBe(-7.5);
    expect(minecraft.quality(s)).toBe(-7.5);
  });

  it('ignores breaking one\'s own block, and the record goes', () => {
    const s = fresh();
    minecraft.apply(s, act('ann', { op: 'place', block: 'obsidian', ...at(0, 64, -3) }));
    expect(minecraft.apply(s, act('ann', { op: 'break', block: 'obsidian', ...at(0, 64, -3) }))).toBe(0);
    expect(minecraft.quality(s)).toBe(0);
    expect(s.placed.size).toBe(0);
    // Nothing recorded there now: a further break is a natural block, obsidian 20·(2 − 1).
    expect(minecraft.apply(s, act('bob', { op: 'break', block: 'obsidian', ...at(0, 64, -3) }))).toBe(20);
  });

  it('uses the recorded block type, not the payload\'s, for a placed block', () => {
    const s = fresh();
    minecraft.apply(s, act('ann', { op: 'place', block: 'diamond_ore', ...at(1, 2, 3) }));
    // diamond_ore (0,0) → (0,1): 50·(1/2 − 1) = −25; dirt is not counted.
    expect(minecraft.apply(s, act('bob', { op: 'break', block: 'dirt', ...at(1, 2, 3) }))).toBe(-25);
    expect([...s.collected.keys()]).toEqual(['diamond_ore']);
  });

  it('overwrites the record when placing on a placed position', () => {
    const s = fresh();
    minecraft.apply(s, act('ann', { op: 'place', block: 'stone', ...at(0) }));
    expect(minecraft.apply(s, act('bob', { op: 'place', block: 'dirt', ...at(0) }))).toBe(0);
    expect(s.placed.size).toBe(1);
    // bob's own block now: breaking it changes nothing.
    expect(minecraft.apply(s, act('bob', { op: 'break', block: 'dirt', ...at(0) }))).toBe(0);
    expect(minecraft.quality(s)).toBe(0);
  });

  it('keys positions by all three coordinates, negatives included', () => {
    const s = fresh();
    minecraft.apply(s, act('ann', { op: 'place', block: 'stone', x: -1, y: 2, z: 3 }));
    // A different position: natural.
    expect(minecraft.apply(s, act('bob', { op: 'break', block: 'stone', x: 1, y: 2, z: 3 }))).toBe(1);
    expect(minecraft.apply(s, act('bob', { op: 'break', block: 'stone', x: -1, y: 2, z: 3 }))).toBeLessThan(0);
  });

  it('merges a rarity option over the defaults', () => {
    expect(minecraft.options.resolve().rarity).toBe(DEFAULT_RARITY);
    const fromObject = minecraft.options.resolve({ rarity: { dirt: 3, netherite: 99 } }).rarity;
    expect(fromObject).toMatchObject({ dirt: 3, netherite: 99, diamond_ore: 50 });
    const fromText = minecraft.options.resolve({ rarity: 'dirt=3, netherite = 99,' }).rarity;
    expect(fromText).toEqual(fromObject);
    const s = fresh({ rarity: { dirt: 3 } });
    // dirt now weighs 3: 3·(2 − 1).
    expect(minecraft.apply(s, act('ann', { op: 'break', block: 'dirt', ...at(0) }))).toBe(3);
  });

  it('rejects invalid rarity options', () => {
    for (const rarity of [{ dirt: 0 }, { dirt: -1 }, { dirt: 'lots' }, { dirt: Infinity }, [1, 2], 5, 'dirt', 'dirt=0', '=4', null]) {
      expect(() => minecraft.options.resolve({ rarity })).toThrow(ParameterError);
    }
    expect(() => minecraft.options.resolve({ rarities: {} })).toThrow(ParameterError);
  });

  it('rejects bad payloads with the field name', () => {
    const s = fresh();
    const cases: [Record<string, unknown>, string][] = [
      [{ block: 'stone', ...at(0) }, 'op'],
      [{ op: 'dig', block: 'stone', ...at(0) }, 'op'],
      [{ op: 'break', ...at(0) }, 'block'],
      [{ op: 'break', block: '', ...at(0) }, 'block'],
      [{ op: 'place', block: 4, ...at(0) }, 'block'],
      [{ op: 'break', block: 'stone', y: 0, z: 0 }, 'x'],
      [{ op: 'break', block: 'stone', x: 1.5, y: 0, z: 0 }, 'x'],
      [{ op: 'break', block: 'stone', x: '1', y: 0, z: 0 }, 'x'],
      [{ op: 'break', block: 'stone', x: 0, y: Number.NaN, z: 0 }, 'y'],
      [{ op: 'break', block: 'stone', x: 0, y: 0, z: 2 ** 60 }, 'z'],
      [{ op: 'place', block: 'stone', x: 0, y: 0 }, 'z'],
    ];
    for (const [payload, field] of cases) expectEventError(() => minecraft.apply(s, act('ann', payload)), EventValidationError, field);
  });

  it('leaves the state untouched when apply throws', () => {
    const s = fresh();
    minecraft.apply(s, act('ann', { op: 'place', block: 'stone', ...at(0) }));
    minecraft.apply(s, act('bob', { op: 'break', block: 'dirt', ...at(1) }));
    const snapshot = structuredClone(s);
    const q = minecraft.quality(s);
    expect(() => minecraft.apply(s, act('bob', { op: 'break', block: 'stone', x: 0, y: 0, z: 0.5 }))).toThrow();
    expect(() => minecraft.apply(s, act('bob', { op: 'place', block: '', ...at(7) }))).toThrow();
    expect(s).toEqual(snapshot);
    expect(minecraft.quality(s)).toBe(q);
  });

  it('telescopes: Σ Δ = Q(final) − Q(initial) (property)', () => {
    const action = fc.record({
      player: fc.constantFrom('ann', 'bob', 'cid'),
      op: fc.constantFrom('place', 'break'),
      block: fc.constantFrom('stone', 'dirt', 'diamond_ore', 'gold_ore', 'mystery'),
      x: fc.integer({ min: -2, max: 2 }),
      y: fc.integer({ min: 0, max: 1 }),
      z: fc.constant(0),
    });
    fc.assert(
      fc.property(fc.array(action, { maxLength: 120 }), (actions) => {
        const s = fresh();
        let sum = 0;
        for (const { player, ...payload } of actions) {
          const q = minecraft.quality(s);
          const delta = minecraft.apply(s, act(player, payload))!;
          expect(delta).toBeCloseTo(minecraft.quality(s) - q, 9);
          sum += delta;
        }
        expect(sum).toBeCloseTo(minecraft.quality(s), 9);
      }),
      { seed: 42, numRuns: 300 },
    );
  });
});

describe('SpillMap', () => {
  it('spills into further maps and keeps get/set/delete consistent', () => {
    const map = new SpillMap<string, number>(2);
    for (let i = 0; i < 5; i++) map.set(`k${i}`, i);
    expect(map.size).toBe(5);
    for (let i = 0; i < 5; i++) expect(map.get(`k${i}`)).toBe(i);
    // Overwriting a key in a later map does not duplicate it.
    map.set('k4', 40);
    map.set('k0', 10);
    expect(map.size).toBe(5);
    expect(map.get('k4')).toBe(40);
    expect(map.get('k0')).toBe(10);
    expect(map.delete('k2')).toBe(true);
    expect(map.delete('k2')).toBe(false);
    expect(map.get('k2')).toBeUndefined();
    // The freed slot is reused, and the key is found wherever it went.
    map.set('k5', 5);
    expect(map.size).toBe(5);
    expect(map.get('k5')).toBe(5);
  });
});
