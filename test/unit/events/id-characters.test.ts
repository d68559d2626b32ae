/**
 * issue 28: ids (players, matches, communities, event ids, moderator names, key labels) hold no
 * control, format (bidirectional, zero-width) or line-separator character; free texts keep them.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, EventValidationError, validateEvent } from '../../../src/index.js';
import { ID_FIELDS, idCharacterProblem, refusedIdCharacter, shownText, withoutRefusedIdCharacters } from '../../../src/events/id-characters.js';
import { MAX_ID_LENGTH } from '../../../src/events/limits.js';
import { payloadSchemas } from '../../../src/events/schema.js';
import type { ActionEvent } from '../../../src/events/types.js';
import { idField } from '../../../src/quality/payload.js';
import { labelProblem, moderatorName } from '../../../src/service/keys.js';

const T = 0;

/** One valid event of each type, naming every id field it may hold. */
const valid: Record<(typeof EVENT_TYPES)[number], Record<string, unknown>> = {
  action: { type: 'action', time: T, player: 'p', domain: 'forum', op: 'post', post: 'p1', text: 'hi' },
  'match.start': { type: 'match.start', time: T, match: 'm', players: ['a', 'b'], bots: ['b'] },
  'match.end': { type: 'match.end', time: T, match: 'm' },
  disconnect: { type: 'disconnect', time: T, player: 'a' },
  'match.resume': { type: 'match.resume', time: T, match: 'm' },
  rating: { type: 'rating', time: T, from: 'a', to: 'b', value: 0 },
  report: { type: 'report', time: T, from: 'a', to: 'b', reason: 'feeding' },
  played: { type: 'played', time: T, player: 'a', games: 3 },
  chat: { type: 'chat', time: T, from: 'a', to: ['b', 'c'] },
  verdict: { type: 'verdict', time: T, on: 'report', outcome: 'dismissed', from: 'a', to: 'b', reason: 'no evidence', moderator: 'ana', moderatorKey: 'k1' },
  note: { type: 'note', time: T, player: 'a', text: 'warned', moderator: 'ana', moderatorKey: 'k1' },
  sanction: { type: 'sanction', time: T, player: 'a', action: 'lift', sanction: 's-1', reason: 'served', moderator: 'ana', moderatorKey: 'k1' },
  appeal: { type: 'appeal', time: T, player: 'a', status: 'granted', appeal: 'a-1', reason: 'ok', moderator: 'ana', moderatorKey: 'k1' },
  rule: { type: 'rule', time: T, rule: 'feeders', state: 'paused', reason: 'false positives', moderator: 'ana', moderatorKey: 'k1' },
};

function rejection(value: unknown): EventValidationError {
  try {
    validateEvent(value);
  } catch (error) {
    expect(error).toBeInstanceOf(EventValidationError);
    return error as EventValidationError;
  }
  throw new Error('expected a rejection');
}

/** Characters ids refuse, each with its code point and kind as the message names them. */
const REFUSED: readonly [string, string, string][] = [
  ['\u202E', 'U+202E', 'a bidirectional control'],
  ['\u202A', 'U+202A', 'a bidirectional control'],
  ['\u2066', 'U+2066', 'a bidirectional control'],
  ['\u2069', 'U+2069', 'a bidirectional control'],
  ['\u200E', 'U+200E', 'a bidirectional control'],
  ['\u061C', 'U+061C', 'a bidirectional control'],
  ['\u200B', 'U+200B', 'a zero-width character'],
  ['\u200C', 'U+200C', 'a zero-width character'],
  ['\u200D', 'U+200D', 'a zero-width character'],
  ['\u2060', 'U+2060', 'a zero-width character'],
  ['\uFEFF', 'U+FEFF', 'a zero-width character'],
  ['\u0001', 'U+0001', 'a control character'],
  ['\t', 'U+0009', 'a control character'],
  ['\n', 'U+000A', 'a control character'],
  ['\u007F', 'U+007F', 'a control character'],
  ['\u0085', 'U+0085', 'a control character'],
  ['\u2028', 'U+2028', 'a line separator'],
  ['\u2029', 'U+2029', 'a paragraph separator'],
  ['\u00AD', 'U+00AD', 'an invisible format character'],
  ['\u2062', 'U+2062', 'an invisible format character'],
  ['\u{E0041}', 'U+E0041', 'an invisible format character'],
];

/** Characters ids keep: letters of any script, digits, punctuation, spaces, combining marks, emoji. */
const KEPT = ['a', 'Z', '7', '-', '_', '.', ' ', 'é', 'e\u0301', 'Ж', '玩', 'ع', '😀', '～', '\u00A0', '#'];

describe('issue 28: the characters an id refuses', () => {
  it('names the first refused character by code point, kind and position (UTF-16 units)', () => {
    for (const [c, code, kind] of REFUSED) {
      expect(idCharacterProblem(`ab${c}cd${c}`)).toMatch(new RegExp(`^contains ${code.replace('+', '\\+')} \\(${kind}\\) at position 2: `));
    }
    expect(idCharacterProblem('adm\u202Enimda\u202C')).toBe(
      'contains U+202E (a bidirectional control) at position 3: ids and labels hold no control, format (bidirectional, zero-width) or line-separator character, which would render invisibly or reorder the text around it',
    );
    for (const c of KEPT) expect(idCharacterProblem(`a${c}b`)).toBeUndefined();
  });

  it('shows refused characters escaped in messages, and an importer may drop them', () => {
    expect(shownText('adm\u202Enimda\u202C')).toBe('"adm\\u202enimda\\u202c"');
    expect(shownText('a\u{E0041}"b')).toBe('"a\\udb40\\udc41\\"b"');
    expect(withoutRefusedIdCharacters('`Madman\u00AD\'Θ~')).toBe("`Madman'Θ~");
    expect(withoutRefusedIdCharacters('\u2062'.repeat(10))).toBe('');
  });

  it('refuses them in every id field of every event type, naming the field (an array id by its index)', () => {
    for (const type of EVENT_TYPES) {
      for (const field of ['id', 'community', ...ID_FIELDS[type]]) {
        const event = structuredClone(valid[type]);
        const current = event[field];
        // A field the valid event leaves out (a verdict names a report or a pair, never both) is checked alone.
        const bad = 'adm\u202Enimda\u202C';
        if (Array.isArray(current)) event[field] = [...current.slice(0, -1), bad];
        else event[field] = bad;
        if (type === 'verdict' && field === 'report') {
          delete event.from;
          delete event.to;
        }
        if (type === 'action' && field === 'domain') {
          delete event.op;
          delete event.post;
        }
        const error = rejection(event);
        const named = Array.isArray(current) ? `${field}/${current.length - 1}` : field;
        expect({ type, field: error.field, reason: error.reason }).toEqual({ type, field: named, reason: expect.stringMatching(/^contains U\+202E \(a bidirectional control\) at position 3: /) });
      }
    }
  });

  it('keeps them in free texts and extra fields, as given', () => {
    const texts = 'see \u202Egnp.exe\u202C, zero\u200Bwidth, tab\there\nnext line';
    expect(validateEvent({ type: 'report', time: T, from: 'a', to: 'b', reason: texts }).reason).toBe(texts);
    expect(validateEvent({ type: 'note', time: T, player: 'a', text: texts }).text).toBe(texts);
    expect(validateEvent({ type: 'appeal', time: T, player: 'a', status: 'opened', text: texts }).text).toBe(texts);
    expect(validateEvent({ type: 'sanction', time: T, player: 'a', action: 'warn', reason: texts }).reason).toBe(texts);
    expect(validateEvent({ type: 'disconnect', time: T, player: 'a', note: { deep: [texts] } }).note).toEqual({ deep: [texts] });
  });

  it('refuses them in a domain action’s ids', () => {
    const action = { type: 'action', time: T, community: 'default', player: 'p', domain: 'clustering', dot: 'd\u200B1' } as unknown as ActionEvent;
    expect(() => idField(action, 'dot')).toThrow(/field "dot" contains U\+200B \(a zero-width character\) at position 1/);
    expect(idField({ ...action, dot: 'd1' }, 'dot')).toBe('d1');
  });

  it('lists every id field of the payload schemas (strings, or arrays of strings, as long as an id may be)', () => {
    const isId = (schema: TSchema): boolean => schema.type === 'string' && schema.maxLength === MAX_ID_LENGTH;
    const schemas = payloadSchemas(Type) as Record<string, { properties: Record<string, TSchema> }>;
    for (const type of EVENT_TYPES) {
      const ids = Object.entries(schemas[type]!.properties)
        .filter(([, schema]) => isId(schema) || (schema.type === 'array' && isId(schema.items as TSchema)))
        .map(([field]) => field);
      // chat's `to` is an id or an array of them, checked outside the schema.
      expect({ type, fields: [...ID_FIELDS[type]].filter((f) => !(type === 'chat' && f === 'to')).sort() }).toEqual({ type, fields: ids.sort() });
    }
  });

  it('refuses an id exactly when it holds a refused character, naming the first (property)', () => {
    const refused = REFUSED.map(([c]) => c);
    const id = fc.array(fc.constantFrom(...refused, ...KEPT), { minLength: 1, maxLength: 20 });
    fc.assert(
      fc.property(id, fc.constantFrom('player', 'community', 'id'), (parts, field) => {
        const text = parts.join('');
        const first = parts.findIndex((c) => refused.includes(c));
        const answer = refusedIdCharacter({ type: 'disconnect', time: T, player: 'p', [field]: text }, 'disconnect');
        if (first < 0) {
          expect(answer).toBeUndefined();
          expect(validateEvent({ type: 'disconnect', time: T, player: 'p', [field]: text })[field]).toBe(text);
          return;
        }
        const at = parts.slice(0, first).join('').length;
        expect(answer).toEqual([field, expect.stringContaining(`U+${parts[first]!.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`)]);
        expect(answer![1]).toContain(`at position ${at}:`);
        expect(rejection({ type: 'disconnect', time: T, player: 'p', [field]: text }).field).toBe(field);
      }),
      { seed: 28, numRuns: 1000 },
    );
  });
});

describe('issue 28: key labels', () => {
  it('refuses a label with a refused character or over 128 characters; a key made before acts under its id', () => {
    expect(labelProblem('adm\u202Enimda\u202C')).toMatch(/^contains U\+202E \(a bidirectional control\) at position 3/);
    expect(labelProblem('x'.repeat(129))).toMatch(/^is 129 characters \(UTF-16 code units\) long: a label holds at most 128/);
    expect(labelProblem('Mia (trust & safety) 😀')).toBeUndefined();
    expect(labelProblem('')).toBeUndefined();
    expect(moderatorName({ id: 'abc123def456', label: 'adm\u202Enimda\u202C' })).toBe('abc123def456');
    expect(moderatorName({ id: 'abc123def456', label: ' Mia ' })).toBe('Mia');
  });
});
