/** issue 28: what each scope allows, player tokens, the communities a key may be restricted to, and the configuration of four-eyes rules, claims and tokens. */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { resolveConfig } from '../../../src/service/config.js';
import { allows, communitiesProblem, SCOPES } from '../../../src/service/keys.js';
import { PlayerTokens } from '../../../src/service/player-tokens.js';
import type { Scope } from '../../../src/store/types.js';

describe('issue 28: scopes', () => {
  it('allows, per scope held, exactly these scopes', () => {
    const table = Object.fromEntries(SCOPES.map((held) => [held, SCOPES.filter((scope) => allows({ scopes: [held] }, scope))]));
    expect(table).toEqual({
      ingest: ['ingest'],
      read: ['read'],
      moderate: ['read', 'moderate', 'player-view'],
      senior: ['read', 'moderate', 'senior', 'player-view'],
      'player-view': ['player-view'],
      admin: ['ingest', 'read', 'moderate', 'senior', 'player-view', 'admin'],
    } satisfies Record<Scope, Scope[]>);
    expect(allows({ scopes: ['ingest', 'player-view'] }, 'read')).toBe(false);
    expect(allows({ scopes: ['ingest', 'moderate'] }, 'ingest')).toBe(true);
  });
});

describe('issue 28: the communities a key is restricted to', () => {
  it('takes a list of names, and refuses none, a blank one, one too long or a NUL, naming why', () => {
    expect(communitiesProblem(['eu', 'na, west'])).toBeUndefined();
    expect(communitiesProblem([])).toMatch(/name at least one community/);
    expect(communitiesProblem(['eu', ' '])).toMatch(/blank/);
    expect(communitiesProblem(['x'.repeat(129)])).toMatch(/longer than 128 characters, the longest community name/);
    expect(communitiesProblem(['a\u0000b'])).toMatch(/NUL/);
    expect(communitiesProblem(Array.from({ length: 1001 }, (_, i) => `c${i}`))).toMatch(/at most 1000/);
  });
});

describe('issue 28: player tokens', () => {
  const tokens = PlayerTokens.withSecret(Buffer.alloc(32, 1));
  const claims = { player: 'kim ünïcode "quoted"', community: 'eu', expiresAt: 2_000_000, key: 'abc123def456' };

  it('gives back the claims of a token it signed, until its end', () => {
    const token = tokens.mint(claims);
    expect(token).toMatch(/^stp_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(tokens.verify(token, 1_999_999)).toEqual(claims);
    expect(tokens.verify(token, 2_000_000)).toBe('expired');
  });

  it('refuses a token another secret signed, a changed claim or signature, and garbage', () => {
    const token = tokens.mint(claims);
    const [head, signature] = token.split('.') as [string, string];
    const other = PlayerTokens.withSecret(Buffer.alloc(32, 2)).mint(claims);
    const changed = `stp_${Buffer.from(JSON.stringify({ p: 'lou', c: 'eu', e: 2_000_000, k: 'abc123def456' })).toString('base64url')}.${signature}`;
    for (const bad of [other, changed, `${head}.${signature.slice(0, -2)}`, `${head}x.${signature}`, 'stp_', 'stp_.', 'stp_x', `stk_${token.slice(4)}`, `${token}${'a'.repeat(9000)}`]) {
      expect(tokens.verify(bad, 0), bad.slice(0, 60)).toBeUndefined();
    }
  });
});

describe('issue 28: the configuration of four-eyes rules, claims and player tokens', () => {
  const resolve = (values: Record<string, unknown>) => resolveConfig([{ source: 'test', values }]);

  it('defaults to no four-eyes rule, 15-minute claims (at most 2 hours), 15-minute tokens (at most an hour); sections merge key by key', () => {
    const config = resolve({});
    expect([config.fourEyes, config.claims, config.playerTokens]).toEqual([{ appeals: false, ruleDismissals: false }, { minutes: 15, maxMinutes: 120 }, { seconds: 900, maxSeconds: 3600 }]);
    expect(resolve({ fourEyes: { appeals: true } }).fourEyes).toEqual({ appeals: true, ruleDismissals: false });
  });

  it('refuses a default above its bound, and an unknown key, naming the path', () => {
    expect(() => resolve({ claims: { minutes: 200 } })).toThrow(ConfigError);
    expect(() => resolve({ claims: { minutes: 200 } })).toThrow(/claims\.minutes.*must be at most claims\.maxMinutes \(120\)/);
    expect(() => resolve({ playerTokens: { seconds: 7200 } })).toThrow(/playerTokens\.seconds.*must be at most playerTokens\.maxSeconds \(3600\)/);
    expect(() => resolve({ fourEyes: { appeal: true } })).toThrow(/fourEyes\.appeal.*is not a configuration key/);
  });
});
