/**
 * One community per request. A read names its community in the query string, a moderation action
 * in its body (both default to "default"). An action's query string may name it too, but only the
 * same one: a request that names two communities is refused (400 REQUEST_INVALID, naming both
 * fields) before anything is checked or recorded, so the community a cluster gateway routes a
 * request by (requestCommunity) is the one its route records in, on `standing serve` and on a
 * gateway alike (the route code is shared).
 */
import type { FastifyRequest } from 'fastify';
import { DEFAULT_COMMUNITY } from '../events/types.js';
import { HttpProblem } from './errors.js';

const fieldOf = (value: unknown): unknown => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>).community : undefined);

/** The community a request is about: its query's `community`, else its body's, else "default". */
export function requestCommunity(request: FastifyRequest): string {
  const query = fieldOf(request.query);
  if (typeof query === 'string') return query;
  const body = fieldOf(request.body);
  return typeof body === 'string' ? body : DEFAULT_COMMUNITY;
}

/**
 * A preValidation hook of the routes whose body names the community: refuses a query string
 * naming another community than the body (or than "default", when the body names none). A body
 * `community` that is not text is left to the body's schema.
 */
export async function refuseSecondCommunity(request: FastifyRequest): Promise<void> {
  const query = fieldOf(request.query);
  if (query === undefined) return;
  const body = fieldOf(request.body);
  if (body !== undefined && typeof body !== 'string') return;
  const named = body === undefined ? `names none, so the action's community is "${DEFAULT_COMMUNITY}"` : `names ${JSON.stringify(body)}`;
  if (typeof query !== 'string') throw new HttpProblem(400, 'REQUEST_INVALID', `querystring/community is given more than once; a moderation action's community is body/community, which ${named}`);
  if (query !== (body ?? DEFAULT_COMMUNITY)) {
    throw new HttpProblem(400, 'REQUEST_INVALID', `querystring/community names ${JSON.stringify(query)} and body/community ${named}: a moderation action is recorded in its body's community, and a query naming another is refused`);
  }
}
