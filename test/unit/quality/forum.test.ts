import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventConflictError, EventValidationError, ParameterError } from '../../../src/errors.js';
import type { ActionEvent } from '../../../src/events/types.js';
import {
  DEFAULT_FORBIDDEN_WORDS,
  forbiddenPattern,
  forum,
  postValue,
  type ForumState,
} from '../../../src/quality/forum.js';
import { expectEventError } from '../../support/errors.js';

function act(payload: Record<string, unknown>, player = 'ann'): ActionEvent {
  return { type: 'action', time: 0, community: 'default', player, domain: 'forum', ...payload };
}

function fresh(options?: Record<string, unknown>): ForumState {
  return forum.initialState(forum.options.resolve(options));
}

const defaults = forbiddenPattern(DEFAULT_FORBIDDEN_WORDS);
const value = (text: string) => postValue(text, defaults);


describe('forum post value', () => {
  it('is length / ((caps/length + 0.01) · (1 + forbidden))', () => {
    // L 11, caps 0, forbidden 0: 11 / 0.01 = 1100.
    expect(value('hello world')).toBeCloseTo(1100, 9);
    // L 5, caps 1: 5 / (0.2 + 0.01) = 23.8095…
    expect(value('Hello')).toBeCloseTo(5 / 0.21, 9);
    // All caps: 5 / (1 + 0.01).
    expect(value('HELLO')).toBeCloseTo(5 / 1.01, 9);
    // L 9, caps 0, one forbidden word: 9 / (0.01 · 2) = 450.
    expect(value('you idiot')).toBeCloseTo(450, 9);
    // Case-insensitive: L 9, caps 6 (Y I D I O T), forbidden 1: 9 / ((6/9 + 0.01) · 2) = 6.650…
    expect(value('You IDIOT')).toBeCloseTo(9 / ((6 / 9 + 0.01) * 2), 9);
    // Two occurrences: 15 / (0.01 · 3) = 500.
    expect(value('idiot and idiot')).toBeCloseTo(500, 9);
  });

  it('gives an empty post the value 0', () => {
    expect(value('')).toBe(0);
  });

  it('counts code points and Unicode capitals', () => {
    // One code point (two UTF-16 units), no capitals: 1 / 0.01 = 100.
    expect(value('😀')).toBeCloseTo(100, 9);
    // É is \p{Lu}: L 5, caps 5: 5 / 1.01.
    expect(value('ÉCOLE')).toBeCloseTo(5 / 1.01, 9);
    // Digits and punctuation are not capitals: L 3, caps 0.
    expect(value('1!?')).toBeCloseTo(300, 9);
  });

  it('matches forbidden words as whole words only', () => {
    // "idiotic" and "noob_" contain a forbidden word but are other words: L/0.01.
    expect(value('idiotic')).toBeCloseTo(700, 9);
    expect(value('noob_')).toBeCloseTo(500, 9);
    expect(value('idiot1')).toBeCloseTo(600, 9);
    expect(value('éidiot')).toBeCloseTo(600, 9);
    // Punctuation is a boundary: "idiot's" and "(noob)" count, L 7 and 6.
    expect(value("idiot's")).toBeCloseTo(7 / 0.02, 9);
    expect(value('(noob)')).toBeCloseTo(6 / 0.02, 9);
  });

  it('supports phrases and regex characters in the word list', () => {
    const pattern = forbiddenPattern(['shut up', 'c++', 'a.b']);
    // "shut up now": L 11, forbidden 1: 11 / 0.02.
    expect(postValue('shut up now', pattern)).toBeCloseTo(550, 9);
    // "c++ rocks": L 9: 9 / 0.02.
    expect(postValue('c++ rocks', pattern)).toBeCloseTo(450, 9);
    // "axb" is not "a.b": L 3, forbidden 0.
    expect(postValue('axb', pattern)).toBeCloseTo(300, 9);
    expect(forbiddenPattern([])).toBeNull();
    expect(postValue('idiot', null)).toBeCloseTo(500, 9);
  });
});

describe('forum domain', () => {
  it('keeps Q the mean post value through post, edit and delete', () => {
    const s = fresh();
    expect(forum.quality(s)).toBe(0);
    // Q: 0 → 1100.
    expect(forum.apply(s, act({ op: 'post', post: 'p1', text: 'hello world' }))).toBeCloseTo(1100, 9);
    // Q: 1100 → (1100 + 23.8095…)/2 = 561.904…, Δ = −538.095…
    const q2 = (1100 + 5 / 0.21) / 2;
    expect(forum.apply(s, act({ op: 'post', post: 'p2', text: 'Hello' }, 'bob'))).toBeCloseTo(q2 - 1100, 9);
    expect(forum.quality(s)).toBeCloseTo(q2, 9);
    // Edit p2 to "hello": (1100 + 500)/2 = 800.
    expect(forum.apply(s, act({ op: 'edit', post: 'p2', text: 'hello' }))).toBeCloseTo(800 - q2, 9);
    // An empty post counts with value 0: (1100 + 500 + 0)/3 = 533.33…
    expect(forum.apply(s, act({ op: 'post', post: 'p3', text: '' }))).toBeCloseTo(1600 / 3 - 800, 9);
    // Delete p1: (500 + 0)/2 = 250.
    expect(forum.apply(s, act({ op: 'delete', post: 'p1' }))).toBeCloseTo(250 - 1600 / 3, 9);
    expect(forum.apply(s, act({ op: 'delete', post: 'p2' }))).toBeCloseTo(-250, 9);
    // No posts left: Q = 0 exactly.
    expect(forum.apply(s, act({ op: 'delete', post: 'p3' }))).toBe(0);
    expect(forum.quality(s)).toBe(0);
    expect(s.sum).toBe(0);
  });

  it('lets a deleted id be posted again', () => {
    const s = fresh();
    forum.apply(s, act({ op: 'post', post: 'p1', text: 'hi' }));
    forum.apply(s, act({ op: 'delete', post: 'p1' }));
    expect(forum.apply(s, act({ op: 'post', post: 'p1', text: 'hi' }))).toBeCloseTo(200, 9);
  });

  it('reads forbiddenWords as an array or comma-separated text', () => {
    expect(forum.options.resolve().forbiddenWords).toEqual(DEFAULT_FORBIDDEN_WORDS);
    expect(forum.options.resolve({ forbiddenWords: 'heck, darn ,' }).forbiddenWords).toEqual(['heck', 'darn']);
    expect(forum.options.resolve({ forbiddenWords: [' heck'] }).forbiddenWords).toEqual(['heck']);
    expect(forum.options.resolve({ forbiddenWords: '' }).forbiddenWords).toEqual([]);
    const s = fresh({ forbiddenWords: ['heck'] });
    // "heck idiot": L 10, "idiot" no longer forbidden, "heck" is: 10 / 0.02.
    expect(forum.apply(s, act({ op: 'post', post: 'p', text: 'heck idiot' }))).toBeCloseTo(500, 9);
    for (const forbiddenWords of [5, null, ['ok', ''], ['ok', 3], { a: 1 }]) {
      expect(() => forum.options.resolve({ forbiddenWords })).toThrow(ParameterError);
    }
  });

  it('rejects bad payloads with the field name', () => {
    const s = fresh();
    forum.apply(s, act({ op: 'post', post: 'p1', text: 'x' }));
    const cases: [Record<string, unknown>, string][] = [
      [{ post: 'p9', text: 'x' }, 'op'],
      [{ op: 'reply', post: 'p9', text: 'x' }, 'op'],
      [{ op: 'post', text: 'x' }, 'post'],
      [{ op: 'post', post: '', text: 'x' }, 'post'],
      [{ op: 'delete', post: 12 }, 'post'],
      [{ op: 'post', post: 'p9' }, 'text'],
      [{ op: 'edit', post: 'p1', text: 42 }, 'text'],
      [{ op: 'edit', post: 'p1', text: null }, 'text'],
    ];
    for (const [payload, field] of cases) expectEventError(() => forum.apply(s, act(payload)), EventValidationError, field);
  });

  it('rejects a duplicate post and editing or deleting a missing one as conflicts', () => {
    const s = fresh();
    forum.apply(s, act({ op: 'post', post: 'p1', text: 'x' }));
    expectEventError(() => forum.apply(s, act({ op: 'post', post: 'p1', text: 'y' })), EventConflictError, 'post');
    expectEventError(() => forum.apply(s, act({ op: 'edit', post: 'p2', text: 'y' })), EventConflictError, 'post');
    expectEventError(() => forum.apply(s, act({ op: 'delete', post: 'p2' })), EventConflictError, 'post');
  });

  it('leaves the state untouched when apply throws', () => {
    const s = fresh();
    forum.apply(s, act({ op: 'post', post: 'p1', text: 'Hello there' }));
    forum.apply(s, act({ op: 'post', post: 'p2', text: 'noob' }));
    const snapshot = structuredClone(s);
    const q = forum.quality(s);
    for (const payload of [
      { op: 'post', post: 'p1', text: 'again' },
      { op: 'edit', post: 'p1' },
      { op: 'edit', post: 'p3', text: 'x' },
      { op: 'delete', post: 'p3' },
      { op: 'purge', post: 'p1' },
    ]) {
      expect(() => forum.apply(s, act(payload))).toThrow();
    }
    expect(s).toEqual(snapshot);
    expect(forum.quality(s)).toBe(q);
  });

  it('telescopes: Σ Δ = Q(final) − Q(initial), Q = brute-force mean (property)', () => {
    const text = fc.stringMatching(/^(?:[a-zA-Z ]|idiot|NOOB|É|😀){0,12}$/);
    const action = fc.record({ op: fc.constantFrom('post', 'edit', 'delete'), post: fc.constantFrom('a', 'b', 'c', 'd'), text });
    fc.assert(
      fc.property(fc.array(action, { maxLength: 80 }), (actions) => {
        const s = fresh();
        const texts = new Map<string, string>();
        let sum = 0;
        for (const a of actions) {
          const exists = texts.has(a.post);
          if ((a.op === 'post') === exists) {
            expect(() => forum.apply(s, act(a))).toThrow(EventConflictError);
            continue;
          }
          sum += forum.apply(s, act(a))!;
          if (a.op === 'delete') texts.delete(a.post);
          else texts.set(a.post, a.text);
        }
        const values = [...texts.values()].map(value);
        const mean = values.length === 0 ? 0 : values.reduce((x, y) => x + y, 0) / values.length;
        expect(forum.quality(s)).toBeCloseTo(mean, 6);
        expect(sum).toBeCloseTo(forum.quality(s), 6);
      }),
      { seed: 99, numRuns: 300 },
    );
  });
});
