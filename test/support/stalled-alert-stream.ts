/**
 * An alert stream whose client does not read (issue 25, point 6), against a real server (a
 * `standing serve` or a cluster gateway): the store is filled with far more alerts than the
 * kernel's socket buffers hold, a raw connection asks for `?after=0` and reads nothing, and the
 * server's response for it is watched through the server's own `request` event. Once the server
 * says (GET /metrics, `standing_alert_streams_waiting`) that the stream waits for its client, or
 * once it has queued the whole catch-up, what the response holds unsent must be bounded. The
 * client then reads, and must get every alert once, in order.
 */
import type { Server, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { expect } from 'vitest';
import { frame } from '../../src/http/alert-stream-writer.js';
import type { EventStore, NewAlert, StoredAlert } from '../../src/store/types.js';
import { until } from './until.js';

/** Far more than loopback's socket buffers hold (about 4 MiB sent, 128 KiB received while the reader does not read). */
const ALERTS = 24_000;
/** What a response may hold unsent while its stream waits: Node's 16 KiB high-water mark and a frame, with room to spare. */
const BOUND_BYTES = 64 * 1024;

/** Stores ALERTS alerts of about 500 bytes each; answers them. */
async function fill(store: EventStore): Promise<StoredAlert[]> {
  const stored: StoredAlert[] = [];
  const long = (prefix: string, i: number) => `${prefix}-${i}-${'x'.repeat(110)}`;
  for (let i = 0; i < ALERTS; i += 2000) {
    const alerts: NewAlert[] = Array.from({ length: 2000 }, (_, j) => ({
      community: long('community', (i + j) % 7),
      scorer: 'cqr',
      player: long('player', i + j),
      threshold: long('threshold', 0),
      kind: 'raised',
      score: -60,
      sequence: i + j + 1,
      time: Date.parse('2026-11-01T00:00:00Z') + i + j,
    }));
    stored.push(...(await store.appendAlerts(alerts)));
  }
  return stored;
}

async function waitingStreams(url: string, key: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${key}` } })).text();
  return Number(/^standing_alert_streams_waiting (\d+)$/m.exec(text)?.[1] ?? NaN);
}

export async function expectBoundedCatchUp(options: { url: string; key: string; server: Server; store: EventStore }): Promise<void> {
  const { url, key, server } = options;
  const stored = await fill(options.store);
  const total = stored.reduce((sum, alert) => sum + Buffer.byteLength(frame(alert)), 0);
  let response: ServerResponse | undefined;
  const onRequest = (request: { url?: string }, res: ServerResponse) => {
    if (request.url?.startsWith('/v1/alerts/stream') === true) response = res;
  };
  server.on('request', onRequest);
  const socket = await new Promise<ReturnType<typeof connect>>((resolve, reject) => {
    const s = connect({ port: Number(new URL(url).port), host: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
  try {
    socket.pause();
    socket.write(`GET /v1/alerts/stream?after=0 HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${key}\r\n\r\n`);
    const res = await until('the stream to begin', async () => response);
    server.off('request', onRequest);
    // The server either waits for the client, or (without backpressure) has queued everything.
    await until('the stream to wait for its client, or to have queued its whole catch-up', async () =>
      (await waitingStreams(url, key)) >= 1 || (res.socket?.bytesWritten ?? 0) >= total ? true : undefined,
    );
    // Whenever looked at (the kernel may take more now and then, and the stream write a little more), the response holds a bounded amount unsent.
    expect(res.writableLength).toBeLessThanOrEqual(BOUND_BYTES);
    expect(res.socket!.bytesWritten).toBeLessThan(total / 2);

    // The client reads: every alert, once, in order; the stream no longer waits.
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.resume();
    const last = `id: ${stored[stored.length - 1]!.id}\n`;
    await until('every alert to arrive', async () => (text.includes(last) ? true : undefined));
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids).toEqual(stored.map((a) => a.id));
    await until('the stream to stop waiting', async () => ((await waitingStreams(url, key)) === 0 ? true : undefined));
  } finally {
    server.off('request', onRequest);
    socket.destroy();
  }
}
