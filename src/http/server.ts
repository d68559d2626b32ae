/**
 * The HTTP API (fastify): routes, key checks, errors, OpenAPI at /docs. Built over an already
 * opened live engine; ../app/serve.ts wires it to the store and starts it. A cluster gateway
 * builds on the same base (buildHttpBase) with the routes it can serve (../cluster/gateway-api.ts).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { dirname } from 'node:path';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { MAX_ID_LENGTH } from '../events/limits.js';
import { compiledFile } from '../util/compiled-file.js';
import { PlayerTokens } from '../service/player-tokens.js';
import { checkReach } from './access.js';
import { authHook, clientOf } from './auth.js';
import { clientAddress } from './client-address.js';
import type { HttpContext } from './context.js';
import { handleError, HttpProblem } from './errors.js';
import { registerOpenApi } from './openapi.js';
import type { ApiErrorCode } from './schemas/errors.js';
import { TeamFigures } from '../service/team.js';
import { alertRoutes } from './routes/alerts.js';
import { auditRoutes } from './routes/audit.js';
import { bulkRoutes } from './routes/bulk.js';
import { DASHBOARD_HEADERS } from './dashboard-headers.js';
import { eventRoutes } from './routes/events.js';
import { oneAtATime, type OneAtATime } from './one-at-a-time.js';
import { moderationRoutes } from './routes/moderation.js';
import { queueRoutes } from './routes/moderation-queue.js';
import { playerRoutes } from './routes/players.js';
import { playerTokenRoute, playerViewRoutes } from './routes/player-view.js';
import { claimRoutes } from './routes/case-claims.js';
import { rankingRoutes } from './routes/rankings.js';
import { ruleRoutes } from './routes/rules.js';
import { systemRoutes } from './routes/system.js';
import { teamRoutes } from './routes/team.js';
import { registerTeamMetrics } from './team-metrics.js';

/**
 * The built dashboard (`npm run build` puts it in dist/dashboard): beside this file once
 * compiled, or in dist/ when running from the TypeScript sources. Undefined when not built.
 */
function dashboardRoot(): string | undefined {
  const page = compiledFile(new URL('../dashboard/index.html', import.meta.url));
  const file = fileURLToPath(page);
  return existsSync(file) ? dirname(file) : undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Signs and checks player tokens with the store's token secret (../service/player-tokens.ts). */
    playerTokens: PlayerTokens;
  }
}

/** What one client may hold of the server: see the README's Limits table. */
export interface ConnectionLimits {
  readonly requestTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly connectionTimeoutMs: number;
  readonly maxConnections: number;
  readonly maxConnectionsPerAddress: number;
  readonly maxStreams: number;
  readonly maxStreamsPerKey: number;
  readonly rateLimitPerMinute: number;
}

export interface HttpOptions {
  readonly bodyLimitBytes: number;
  readonly publicRead: boolean;
  readonly logger: Logger;
  readonly limits: ConnectionLimits;
}

/** The answer a connection over a cap gets to its first request: 503 naming the limit, and the connection closed. */
interface Refusal {
  readonly message: string;
  readonly limit: number;
}

/**
 * Caps open connections, in all and per client address (./client-address.ts): past
 * `maxConnectionsPerAddress` from one address, or past `maxConnections` in all, a connection's
 * first request is answered 503 naming the limit and the connection is closed. Only connections
 * within their address's cap count towards `maxConnections`, so an address's refused ones take
 * no place of another's. Past twice the per-address cap, a connection from that address is closed
 * at once, unanswered; past twice `maxConnections`, Node refuses new connections outright. So one
 * address holds at most twice its cap of the server, however many it opens.
 */
function capConnections(app: FastifyInstance, limits: Pick<ConnectionLimits, 'maxConnections' | 'maxConnectionsPerAddress'>): void {
  const { maxConnections: max, maxConnectionsPerAddress: perAddress } = limits;
  let open = 0;
  const held = new Map<string, number>();
  const over = new WeakMap<object, Refusal>();
  const byAddress: Refusal = { message: `this address holds its limit of ${perAddress} open connections (maxConnectionsPerAddress); close one, or retry later`, limit: perAddress };
  const inAll: Refusal = { message: `the service holds its limit of ${max} open connections (maxConnections); retry later`, limit: max };
  app.server.maxConnections = 2 * max;
  app.server.on('connection', (socket: Socket) => {
    const address = clientAddress(socket.remoteAddress);
    const fromAddress = (held.get(address) ?? 0) + 1;
    if (fromAddress > 2 * perAddress) {
      socket.destroy();
      return;
    }
    held.set(address, fromAddress);
    // A connection over its address's cap is answered 503 and closed, and takes no place of another address's.
    const counted = fromAddress <= perAddress;
    if (!counted) over.set(socket, byAddress);
    else if (open + 1 > max) over.set(socket, inAll);
    if (counted) open++;
    socket.once('close', () => {
      if (counted) open--;
      const left = held.get(address)! - 1;
      if (left === 0) held.delete(address);
      else held.set(address, left);
    });
  });
  app.addHook('onRequest', async (request, reply) => {
    const refusal = over.get(request.raw.socket);
    if (refusal === undefined) return;
    await reply.code(503).header('connection', 'close').header('retry-after', '1').send({ error: 'TOO_MANY_CONNECTIONS', ...refusal });
    return reply;
  });
}

/**
 * Answers what Node refuses before a request reaches fastify, in the API's error format, and
 * closes the connection: a request too slow to arrive (408), headers over Node's 16 KiB (431),
 * anything that is not HTTP (400).
 */
function clientErrorHandler(limits: ConnectionLimits) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, body]: [number, { error: ApiErrorCode; message: string }] =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, { error: 'REQUEST_TIMEOUT', message: `the request did not arrive in time: its headers must arrive within headersTimeoutMs (${limits.headersTimeoutMs} ms), all of it within requestTimeoutMs (${limits.requestTimeoutMs} ms)` }]
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, { error: 'HEADERS_TOO_LARGE', message: `the request headers are over ${maxHeaderSize} bytes` }]
          : [400, { error: 'REQUEST_MALFORMED', message: 'the request is not valid HTTP/1.1' }];
    const text = JSON.stringify(body);
    if (socket.writable) socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
    socket.destroy();
  };
}

export async function buildHttpServer(context: HttpContext, options: HttpOptions): Promise<FastifyInstance> {
  const app = await buildHttpBase(context.store, options);
  await registerDashboard(app);
  const moderationWrites = oneAtATime();
  eventRoutes(app, context, moderationWrites);
  apiRoutes(app, context, options, moderationWrites);
  return app;
}

/**
 * The dashboard's files are public; the data it shows comes from the API, with a key. Each of
 * its answers carries ./dashboard-headers.ts (no framing, only the service's own files).
 */
export async function registerDashboard(app: FastifyInstance): Promise<void> {
  const dashboard = dashboardRoot();
  const setHeaders = (reply: { setHeader(name: string, value: string): unknown }) => {
    for (const [name, value] of Object.entries(DASHBOARD_HEADERS)) reply.setHeader(name, value);
  };
  if (dashboard !== undefined) await app.register(fastifyStatic, { root: dashboard, prefix: '/', index: 'index.html', wildcard: false, setHeaders });
  else app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.headers(DASHBOARD_HEADERS).type('text/plain').send('The dashboard is not built: run npm run build.\n'));
}

/**
 * Every route of the API over a live engine but ingest (POST /v1/events): what a worker's
 * partition answers a gateway's forwarded requests with (../cluster/partition-services.ts).
 *
 * `moderationWrites` runs the moderation actions one at a time, together with the ingest batches
 * that open appeals when the caller shares it with its events route.
 */
export function apiRoutes(app: FastifyInstance, context: HttpContext, options: Pick<HttpOptions, 'bodyLimitBytes' | 'limits'>, moderationWrites: OneAtATime = oneAtATime()): void {
  const queue = queueRoutes(app, context);
  const team = new TeamFigures(context.live, context.moderation, queue);
  playerRoutes(app, context, {
    forget: (community) => {
      queue.forget(community);
      team.forget(community);
    },
  });
  playerViewRoutes(app, context);
  playerTokenRoute(app, context.access.playerTokens);
  rankingRoutes(app, context);
  alertRoutes(app, context, options.limits);
  const actions = moderationRoutes(app, context, moderationWrites);
  bulkRoutes(app, context, moderationWrites);
  teamRoutes(app, context, team);
  registerTeamMetrics(context.metrics.registry, team);
  claimRoutes(app, context.store, context.access.claims);
  auditRoutes(app, context);
  ruleRoutes(app, context, actions);
  systemRoutes(app, context, { bodyLimitBytes: options.bodyLimitBytes, rateLimitPerMinute: options.limits.rateLimitPerMinute });
}

/**
 * The server every API shares, with no route of its own yet: connection limits and timeouts, the
 * one error format, key checks against `store`, the rate limit and the OpenAPI document.
 */
export async function buildHttpBase(store: HttpContext['store'], options: HttpOptions): Promise<FastifyInstance> {
  const { limits } = options;
  const app: FastifyInstance = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    bodyLimit: options.bodyLimitBytes,
    // Every id an event may hold, percent-encoded (at most 9 characters per UTF-16 unit: 3 UTF-8
    // bytes as %XX), fits in a path parameter, so every accepted player can be read and erased.
    routerOptions: { maxParamLength: 9 * MAX_ID_LENGTH },
    // JSON.parse makes a "__proto__" key a plain own property (no prototype changes); event
    // validation then refuses it with its index and field, as on the NDJSON path; the
    // moderation bodies' schemas refuse any key they do not name.
    onProtoPoisoning: 'ignore',
    onConstructorPoisoning: 'ignore',
    forceCloseConnections: true,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: limits.connectionTimeoutMs,
    // Node checks the header and request timeouts every connectionsCheckingInterval (30 s by default).
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 2))) },
    clientErrorHandler: clientErrorHandler(limits),
    ajv: { customOptions: { coerceTypes: true, removeAdditional: false, useDefaults: true } },
  });
  capConnections(app, limits);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(async (request, reply) => reply.code(404).send({ error: 'NOT_FOUND', message: `no route ${request.method} ${request.url.split('?')[0]}` }));
  const playerTokens = await PlayerTokens.open(store);
  app.decorate('playerTokens', playerTokens);
  app.addHook('onRequest', authHook(store, options.publicRead, playerTokens));
  app.addHook('preHandler', checkReach);
  if (limits.rateLimitPerMinute > 0) {
    const max = limits.rateLimitPerMinute;
    // Counted after the key check (onRequest), per verified key: a client cannot spend another
    // key's allowance by naming it. Reads without a key count per client address.
    await app.register(rateLimit, {
      hook: 'preHandler',
      max,
      timeWindow: 60_000,
      keyGenerator: clientOf,
      allowList: (request) => request.routeOptions.config.scope === undefined, // health, docs, dashboard files
      errorResponseBuilder: (request, context) => {
        return new HttpProblem(429, 'TOO_MANY_REQUESTS', `${clientOf(request)} made its limit of ${max} requests this minute (rateLimitPerMinute); retry in ${context.after}`, max);
      },
    });
  }

  await registerOpenApi(app, options.publicRead);
  return app;
}
