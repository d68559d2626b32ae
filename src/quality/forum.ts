/**
 * `forum`: a discussion forum (Quesada & Villacorta §III.5, eq. 9 as restated by docs/spec.md §2.2).
 *
 *   Q = mean over posts p of value(p),   value(p) = L / ((caps / L + 0.01) · (1 + forbidden))
 *
 * L is the post's length in Unicode code points, caps its number of uppercase letters (\p{Lu}),
 * forbidden its number of forbidden-word occurrences (whole words, case-insensitive). An empty
 * post has value 0; Q is 0 with no posts.
 */
import { EventConflictError, EventValidationError } from '../errors.js';
import type { ActionEvent } from '../events/types.js';
import { defineParams, type FieldReader } from '../params/define.js';
import type { QualityDomain } from './domain.js';
import { idField, opField } from './payload.js';

export interface ForumOptions {
  /** Words (or phrases) counted as forbidden; an array or comma-separated text. */
  readonly forbiddenWords: readonly string[];
}

/** A small, mild default list. */
export const DEFAULT_FORBIDDEN_WORDS: readonly string[] = Object.freeze([
  'crap',
  'damn',
  'dumb',
  'idiot',
  'loser',
  'moron',
  'noob',
  'stupid',
  'suck',
  'sucks',
]);

const readWords: FieldReader<readonly string[]> = (raw) => {
  let words: unknown[];
  if (typeof raw === 'string') words = raw.split(',').filter((word) => word.trim() !== '');
  else if (Array.isArray(raw)) words = raw;
  else return { invalid: 'must be an array of words or comma-separated text' };
  const trimmed: string[] = [];
  for (const word of words) {
    if (typeof word !== 'string' || word.trim() === '') return { invalid: 'every word must be a non-empty string' };
    trimmed.push(word.trim());
  }
  return Object.freeze(trimmed);
};

/** Letters, marks, digits and connector punctuation: what a whole word may not touch. */
const WORD_CHAR = String.raw`[\p{L}\p{M}\p{N}\p{Pc}]`;

/** One regex matching any forbidden word as a whole word; null for an empty list. */
export function forbiddenPattern(words: readonly string[]): RegExp | null {
  if (words.length === 0) return null;
  const alternatives = [...new Set(words)]
    .sort((a, b) => b.length - a.length)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<!${WORD_CHAR})(?:${alternatives.join('|')})(?!${WORD_CHAR})`, 'giu');
}

const CAPITAL = /\p{Lu}/gu;

/** value(p) of one post text. */
export function postValue(text: string, forbidden: RegExp | null): number {
  let length = 0;
  for (const _ of text) length++;
  if (length === 0) return 0;
  const caps = text.match(CAPITAL)?.length ?? 0;
  const bad = forbidden === null ? 0 : (text.match(forbidden)?.length ?? 0);
  return length / ((caps / length + 0.01) * (1 + bad));
}

export interface ForumState {
  readonly forbidden: RegExp | null;
  /** Post id → value(p). */
  readonly posts: Map<string, number>;
  /** Σ value(p) over the posts. */
  sum: number;
}

function mean(sum: number, count: number): number {
  return count === 0 ? 0 : sum / count;
}

function readPayload(action: ActionEvent): { op: 'post' | 'edit' | 'delete'; post: string; text: string | undefined } {
  const op = opField(action, ['post', 'edit', 'delete']);
  const post = idField(action, 'post');
  const text = action.text;
  if (op === 'delete') return { op, post, text: undefined };
  if (typeof text !== 'string') {
    throw new EventValidationError(undefined, 'text', `is required for "${op}" and must be a string`);
  }
  return { op, post, text };
}

export const forum: QualityDomain<ForumOptions, ForumState> = {
  name: 'forum',
  options: defineParams<ForumOptions>('forum', { forbiddenWords: DEFAULT_FORBIDDEN_WORDS }, { forbiddenWords: readWords }),

  initialState(options) {
    return { forbidden: forbiddenPattern(options.forbiddenWords), posts: new Map(), sum: 0 };
  },

  apply(state, action) {
    const { op, post, text } = readPayload(action);
    const old = state.posts.get(post);
    if (op === 'post' ? old !== undefined : old === undefined) {
      throw new EventConflictError(undefined, 'post', op === 'post' ? `"${post}" already exists` : `"${post}" does not exist`);
    }
    const before = mean(state.sum, state.posts.size);
    if (old !== undefined) state.sum -= old;
    if (text === undefined) state.posts.delete(post);
    else {
      const value = postValue(text, state.forbidden);
      state.posts.set(post, value);
      state.sum += value;
    }
    // No posts left: drop the rounding the running sum may have gathered.
    if (state.posts.size === 0) state.sum = 0;
    return mean(state.sum, state.posts.size) - before;
  },

  quality(state) {
    return mean(state.sum, state.posts.size);
  },

  snapshot(state) {
    return { posts: [...state.posts], sum: state.sum };
  },

  restore(options, data) {
    const saved = data as { posts: [string, number][]; sum: number };
    return { forbidden: forbiddenPattern(options.forbiddenWords), posts: new Map(saved.posts), sum: saved.sum };
  },
};
