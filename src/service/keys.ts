/**
 * API keys: `stk_<id>_<secret>`, the id public (it names the key in lists and logs), the secret
 * 32 random bytes shown once. The store keeps only SHA-256 of the secret: the secret is random
 * and long, so a fast hash is enough (a password KDF guards guessable secrets). Checking compares
 * the hashes in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { KeyLabelError } from '../errors.js';
import { idCharacterProblem, shownText } from '../events/id-characters.js';
import { MAX_ID_LENGTH, unstorableText } from '../events/limits.js';
import type { KeyStore, Scope, StoredKey } from '../store/types.js';

export const SCOPES: readonly Scope[] = ['ingest', 'read', 'moderate', 'senior', 'player-view', 'admin'];

/** The most communities a key may be restricted to. */
export const MAX_KEY_COMMUNITIES = 1000;

/** The prefix of the moderator name rules act under (`rule:<name>`): no key's label may take it. */
export const RULE_MODERATOR_PREFIX = 'rule:';

/** What a key may do besides what it is created with (docs/service.md#scopes). */
export interface KeyOptions {
  /** The only communities the key may read or act in (default: every community). */
  readonly communities?: readonly string[];
}

/** The labels of the keys `standing serve --demo` makes (and revokes at its next start); reserved. */
export const DEMO_KEY_LABELS = { read: 'demo read key', ingest: 'demo ingest key', moderate: 'demo moderator key' } as const;

export const KEY_PATTERN = /^stk_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** The longest label a new key may have, in UTF-16 code units: a moderator name is an id (its limit). */
export const MAX_LABEL_LENGTH = 128;

/** Why `label` cannot be a new key's label (too long, or a character ids refuse), or undefined when it can. */
export function labelProblem(label: string): string | undefined {
  if (label.length > MAX_LABEL_LENGTH) return `is ${label.length} characters (UTF-16 code units) long: a label holds at most ${MAX_LABEL_LENGTH} (it names the moderator in moderator events)`;
  return unstorableText(label) ?? idCharacterProblem(label);
}

/**
 * Creates and stores a key; returns the full key text, which exists nowhere else afterwards.
 * Throws KeyLabelError, making no key, for a label labelProblem refuses or a live key has
 * (the store checks that, in the transaction that stores the key).
 */
export async function createKey(store: KeyStore, scopes: readonly Scope[], label = '', options: KeyOptions = {}): Promise<{ key: string; stored: StoredKey }> {
  const problem = labelProblem(label);
  if (problem !== undefined) throw new KeyLabelError(shownText(label), problem);
  const reach = options.communities === undefined ? undefined : communitiesProblem(options.communities);
  if (reach !== undefined) throw new RangeError(`communities: ${reach}`);
  const id = randomBytes(9).toString('base64url').replace(/[-_]/g, 'x').slice(0, 12);
  const secret = randomBytes(32).toString('base64url');
  const restricted = options.communities === undefined ? {} : { communities: [...new Set(options.communities)].sort() };
  const stored: StoredKey = { id, hash: hashSecret(secret).toString('hex'), scopes: [...new Set(scopes)], label, createdAt: new Date().toISOString(), ...restricted };
  await store.saveKey(stored);
  return { key: `stk_${id}_${secret}`, stored };
}

/** The stored key `text` names when its secret matches and it is not revoked; otherwise undefined. */
export async function verifyKey(store: KeyStore, text: string): Promise<StoredKey | undefined> {
  const match = KEY_PATTERN.exec(text);
  if (match === null) return undefined;
  const stored = await store.findKey(match[1]!);
  if (stored === undefined || stored.revokedAt !== undefined) return undefined;
  const expected = Buffer.from(stored.hash, 'hex');
  const given = hashSecret(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? stored : undefined;
}

/** What each scope allows besides itself: a senior moderator what a moderator may, a moderator what a reader may and a player's view. */
const IMPLIED: Readonly<Record<Scope, readonly Scope[]>> = {
  ingest: [],
  read: [],
  moderate: ['read', 'player-view'],
  senior: ['moderate', 'read', 'player-view'],
  'player-view': [],
  admin: SCOPES,
};

/** Whether `key` allows `scope` (admin allows everything; senior allows moderate; moderate allows read and player-view). */
export function allows(key: Pick<StoredKey, 'scopes'>, scope: Scope): boolean {
  return key.scopes.some((held) => held === scope || IMPLIED[held]?.includes(scope) === true);
}

/** Why `communities` cannot restrict a key (none, blank, too long, too many, a NUL); undefined when they can. */
export function communitiesProblem(communities: readonly string[]): string | undefined {
  if (communities.length === 0) return 'name at least one community (a key without a list may reach every community)';
  if (communities.length > MAX_KEY_COMMUNITIES) return `${communities.length} communities; a key is restricted to at most ${MAX_KEY_COMMUNITIES}`;
  for (const community of communities) {
    if (community.trim() === '') return 'a community name is blank';
    if (community.length > MAX_ID_LENGTH) return `"${community.slice(0, 40)}…" is longer than ${MAX_ID_LENGTH} characters, the longest community name`;
    if (community.includes('\u0000')) return `"${community}" holds a NUL character`;
    const character = idCharacterProblem(community);
    if (character !== undefined) return `${shownText(community)} ${character}`;
  }
  return undefined;
}

/**
 * Who a key acts as in moderator events: its label, or its id when the label is empty or holds a
 * character ids refuse (a key made before labels were checked), or would pass for a moderation
 * rule's (`rule:…`, which `standing keys create` refuses). A longer label than an id may be
 * (a key made before that was checked) is cut to MAX_LABEL_LENGTH.
 */
export function moderatorName(key: Pick<StoredKey, 'id' | 'label'>): string {
  const label = key.label.trim();
  if (label === '' || label.startsWith(RULE_MODERATOR_PREFIX) || unstorableText(label) !== undefined || idCharacterProblem(label) !== undefined) return key.id;
  // Cut on a code point boundary: a lone surrogate could not be stored.
  let name = '';
  for (const c of label) {
    if (name.length + c.length > MAX_LABEL_LENGTH) break;
    name += c;
  }
  return name;
}
