/**
 * GET /v1/alerts (stored alerts, oldest first, after an id) and GET /v1/alerts/stream, a
 * Server-Sent Events stream: each alert is one `alert` event whose id is the alert id, so a
 * client reconnecting with Last-Event-ID (or ?after=) gets what it missed, then live alerts.
 * What one stream holds for a client that reads slowly, or not at all, is bounded
 * (../alert-stream-writer.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { StoredAlert } from '../../store/types.js';
import { alertPagesAfter } from '../../store/pages.js';
import { AlertStreamWriter, CATCH_UP_PAGE } from '../alert-stream-writer.js';
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
  { store, alerts, metrics }: Pick<HttpContext, 'store' | 'metrics'> & { readonly alerts: AlertFeed },
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
    }, 'named'),
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
    }, 'named'),
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
      const lastEventId = Number(request.headers['last-event-id']);
      const after = request.query.after ?? (Number.isInteger(lastEventId) ? lastEventId : undefined);
      reply.hijack();
      const out = reply.raw;
      out.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
      out.write(': standing alerts\n\n');
      const writer = new AlertStreamWriter(out, {
        after,
        wanted: (a) => (community === undefined || a.community === community) && (scorer === undefined || a.scorer === scorer) && (player === undefined || a.player === player),
        onWaiting: (waiting) => (waiting ? metrics.alertStreamsWaiting.inc() : metrics.alertStreamsWaiting.dec()),
      });
      const unsubscribe = alerts.subscribe((list) => writer.hear(list));
      const heartbeat = setInterval(() => writer.heartbeat(), heartbeatMs);
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        unsubscribe();
        release();
        writer.close('client');
        if (writer.end === 'behind') metrics.alertStreamsBehind.inc();
      };
      request.raw.on('close', end);
      out.on('close', end);
      if (request.raw.socket.destroyed) end(); // the client left before the stream began
      if (after === undefined) return;
      try {
        await writer.catchUp(alertPagesAfter(store, { after, community, scorer, player }, CATCH_UP_PAGE));
      } catch (error) {
        // The answer has begun: end the stream (and free its slot) so the client reconnects.
        request.log.error({ err: error }, 'alert stream catch-up failed');
        writer.close('failed');
        end();
      }
    },
  );
}
