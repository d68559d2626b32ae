/**
 * Player tokens (docs/service.md#player-tokens): what a studio's game server hands one player so
 * their client may read that player's own view, the outcomes of their reports and appeal their
 * own sanctions, and nothing else. `stp_<claims>.<signature>`: the claims (player, community, end,
 * the id of the key that minted it) as base64url JSON, the signature HMAC-SHA256 of that text
 * under the service's token secret, kept in the store and shared by every process
 * (SecretStore). Checked without a store lookup: the signature in constant time, then the end.
 * A token cannot be revoked: it lives at most `playerTokens.maxSeconds`, and a revoked minting key
 * mints no more.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SecretStore } from '../store/types.js';

/** A token's claims. */
export interface PlayerToken {
  readonly player: string;
  readonly community: string;
  /** When it stops opening anything (epoch ms, wall clock). */
  readonly expiresAt: number;
  /** The key that minted it. */
  readonly key: string;
}

/** The name of the token secret in the store. */
export const TOKEN_SECRET = 'player-tokens';

/** Every player token begins so; API keys begin `stk_`. */
export const TOKEN_PREFIX = 'stp_';

/** The longest token text looked at (a player id and a community name of 128 characters each, escaped, fit well within). */
const MAX_TOKEN_LENGTH = 8192;

const encode = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

/** Signs and checks tokens with one secret. */
export class PlayerTokens {
  private constructor(private readonly secret: Buffer) {}

  /** The signer over the store's token secret, made on first use by whichever process asks first. */
  static async open(store: SecretStore): Promise<PlayerTokens> {
    const hex = await store.secret(TOKEN_SECRET, () => randomBytes(32).toString('hex'));
    return new PlayerTokens(Buffer.from(hex, 'hex'));
  }

  /** Signs with `secret` (tests). */
  static withSecret(secret: Buffer): PlayerTokens {
    return new PlayerTokens(secret);
  }

  private sign(claims: string): Buffer {
    return createHmac('sha256', this.secret).update(claims).digest();
  }

  mint(token: PlayerToken): string {
    const claims = encode(JSON.stringify({ p: token.player, c: token.community, e: token.expiresAt, k: token.key }));
    return `${TOKEN_PREFIX}${claims}.${this.sign(claims).toString('base64url')}`;
  }

  /**
   * The claims of `text` when this service signed it; `expired` when it did but the token's end is
   * not after `now`; undefined for anything else (a forgery, a token of another service, garbage).
   */
  verify(text: string, now: number): PlayerToken | 'expired' | undefined {
    if (!text.startsWith(TOKEN_PREFIX) || text.length > MAX_TOKEN_LENGTH) return undefined;
    const dot = text.lastIndexOf('.');
    if (dot < TOKEN_PREFIX.length) return undefined;
    const claims = text.slice(TOKEN_PREFIX.length, dot);
    const given = Buffer.from(text.slice(dot + 1), 'base64url');
    const expected = this.sign(claims);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const parsed = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { p: string; c: string; e: number; k: string };
    if (parsed.e <= now) return 'expired';
    return { player: parsed.p, community: parsed.c, expiresAt: parsed.e, key: parsed.k };
  }
}
