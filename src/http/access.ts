/**
 * Tenants (docs/service.md#communities-a-key-may-reach): a key restricted to a list of
 * communities, and a player token (bound to one community and one player), reach only those. Every
 * route declares how far a request reaches (`config.reach`), and a hook run once the request is
 * checked (preHandler: its query and body are read) refuses, with 403 FORBIDDEN naming the
 * community, whatever goes beyond, on `standing serve`, on a cluster gateway and again on the
 * worker a gateway forwards to (the route options are shared):
 *
 * - `community` (the default): the request's one community (../request-community.ts: the query's,
 *   else the body's, else "default").
 * - `events`: the community of each event of an ingest batch, the first outside named by index.
 * - `named`: the query's `community` when given; without one the route spans every community, so
 *   a restricted key must name one.
 * - `filtered`: the query's `community` when given; without one the handler answers with the
 *   communities the request may reach only (`mayReach`), or with what holds no community's data
 *   (GET /v1/scorers without a community: the configuration's instances).
 * - `every`: the route reaches every community (an erasure, the metrics): refused outright.
 * - `none`: the route holds no community's data (the limits, /v1/me).
 *
 * A player token is held to its player as well: the route's `:id` must be the token's player.
 */
import type { FastifyRequest } from 'fastify';
import { playerTokenOf, verifiedKey } from './auth.js';
import { HttpProblem } from './errors.js';
import { requestCommunity } from './request-community.js';

export type Reach = 'community' | 'events' | 'named' | 'filtered' | 'every' | 'none';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How far a request reaches into the communities (./access.ts); default `community`. */
    reach?: Reach;
  }
}

/** Whom a request's reach is limited for, and to which communities; undefined: every community. */
interface Limited {
  readonly who: string;
  readonly communities: readonly string[];
  /** A player token's player. */
  readonly player?: string;
}

function limitOf(request: FastifyRequest): Limited | undefined {
  const token = playerTokenOf(request);
  if (token !== undefined) return { who: `the player token of "${token.player}"`, communities: [token.community], player: token.player };
  const key = verifiedKey(request);
  return key?.communities === undefined ? undefined : { who: `key ${key.id}`, communities: key.communities };
}

/** Whether the request's key or token may reach `community` (any community for an unrestricted key, or none at all). */
export function mayReach(request: FastifyRequest, community: string): boolean {
  const limited = limitOf(request);
  return limited === undefined || limited.communities.includes(community);
}

const listed = (communities: readonly string[]): string => communities.map((c) => JSON.stringify(c)).join(', ');

function refuse(limited: Limited, what: string): never {
  const only = limited.player === undefined ? `may reach only communit${limited.communities.length === 1 ? 'y' : 'ies'} ${listed(limited.communities)}` : `opens only community ${listed(limited.communities)}`;
  throw new HttpProblem(403, 'FORBIDDEN', `${limited.who} ${only}; ${what}`);
}

/** The community named by the query string, when it names one. */
function queried(request: FastifyRequest): string | undefined {
  const community = (request.query as { community?: unknown } | undefined)?.community;
  return typeof community === 'string' ? community : undefined;
}

/** The preHandler every API registers (../server.ts): refuses what reaches beyond the request's communities. */
export async function checkReach(request: FastifyRequest): Promise<void> {
  const limited = limitOf(request);
  if (limited === undefined) return;
  if (limited.player !== undefined) {
    const player = (request.params as { id?: unknown } | undefined)?.id;
    if (typeof player !== 'string') refuse(limited, `${request.method} ${request.routeOptions.url ?? request.url} is about no one player (a player token cannot mint another)`);
    if (player !== limited.player) refuse(limited, `this request is about player ${JSON.stringify(player)}, not ${JSON.stringify(limited.player)}`);
  }
  const reach = request.routeOptions.config.reach ?? 'community';
  const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
  switch (reach) {
    case 'none':
      return;
    case 'every':
      refuse(limited, `${route} reaches every community`);
      break;
    case 'events': {
      const events = Array.isArray(request.body) ? (request.body as unknown[]) : [];
      events.forEach((event, index) => {
        const community = typeof event === 'object' && event !== null ? (event as { community?: unknown }).community : undefined;
        const named = community === undefined ? 'default' : community;
        // A community that is not text is refused by the events' own validation, naming it.
        if (typeof named === 'string' && !limited.communities.includes(named)) refuse(limited, `events[${index}] is of community ${JSON.stringify(named)}`);
      });
      return;
    }
    case 'named':
    case 'filtered': {
      const community = queried(request);
      if (community === undefined) {
        if (reach === 'named') refuse(limited, `${route} without ?community= spans every community: name one`);
        return;
      }
      if (!limited.communities.includes(community)) refuse(limited, `this request is about community ${JSON.stringify(community)}`);
      return;
    }
    case 'community': {
      const community = requestCommunity(request);
      if (!limited.communities.includes(community)) refuse(limited, `this request is about community ${JSON.stringify(community)}`);
      return;
    }
  }
}
