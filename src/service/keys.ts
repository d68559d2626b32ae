/**
 * API keys: `stk_<id>_<secret>`, the id public (it names the key in lists and logs), the secret
 * 32 random bytes shown once. The store keeps only SHA-256 of the secret: the secret is random
 * and long, so a fast hash is enough (a password KDF guards guessable secrets). Checking compares
 * the hashes in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeyStore, Scope, StoredKey } from '../store/types.js';

export const SCOPES: readonly Scope[] = ['ingest', 'read', 'moderate', 'admin'];

/** The labels of the keys `standing serve --demo` makes (and revokes at its next start); reserved. */
export const DEMO_KEY_LABELS = { read: 'demo read key', ingest: 'demo ingest key', moderate: 'demo moderator key' } as const;

export const KEY_PATTERN = /^stk_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** Creates and stores a key; returns the full key text, which exists nowhere else afterwards. */
export async function createKey(store: KeyStore, scopes: readonly Scope[], label = ''): Promise<{ key: string; stored: StoredKey }> {
  const id = randomBytes(9).toString('base64url').replace(/[-_]/g, 'x').slice(0, 12);
  const secret = randomBytes(32).toString('base64url');
  const stored: StoredKey = { id, hash: hashSecret(secret).toString('hex'), scopes: [...new Set(scopes)], label, createdAt: new Date().toISOString() };
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

/** Whether `key` allows `scope` (admin allows everything; moderate allows read too). */
export function allows(key: Pick<StoredKey, 'scopes'>, scope: Scope): boolean {
  return key.scopes.includes(scope) || key.scopes.includes('admin') || (scope === 'read' && key.scopes.includes('moderate'));
}

/** The longest moderator name a moderator event carries (an id's limit); a longer label is cut. */
const MAX_MODERATOR_NAME = 128;

/** The prefix of the moderator name of a rule's events (`rule:<name>`): no key acts under it. */
export const RULE_LABEL_PREFIX = 'rule:';

/**
 * Who a key acts as in moderator events: its label, or its id when the label is empty or would
 * pass for a moderation rule's (`rule:…`, which `standing keys create` refuses).
 */
export function moderatorName(key: Pick<StoredKey, 'id' | 'label'>): string {
  const label = key.label.trim();
  if (label === '' || label.startsWith(RULE_LABEL_PREFIX)) return key.id;
  // Cut on a code point boundary: a lone surrogate could not be stored.
  let name = '';
  for (const c of label) {
    if (name.length + c.length > MAX_MODERATOR_NAME) break;
    name += c;
  }
  return name;
}
