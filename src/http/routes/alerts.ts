/**
 * GET /v1/alerts (stored alerts, oldest first, after an id) and GET /v1/alerts/stream, a
 * Server-Sent Events stream: each alert is one `alert` event whose id is the alert id, so a
 * client reconnecting with Last-Event-ID (or ?after=) gets what it missed, then live alerts.
 */
import type { FastifyInstance } from 'fastify';
import type { StoredAlert } from '../../store/types.js';
import { alertPagesAfter } from '../../store/pages.js';
import type { HttpContext } from '../context.js';
import { IdParam, NO_NUL } from '../ids.js';

interface AlertsQuery {
  after?: number;
  order?: 'asc' | 'desc';
  limit?: number;
  community?: string;
  scorer?: string;
  player?: string;
}

const Filters = {
  community: IdParam,
  scorer: { type: 'string', minLength: 1, pattern: NO_NUL, description: 'scorer instance name' },
  player: IdParam,
} as const;

const HEARTBEAT_MS = 15_000;

export function alertRoutes(app: FastifyInstance, { store, alerts }: HttpContext): void {
  app.get<{ Querystring: AlertsQuery }>(
    '/v1/alerts',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'Alerts raised and cleared, oldest first',
        tags: ['alerts'],
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            after: { type: 'integer', minimum: 0, default: 0 },
            limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
            order: { type: 'string', enum: ['asc', 'desc'], default: 'asc', description: 'desc: the newest first' },
            ...Filters,
          },
        },
      },
    },
    async (request) => {
      const { order, ...query } = request.query;
      return { alerts: await store.readAlerts({ ...query, newestFirst: order === 'desc' }) };
    },
  );

  app.get<{ Querystring: AlertsQuery }>(
    '/v1/alerts/stream',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'Server-Sent Events: every alert from now on (or after Last-Event-ID / ?after=)',
        tags: ['alerts'],
        querystring: { type: 'object', additionalProperties: false, properties: { after: { type: 'integer', minimum: 0 }, ...Filters } },
      },
    },
    async (request, reply) => {
      const { community, scorer, player } = request.query;
      const wanted = (a: StoredAlert) => (community === undefined || a.community === community) && (scorer === undefined || a.scorer === scorer) && (player === undefined || a.player === player);
      const lastEventId = Number(request.headers['last-event-id']);
      let after = request.query.after ?? (Number.isInteger(lastEventId) ? lastEventId : undefined);
      reply.hijack();
      const out = reply.raw;
      out.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
      out.write(': standing alerts\n\n');
      const send = (list: readonly StoredAlert[]) => {
        for (const alert of list) {
          if (after !== undefined && alert.id <= after) continue;
          after = alert.id;
          if (wanted(alert)) out.write(`id: ${alert.id}\nevent: alert\ndata: ${JSON.stringify(alert)}\n\n`);
        }
      };
      // Live alerts wait while the missed ones are read, so the order holds.
      const queued: StoredAlert[][] = [];
      let catchingUp = after !== undefined;
      const unsubscribe = alerts.subscribe((list) => (catchingUp ? queued.push([...list]) : send(list)));
      const heartbeat = setInterval(() => out.write(': ping\n\n'), HEARTBEAT_MS);
      request.raw.on('close', () => {
        clearInterval(heartbeat);
        unsubscribe();
      });
      if (catchingUp) {
        for await (const page of alertPagesAfter(store, { after: after!, community, scorer, player })) send(page);
        catchingUp = false;
        for (const list of queued) send(list);
      }
    },
  );
}
