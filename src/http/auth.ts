/**
 * Who may call what: every route declares the scope it needs (`config.scope`); a request
 * carries its key as `Authorization: Bearer <key>` (or `x-api-key`). No key or an unknown or
 * revoked one → 401; a key without the scope → 403. Verified keys are kept in memory; a
 * revocation takes effect at once all the same, in every process (../service/key-cache.ts).
 * A player token (../service/player-tokens.ts) stands in for a key on the `player-view` routes
 * only; its player and community are held to the request by ./access.ts, as a key's communities are.
 * Reads are open with `publicRead`; writes never are. Keys are taken from those headers only,
 * never from the query string; they never reach the logs (the logger redacts both headers, and
 * ./log-redaction.ts key-shaped text in URLs).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KeyStore, Scope, StoredKey } from '../store/types.js';
import { clientAddress } from './client-address.js';
import { KeyCache } from '../service/key-cache.js';
import { allows } from '../service/keys.js';
import { TOKEN_PREFIX, type PlayerToken, type PlayerTokens } from '../service/player-tokens.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope the route needs; none for health checks and docs. */
    scope?: Scope;
    /** Any valid key will do (GET /v1/me; an invalid one is refused), or none with publicRead. */
    anyKey?: boolean;
  }
}

const verified = new WeakMap<FastifyRequest, StoredKey>();
const tokens = new WeakMap<FastifyRequest, PlayerToken>();

/** The player token this request was authorized with; undefined when it came with a key, or nothing. */
export function playerTokenOf(request: FastifyRequest): PlayerToken | undefined {
  return tokens.get(request);
}

/** The id of the key this request was authorized with; undefined for a route or read that needed none. */
export function keyIdOf(request: FastifyRequest): string | undefined {
  return verified.get(request)?.id;
}

/** The key this request was authorized with; undefined for a route or read that needed none. */
export function verifiedKey(request: FastifyRequest): StoredKey | undefined {
  return verified.get(request);
}

/**
 * Who a per-client limit counts this request against: its verified key, or else its address as
 * the connection caps count it (an IPv6 address by its /64: ./client-address.ts).
 */
export function clientOf(request: FastifyRequest): string {
  const token = tokens.get(request);
  if (token !== undefined) return `player ${JSON.stringify(token.player)} of community ${JSON.stringify(token.community)} (a token of key ${token.key})`;
  const keyId = keyIdOf(request);
  return keyId === undefined ? `address ${clientAddress(request.socket.remoteAddress)}` : `key ${keyId}`;
}

function keyOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header === 'string') {
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    return match?.[1];
  }
  const apiKey = request.headers['x-api-key'];
  return typeof apiKey === 'string' ? apiKey : undefined;
}

export function authHook(store: KeyStore, publicRead: boolean, playerTokens: PlayerTokens) {
  const keys = new KeyCache(store);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const { scope, anyKey = false } = request.routeOptions.config;
    const text = keyOf(request);
    if (anyKey && text === undefined && publicRead) return;
    if (!anyKey && (scope === undefined || (scope === 'read' && publicRead))) return;
    if (text === undefined) {
      await reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'UNAUTHORIZED', message: anyKey ? 'this route needs a key' : `this route needs a key with scope "${scope}"` });
      return reply;
    }
    if (text.startsWith(TOKEN_PREFIX)) {
      const token = playerTokens.verify(text, Date.now());
      if (token === undefined || token === 'expired') {
        const why = token === 'expired' ? 'the player token has expired: ask the game for a new one' : 'the player token is not one this service signed';
        await reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'UNAUTHORIZED', message: why });
        return reply;
      }
      if (anyKey || scope !== 'player-view') {
        await reply.code(403).send({ error: 'FORBIDDEN', message: `a player token opens only the player's own view, reports and appeals (scope "player-view"); this route needs ${anyKey ? 'a key' : `scope "${scope}"`}` });
        return reply;
      }
      tokens.set(request, token);
      return;
    }
    const key = await keys.verify(text);
    if (key === undefined) {
      await reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'UNAUTHORIZED', message: 'the key is unknown or revoked' });
      return reply;
    }
    if (!anyKey && !allows(key, scope!)) {
      await reply.code(403).send({ error: 'FORBIDDEN', message: `key ${key.id} lacks scope "${scope}" (it has ${key.scopes.join(', ')})` });
      return reply;
    }
    verified.set(request, key);
    request.log.debug({ keyId: key.id }, 'authorized'); // `key` is a redacted path
  };
}
