/**
 * What the access log may keep of a request URL. Keys are only ever taken from headers, but a
 * client may still put one in a query string: query parameters named like a key (`key`,
 * `api_key`, `token`, …) and any key-shaped text (`stk_<id>_<secret>`) lose their value; the
 * key id, which is public, stays. Player ids in `/v1/players/:id…` paths and `player=` parameters
 * (and a `params=` value that names trust observers, whole) are replaced by a keyed hash (HMAC-SHA256 under a secret made at each start, 12 bytes shown),
 * so the log can tell requests for one player apart from another's within a run but cannot
 * name the player, and an erased player's id does not stay in the log.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { pino, type Logger } from 'pino';
import type { ServiceConfig } from '../service/config.js';

const KEY_NAMES = /^(key|api[-_]?key|x-api-key|apikey|token|access[-_]?token|auth|authorization|bearer|secret)$/i;
const KEY_TEXT = /(stk_[A-Za-z0-9]{12}_)[A-Za-z0-9_%-]+/g;
const PLAYER_PATH = /^(\/v1\/players\/)([^/?#]*)/;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A function from a request URL to the URL the log keeps; `secret` keys the player-id hash. */
export function urlRedactor(secret: Buffer = randomBytes(32)): (url: string) => string {
  const hash = (id: string) => `~${createHmac('sha256', secret).update(id).digest('base64url').slice(0, 16)}`;
  return (url) => {
    const mark = url.indexOf('?');
    let path = mark < 0 ? url : url.slice(0, mark);
    path = path.replace(PLAYER_PATH, (_all, prefix: string, id: string) => (id === '' ? prefix : `${prefix}${hash(decoded(id))}`));
    let out = path;
    if (mark >= 0) {
      const query = url
        .slice(mark + 1)
        .split('&')
        .map((pair) => {
          const eq = pair.indexOf('=');
          if (eq < 0) return pair;
          const name = decoded(pair.slice(0, eq));
          if (KEY_NAMES.test(name)) return `${pair.slice(0, eq)}=[redacted]`;
          if (name === 'player') return `${pair.slice(0, eq)}=${hash(decoded(pair.slice(eq + 1)))}`;
          // A trust view's observers are player ids too (params=observers=a,b): the value is hashed whole.
          if (name === 'params' && decoded(pair.slice(eq + 1)).includes('observers')) return `${pair.slice(0, eq)}=${hash(decoded(pair.slice(eq + 1)))}`;
          return pair;
        });
      out = `${path}?${query.join('&')}`;
    }
    return out.replace(KEY_TEXT, '$1[redacted]');
  };
}

/** A request as the access log keeps it: the URL without key-shaped text or player ids (./../http/log-redaction.ts). */
interface LoggedRequest {
  readonly method: string;
  readonly url: string;
  readonly host?: string;
  readonly ip?: string;
  readonly socket?: { readonly remotePort?: number };
}

export function serviceLogger(level: ServiceConfig['logLevel'], destination?: NodeJS.WritableStream): Logger {
  const redactUrl = urlRedactor();
  const options = {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'key', 'secret'], censor: '[redacted]' },
    serializers: {
      req: (req: LoggedRequest) =>
        typeof req.url === 'string' ? { method: req.method, url: redactUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort } : req,
    },
  };
  return destination === undefined ? pino(options) : pino(options, destination as unknown as pino.DestinationStream);
}
