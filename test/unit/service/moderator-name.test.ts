/** issue 17: who a key acts as in moderator events, and what the moderate scope allows. */
import { describe, expect, it } from 'vitest';
import { allows, moderatorName } from '../../../src/service/keys.js';

describe('issue 17: moderatorName and the moderate scope', () => {
  it('is the label, trimmed; the key id when the label is empty; at most 128 UTF-16 units, never half a surrogate pair', () => {
    expect(moderatorName({ id: 'abc123def456', label: '  Mia  ' })).toBe('Mia');
    expect(moderatorName({ id: 'abc123def456', label: '   ' })).toBe('abc123def456');
    const long = `${'x'.repeat(127)}😀tail`;
    expect(moderatorName({ id: 'k', label: long })).toBe('x'.repeat(127));
    expect(moderatorName({ id: 'k', label: 'y'.repeat(200) })).toHaveLength(128);
  });

  it('moderate allows moderate and read, not ingest or admin; admin allows everything', () => {
    const moderator = { scopes: ['moderate'] as const };
    expect([allows({ scopes: [...moderator.scopes] }, 'moderate'), allows({ scopes: ['moderate'] }, 'read'), allows({ scopes: ['moderate'] }, 'ingest'), allows({ scopes: ['moderate'] }, 'admin')]).toEqual([true, true, false, false]);
    expect(allows({ scopes: ['read'] }, 'moderate')).toBe(false);
    expect(allows({ scopes: ['admin'] }, 'moderate')).toBe(true);
  });
});

describe('issue 28: no key acts as a moderation rule', () => {
  it('a label starting with "rule:" acts under the key id, so a person never passes for a rule', () => {
    expect(moderatorName({ id: 'abc123def456', label: 'rule:quitter' })).toBe('abc123def456');
    expect(moderatorName({ id: 'abc123def456', label: '  rule:x' })).toBe('abc123def456');
    expect(moderatorName({ id: 'abc123def456', label: 'rules lawyer' })).toBe('rules lawyer');
  });
});
