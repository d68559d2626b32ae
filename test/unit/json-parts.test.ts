import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyExact } from '../../src/util/exact-json.js';
import { parseExactParts, stringifyExactParts } from '../../src/util/json-parts.js';

/** Equal as the checkpoint needs: every number's bits, −0 included. */
const sameState = (a: unknown, b: unknown): boolean => stringifyExact(a) === stringifyExact(b) && JSON.stringify(a) === JSON.stringify(b);

describe('exact JSON in parts', () => {
  it('writes a value that fits in one part as its exact JSON, and reads it back', () => {
    const state = { players: ['ann', 'bob'], sums: [1.5, -0, 3], inexact: false };
    const parts = stringifyExactParts(state, 1_000);
    expect(parts).toEqual([stringifyExact(state)]);
    expect(Object.is((parseExactParts<typeof state>(parts).sums)[1], -0)).toBe(true);
    // The text a checkpoint held before parts existed reads the same way.
    expect(parseExactParts(stringifyExact(state))).toEqual(state);
  });

  it('cuts a state too long for one part into parts no longer than the limit, and reads it back exactly', () => {
    const players = Array.from({ length: 3_000 }, (_, i) => `player-${i}`);
    const state = {
      layout: 3,
      players,
      chunks: Array.from({ length: 5 }, (_, c) => Buffer.from(new Float64Array(Array.from({ length: 200 }, (_, i) => (i % 7 === 0 ? -0 : c * 1000 + i / 3))).buffer).toString('base64')),
      sums: Array.from({ length: 2_000 }, (_, i) => (i % 11 === 0 ? -0 : i * 0.1)),
      byPlayer: Object.fromEntries(players.slice(0, 500).map((p, i) => [p, { score: i / 7, seen: [i, -0] }])),
      note: 'é😀\u0000"\\'.repeat(400),
      empty: { list: [], text: '' },
    };
    const parts = stringifyExactParts(state, 256);
    expect(parts.length).toBeGreaterThan(100);
    for (const part of parts.slice(1)) expect(part.length).toBeLessThanOrEqual(256);
    // The layout grows with the number of parts only.
    expect(parts[0]!.length).toBeLessThan(40 * parts.length);
    expect(JSON.parse(parts[0]!)).toMatchObject({ 'standing-parts': 1 });
    const back = parseExactParts<typeof state>(parts);
    expect(sameState(back, state)).toBe(true);
    expect(Object.is(back.sums[0], -0)).toBe(true);
  });

  it('cuts one string longer than a part without splitting a character, escapes included', () => {
    const text = '😀a\u0001'.repeat(1_000);
    const parts = stringifyExactParts({ text }, 64);
    for (const part of parts.slice(1)) {
      expect(part.length).toBeLessThanOrEqual(64);
      expect(() => JSON.parse(part) as unknown).not.toThrow();
    }
    // No piece of the string ends inside a surrogate pair.
    for (const part of parts.slice(1)) expect(/[\uD800-\uDBFF]$/.test(JSON.parse(part) as string)).toBe(false);
    expect(parseExactParts<{ text: string }>(parts).text).toBe(text);
  });

  it('keeps a field named __proto__ as a field', () => {
    const state = JSON.parse(`{"__proto__":{"x":${'1,'.repeat(0)}1},"players":${JSON.stringify(Array.from({ length: 50 }, (_, i) => `p${i}`))}}`) as Record<string, unknown>;
    const back = parseExactParts<Record<string, unknown>>(stringifyExactParts(state, 64));
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toEqual(['__proto__', 'players']);
    expect(JSON.stringify(back)).toBe(JSON.stringify(state));
  });

  it('reads back what it writes for any JSON value and any part size', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.integer({ min: 64, max: 300 }), (value, partChars) => {
        const parts = stringifyExactParts(value, partChars);
        for (const part of parts.slice(1)) expect(part.length).toBeLessThanOrEqual(partChars);
        if (parts.length === 1) expect(parts[0]!.length).toBeLessThanOrEqual(partChars);
        expect(sameState(parseExactParts(parts), value)).toBe(true);
      }),
      { seed: 18, numRuns: 400 },
    );
  });

  it('names what is wrong with parts it cannot read', () => {
    expect(() => parseExactParts(['{"layout":2}', '[]'])).toThrow(/not a layout this version reads/);
    expect(() => parseExactParts(['{"standing-parts":1,"value":{"array":[{"items":7}]}}', '[]'])).toThrow(/names part 7 of 2/);
    expect(() => parseExactParts([])).toThrow(/at least one part/);
    expect(() => stringifyExactParts([1], 16)).toThrow(/at least 64/);
  });
});
