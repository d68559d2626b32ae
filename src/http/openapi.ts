/**
 * The OpenAPI document at /docs (/docs/json): the named schemas as `components.schemas`, each
 * route's scope as its `security` and `x-scope`, and the two bodies POST /v1/events takes. The
 * response schemas document; answers are serialized with JSON.stringify as they would be
 * without them (fast-json-stringify would drop any field a schema does not name), and the
 * contract tests check every answer against this document.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { Scope } from '../store/types.js';
import { NAMED_SCHEMAS } from './schemas/index.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body by media type as the document shows it, when it differs from the schema fastify checks. */
    documentedBody?: Readonly<Record<string, TSchema>>;
  }
}

const DESCRIPTION = `Player-reputation engine: five published ranking methods on one event stream.

Keys go in \`Authorization: Bearer <key>\` (or \`x-api-key\`); each operation names the scope it needs (\`x-scope\`; an admin key has every scope). A key restricted to communities is refused 403 on any request reaching another; a player token (POST /v1/player-tokens) opens only its player's view, reports and appeals. Every error is JSON \`{error, message}\` (with \`limit\` and \`key\` for a limit, \`problems\` for a refused batch); each response lists the codes an operation answers with. Before a request reaches a route, the connection may be answered 408 REQUEST_TIMEOUT, 431 HEADERS_TOO_LARGE or 400 REQUEST_MALFORMED and closed; a path no route serves is answered 404 NOT_FOUND.`;

/** Who holds each scope, as the document says it (../service/keys.ts, allows). */
const ALSO: Readonly<Record<Scope, string>> = {
  ingest: 'a key with `ingest` or `admin`',
  read: 'a key with `read`, `moderate`, `senior` or `admin`',
  moderate: 'a key with `moderate`, `senior` or `admin`',
  senior: 'a key with `senior` or `admin`',
  'player-view': "a key with `player-view`, `moderate`, `senior` or `admin`, or a player token of the request's player and community",
  admin: 'a key with `admin`',
};

/** What the document says of a route's scope: who may call it and with what. */
function securityOf(scope: Scope | undefined, publicRead: boolean): FastifySchema & Record<string, unknown> {
  if (scope === undefined) return { security: [], 'x-scope': 'none' };
  const open = scope === 'read' && publicRead;
  const who = `Scope: \`${scope}\` (${ALSO[scope]}${open ? '; this service serves reads without a key' : ''}).`;
  return { security: open ? [{}, { key: [] }] : [{ key: [] }], 'x-scope': scope, description: who };
}

export async function registerOpenApi(app: FastifyInstance, publicRead: boolean): Promise<void> {
  for (const schema of NAMED_SCHEMAS) app.addSchema(schema);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await app.register(swagger, {
    openapi: {
      info: { title: 'standing', description: DESCRIPTION, version: '0.1.0' },
      components: { securitySchemes: { key: { type: 'http', scheme: 'bearer', description: 'an API key (standing keys create), or on the player-view routes a player token (POST /v1/player-tokens)' } } },
      tags: [
        { name: 'events', description: 'ingest' },
        { name: 'rankings', description: 'rankings of a community' },
        { name: 'players', description: 'one player: scores, explanation, history, erasure; their own view, reports and appeals (scope player-view)' },
        { name: 'alerts', description: 'thresholds crossed' },
        { name: 'moderation', description: 'verdicts, notes, sanctions, appeals, claims and the audit log (scopes moderate and senior)' },
        { name: 'system', description: 'health, limits, metrics and what the service runs' },
      ],
    },
    // Components are named by their $id, not def-0, def-1, …
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transform: ({ schema: given, url, route }) => {
      const schema: FastifySchema = given ?? {};
      const scoped = securityOf(route.config?.scope, publicRead);
      const description = [scoped.description, schema.description].filter((text) => text !== undefined).join('\n\n');
      const documentedBody = route.config?.documentedBody;
      const body = documentedBody === undefined ? {} : { body: { content: Object.fromEntries(Object.entries(documentedBody).map(([type, s]) => [type, { schema: s }])) } };
      return { url, schema: { ...schema, ...scoped, ...body, ...(description === '' ? {} : { description }) } };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
}
