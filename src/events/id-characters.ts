/**
 * The characters an id may not hold, and which fields of an event are ids. An id names someone or
 * something to a moderator: a character that renders as nothing or reorders the text around it
 * lets two ids look alike, or one id look like another (`adm\u202Enimda\u202C` renders as
 * "admadmin"). Refused in every id of an event (./schema.ts's ids, the event `id`, `community`,
 * `moderator`, `moderatorKey`, a domain action's ids), in a key's label (its moderator name) and
 * in a rule's label (shown in the queue beside its proposals):
 * Unicode's control characters (category Cc: C0, DEL, C1), format characters (Cf: the
 * bidirectional controls, the zero-width space, non-joiner and joiner, the word joiner, the soft
 * hyphen, the byte-order mark, tags, …) and the line and paragraph separators (Zl, Zp). Free texts
 * (reasons, notes, appeals' texts, extra fields) keep them as given: whoever shows them renders
 * them safely.
 */
import type { EventType } from './types.js';

const REFUSED = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

const BIDI = new Set([0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);
const ZERO_WIDTH = new Set([0x180e, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff]);

/** What kind of refused character `c` is, in words. */
function kindOf(c: number): string {
  if (BIDI.has(c)) return 'a bidirectional control';
  if (ZERO_WIDTH.has(c)) return 'a zero-width character';
  if (c === 0x2028) return 'a line separator';
  if (c === 0x2029) return 'a paragraph separator';
  if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return 'a control character';
  return 'an invisible format character';
}

/** `text` without the characters an id refuses (for an importer making ids of names found in data). */
export const withoutRefusedIdCharacters = (text: string): string => text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '');

/** `c` as U+XXXX (at least four hex digits). */
export const codePoint = (c: number): string => `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;

/** Why `text` cannot be an id (the first refused character, its code point and position), or undefined when it can. */
export function idCharacterProblem(text: string): string | undefined {
  if (!REFUSED.test(text)) return undefined; // test, not exec: no match object on the path every id takes
  const match = REFUSED.exec(text)!;
  const c = match[0].codePointAt(0)!;
  return `contains ${codePoint(c)} (${kindOf(c)}) at position ${match.index}: ids and labels hold no control, format (bidirectional, zero-width) or line-separator character, which would render invisibly or reorder the text around it`;
}

/** A character as JSON escapes of its UTF-16 code units. */
const escaped = (c: string): string => Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');

/** `text` as a JSON string whose refused characters are escaped (`"adm\u202enimda"`), so a message shows them. */
export const shownText = (text: string): string => JSON.stringify(text).replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, escaped);

/** The id fields of each event type besides `id` and `community` (a value is an id, or an array of ids). */
export const ID_FIELDS: { readonly [T in EventType]: readonly string[] } = {
  action: ['player', 'domain'],
  'match.start': ['match', 'players', 'bots'],
  'match.end': ['match'],
  disconnect: ['player'],
  'match.resume': ['match'],
  rating: ['from', 'to'],
  report: ['from', 'to'],
  played: ['player'],
  chat: ['from', 'to'],
  verdict: ['report', 'from', 'to', 'player', 'moderator', 'moderatorKey'],
  note: ['player', 'moderator', 'moderatorKey'],
  sanction: ['player', 'sanction', 'moderator', 'moderatorKey'],
  appeal: ['player', 'appeal', 'sanction', 'moderator', 'moderatorKey'],
  rule: ['rule', 'moderator', 'moderatorKey'],
};

const COMMON_ID_FIELDS = ['id', 'community'] as const;

/** One id field's value: its problem as [field, reason], or undefined. */
function fieldProblem(value: unknown, field: string): [string, string] | undefined {
  if (typeof value === 'string') {
    const reason = idCharacterProblem(value);
    return reason === undefined ? undefined : [field, reason];
  }
  if (!Array.isArray(value)) return undefined;
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    const reason = typeof item === 'string' ? idCharacterProblem(item) : undefined;
    if (reason !== undefined) return [`${field}/${i}`, reason];
  }
  return undefined;
}

/** The first id of `event` (of type `type`) holding a refused character, as [field, reason]; undefined when there is none. */
export function refusedIdCharacter(event: Readonly<Record<string, unknown>>, type: EventType): [field: string, reason: string] | undefined {
  for (const field of COMMON_ID_FIELDS) {
    const problem = fieldProblem(event[field], field);
    if (problem !== undefined) return problem;
  }
  for (const field of ID_FIELDS[type]) {
    const problem = fieldProblem(event[field], field);
    if (problem !== undefined) return problem;
  }
  return undefined;
}
