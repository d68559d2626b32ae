/**
 * The HTTP API (fastify): routes, key checks, errors, OpenAPI at /docs. Built over an already
 * opened live engine; ./../service/service.ts wires it to the store and starts it.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname } from 'node:path';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { MAX_ID_LENGTH } from '../events/limits.js';
import { compiledFile } from '../util/compiled-file.js';
import { authHook } from './auth.js';
import type { HttpContext } from './context.js';
import { handleError } from './errors.js';
import { alertRoutes } from './routes/alerts.js';
import { eventRoutes } from './routes/events.js';
import { playerRoutes } from './routes/players.js';
import { rankingRoutes } from './routes/rankings.js';
import { systemRoutes } from './routes/system.js';

/**
 * The built dashboard (`npm run build` puts it in dist/dashboard): beside this file once
 * compiled, or in dist/ when running from the TypeScript sources. Undefined when not built.
 */
function dashboardRoot(): string | undefined {
  const page = compiledFile(new URL('../dashboard/index.html', import.meta.url));
  const file = fileURLToPath(page);
  return existsSync(file) ? dirname(file) : undefined;
}

export interface HttpOptions {
  readonly bodyLimitBytes: number;
  readonly publicRead: boolean;
  readonly logger: Logger;
}

export async function buildHttpServer(context: HttpContext, options: HttpOptions): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    bodyLimit: options.bodyLimitBytes,
    // Every id an event may hold, percent-encoded (at most 9 characters per UTF-16 unit: 3 UTF-8
    // bytes as %XX), fits in a path parameter, so every accepted player can be read and erased.
    routerOptions: { maxParamLength: 9 * MAX_ID_LENGTH },
    // JSON.parse makes a "__proto__" key a plain own property (no prototype changes); event
    // validation then refuses it with its index and field, as on the NDJSON path. The events
    // route is the only one that takes a body.
    onProtoPoisoning: 'ignore',
    onConstructorPoisoning: 'ignore',
    forceCloseConnections: true,
    ajv: { customOptions: { coerceTypes: true, removeAdditional: false, useDefaults: true } },
  });
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(async (request, reply) => reply.code(404).send({ error: 'NOT_FOUND', message: `no route ${request.method} ${request.url.split('?')[0]}` }));
  app.addHook('onRequest', authHook(context.store, options.publicRead));

  await app.register(swagger, {
    openapi: {
      info: { title: 'standing', description: 'Player-reputation engine: five published ranking methods on one event stream.', version: '0.1.0' },
      components: { securitySchemes: { key: { type: 'http', scheme: 'bearer', description: 'an API key (standing keys create)' } } },
      security: [{ key: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  // The dashboard's files are public; the data it shows comes from the API, with a key.
  const dashboard = dashboardRoot();
  if (dashboard !== undefined) await app.register(fastifyStatic, { root: dashboard, prefix: '/', index: 'index.html', wildcard: false });
  else app.get('/', async (_request, reply) => reply.type('text/plain').send('The dashboard is not built: run npm run build.\n'));

  eventRoutes(app, context);
  playerRoutes(app, context);
  rankingRoutes(app, context);
  alertRoutes(app, context);
  systemRoutes(app, context);
  return app;
}
