/**
 * GET /v1/alerts (stored alerts, oldest first, after an id) and GET /v1/alerts/stream, a
 * Server-Sent Events stream: each alert is one `alert` event whose id is the alert id, so a
 * client reconnecting with Last-Event-ID (or ?after=) gets what it missed, then live alerts.
 */
import type { FastifyInstance } from 'fastify';
import type { StoredAlert } from '../../store/types.js';
import { alertPagesAfter } from '../../store/pages.js';
import { clientOf } from '../auth.js';
import type { HttpContext } from '../context.js';
import { HttpProblem } from '../errors.js';
import { documented } from '../documented.js';
import { AlertList, AlertQuery, AlertStream, AlertStreamQuery, type AlertQuery as AlertQueryType, type AlertStreamQuery as AlertStreamQueryType } from '../schemas/alerts.js';
import { refTo } from '../schemas/common.js';
import { answer } from '../schemas/errors.js';

const HEARTBEAT_MS = 15_000;

/** Open streams per key id (or `address <ip>` for reads without a key), and in all. */
class StreamCount {
  private readonly perHolder = new Map<string, number>();
  total = 0;

  of(holder: string): number {
    return this.perHolder.get(holder) ?? 0;
  }

  open(holder: string): () => void {
    this.total++;
    this.perHolder.set(holder, this.of(holder) + 1);
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      this.total--;
      const left = this.of(holder) - 1;
      if (left === 0) this.perHolder.delete(holder);
      else this.perHolder.set(holder, left);
    };
  }
}

/** Where live alerts come from: the service's own monitor, or a cluster gateway's feed of the alert stream. */
export interface AlertFeed {
  /** Hears every alert stored from now on. Returns the unsubscribe function. */
  subscribe(listener: (alerts: readonly StoredAlert[]) => void): () => void;
}

export function alertRoutes(
  app: FastifyInstance,
  { store, alerts }: Pick<HttpContext, 'store'> & { readonly alerts: AlertFeed },
  limits: { readonly maxStreams: number; readonly maxStreamsPerKey: number; readonly connectionTimeoutMs: number },
): void {
  const streams = new StreamCount();
  // A stream stays open however short connectionTimeoutMs is: the heartbeat is traffic.
  const heartbeatMs = limits.connectionTimeoutMs > 0 ? Math.min(HEARTBEAT_MS, Math.max(1, Math.floor(limits.connectionTimeoutMs / 2))) : HEARTBEAT_MS;

  app.get<{ Querystring: AlertQueryType }>(
    '/v1/alerts',
    documented('read', {
      operationId: 'alerts',
      summary: 'Alerts raised and cleared, oldest first',
      tags: ['alerts'],
      querystring: refTo(AlertQuery),
      response: { 200: answer(AlertList, 'the alerts, oldest first (desc: newest first)') },
      errors: { 400: ['REQUEST_INVALID'] },
    }),
    async (request) => {
      const { order, ...query } = request.query;
      return { alerts: await store.readAlerts({ ...query, newestFirst: order === 'desc' }) };
    },
  );

  app.get<{ Querystring: AlertStreamQueryType }>(
    '/v1/alerts/stream',
    documented('read', {
      operationId: 'alertStream',
      summary: 'Server-Sent Events: every alert from now on (or after Last-Event-ID / ?after=)',
      description: 'A client that reconnects with `Last-Event-ID` (or `?after=`) gets the alerts it missed, then live ones.',
      tags: ['alerts'],
      querystring: refTo(AlertStreamQuery),
      response: { 200: { description: 'the stream, open until the client leaves', content: { 'text/event-stream': { schema: refTo(AlertStream) } } } },
      errors: { 400: ['REQUEST_INVALID'], 429: ['TOO_MANY_STREAMS'], 503: ['TOO_MANY_STREAMS'] },
    }),
    async (request, reply) => {
      const holder = clientOf(request);
      if (streams.of(holder) >= limits.maxStreamsPerKey) {
        throw new HttpProblem(429, 'TOO_MANY_STREAMS', `${holder} holds its limit of ${limits.maxStreamsPerKey} open alert streams (maxStreamsPerKey); close one first`, limits.maxStreamsPerKey);
      }
      if (streams.total >= limits.maxStreams) {
        throw new HttpProblem(503, 'TOO_MANY_STREAMS', `the service holds its limit of ${limits.maxStreams} open alert streams (maxStreams); retry later`, limits.maxStreams);
      }
      const release = streams.open(holder);
      const { community, scorer, player } = request.query;
      const wanted = (a: StoredAlert) => (community === undefined || a.community === community) && (scorer === undefined || a.scorer === scorer) && (player === undefined || a.player === player);
      const lastEventId = Number(request.headers['last-event-id']);
      const after = request.query.after ?? (Number.isInteger(lastEventId) ? lastEventId : undefined);
      let catchingUp = after !== undefined;
      reply.hijack();
      const out = reply.raw;
      out.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
      out.write(': standing alerts\n\n');
      // Alerts heard while the missed ones are read may be among them: those are sent once.
      // Live alerts after that are each heard once (a cluster's feed may hear a lower id after a
      // higher one, from another worker: it is sent all the same).
      const caughtUp = new Set<number>();
      const write = (alert: StoredAlert) => {
        if (wanted(alert)) out.write(`id: ${alert.id}\nevent: alert\ndata: ${JSON.stringify(alert)}\n\n`);
      };
      const send = (list: readonly StoredAlert[]) => {
        for (const alert of list) {
          if (after !== undefined && alert.id <= after) continue;
          if (catchingUp) caughtUp.add(alert.id);
          else if (caughtUp.delete(alert.id)) continue;
          write(alert);
        }
      };
      // Live alerts wait while the missed ones are read, so the order holds.
      const queued: StoredAlert[][] = [];
      const unsubscribe = alerts.subscribe((list) => (catchingUp ? queued.push([...list]) : send(list)));
      const heartbeat = setInterval(() => out.write(': ping\n\n'), heartbeatMs);
      const end = () => {
        clearInterval(heartbeat);
        unsubscribe();
        release();
      };
      request.raw.on('close', end);
      out.on('close', end);
      if (request.raw.socket.destroyed) end(); // the client left before the stream began
      if (catchingUp) {
        try {
          for await (const page of alertPagesAfter(store, { after: after!, community, scorer, player })) send(page);
        } catch (error) {
          // The answer has begun: end the stream (and free its slot) so the client reconnects.
          request.log.error({ err: error }, 'alert stream catch-up failed');
          out.end();
          end();
          return;
        }
        catchingUp = false;
        for (const list of queued) send(list);
      }
    },
  );
}
