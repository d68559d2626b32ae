/**
 * An alert stream's writer over a real HTTP response and a real socket whose client does not
 * read (issue 25, point 6): live alerts it cannot take close the stream once 256 KiB wait unsent,
 * and more than 1,000 live alerts it would send, heard during a paused catch-up, close it too; a client that
 * reads gets the catch-up, then the live alerts heard meanwhile, each once.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AlertStreamWriter, MAX_UNSENT_BYTES, MAX_WAITING } from '../../../src/http/alert-stream-writer.js';
import type { StoredAlert } from '../../../src/store/types.js';

const alert = (id: number): StoredAlert => ({
  id,
  community: 'c',
  scorer: 'cqr',
  player: `player-${id}-${'x'.repeat(400)}`,
  threshold: 't',
  kind: 'raised',
  score: -60,
  sequence: id,
  time: id,
  createdAt: '2026-11-01T00:00:00.000Z',
});

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A server whose one response is handed over, and a client socket to it that reads nothing. */
async function paused(): Promise<{ out: ServerResponse; socket: Socket }> {
  let take: (out: ServerResponse) => void = () => undefined;
  const taken = new Promise<ServerResponse>((resolve) => (take = resolve));
  server = createServer((_request, out) => {
    out.writeHead(200, { 'content-type': 'text/event-stream' });
    take(out);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const socket = await new Promise<Socket>((resolve) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
  });
  socket.pause();
  socket.write('GET / HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
  return { out: await taken, socket };
}

const closed = (out: ServerResponse) => new Promise<void>((resolve) => (out.destroyed ? resolve() : out.once('close', () => resolve())));

describe('issue 25: an alert stream whose client does not read', () => {
  it('is closed once live alerts find 256 KiB unsent, never holding more than that and one alert', async () => {
    const { out, socket } = await paused();
    const writer = new AlertStreamWriter(out, { after: undefined, wanted: () => true, onWaiting: () => undefined });
    let most = 0;
    let id = 0;
    // Alerts of about 500 bytes, far more than the kernel's buffers take from a client that reads nothing.
    while (writer.end === undefined && id < 100_000) {
      writer.hear([alert(++id)]);
      most = Math.max(most, out.writableLength);
    }
    expect(writer.end).toBe('behind');
    expect(most).toBeLessThanOrEqual(MAX_UNSENT_BYTES + 1024);
    await closed(out);
    socket.destroy();
  });

  it('is closed when more than 1,000 live alerts are heard while its catch-up waits for the client', async () => {
    const { out, socket } = await paused();
    const waits: boolean[] = [];
    const writer = new AlertStreamWriter(out, { after: 0, wanted: () => true, onWaiting: (w) => waits.push(w) });
    let pagesRead = 0;
    async function* pages(): AsyncGenerator<StoredAlert[]> {
      for (let page = 0; page < 1000; page++) {
        pagesRead++;
        yield Array.from({ length: 200 }, (_, i) => alert(page * 200 + i + 1));
      }
    }
    const catchingUp = writer.catchUp(pages());
    // The catch-up waits at a full socket (again each time the kernel takes more), holding its high-water mark and an alert.
    while (!waits.includes(true)) await new Promise((resolve) => setImmediate(resolve));
    expect(out.writableLength).toBeLessThanOrEqual(64 * 1024);
    for (let i = 1; i <= MAX_WAITING; i++) writer.hear([alert(1_000_000 + i)]);
    expect(writer.end).toBeUndefined();
    writer.hear([alert(2_000_000)]);
    expect(writer.end).toBe('behind');
    await catchingUp;
    // It never read more than the kernel's buffers took (a few MiB of its 100 MB), and stopped waiting when closed.
    expect(pagesRead).toBeLessThan(100);
    expect(waits.filter((w) => w).length).toBe(waits.filter((w) => !w).length);
    expect(waits.at(-1)).toBe(false);
    socket.destroy();
  });

  it('is not closed by alerts it does not send (another community) heard while its catch-up waits', async () => {
    const { out, socket } = await paused();
    const waits: boolean[] = [];
    const mine = (a: StoredAlert) => a.community === 'c';
    const writer = new AlertStreamWriter(out, { after: 0, wanted: mine, onWaiting: (w) => waits.push(w) });
    async function* pages(): AsyncGenerator<StoredAlert[]> {
      for (let page = 0; page < 1000; page++) yield Array.from({ length: 200 }, (_, i) => alert(page * 200 + i + 1));
    }
    const catchingUp = writer.catchUp(pages());
    while (!waits.includes(true)) await new Promise((resolve) => setImmediate(resolve));
    for (let i = 1; i <= 10 * MAX_WAITING; i++) writer.hear([{ ...alert(1_000_000 + i), community: 'other' }]);
    expect(writer.end).toBeUndefined();
    // The client leaves: the catch-up stops waiting.
    socket.destroy();
    await catchingUp;
  });

  it('sends a reading client the catch-up, then the live alerts heard meanwhile, each once and in order', async () => {
    const { out, socket } = await paused();
    const writer = new AlertStreamWriter(out, { after: 2, wanted: (a) => a.id !== 5, onWaiting: () => undefined });
    // Heard during the catch-up: 4 (which the catch-up also sends), then 9 and 8 (a cluster may hear a lower id later).
    writer.hear([alert(4), alert(9), alert(1), alert(8)]);
    await writer.catchUp(
      (async function* () {
        yield [alert(3), alert(4), alert(5)];
        yield [alert(6), alert(7)];
      })(),
    );
    writer.hear([alert(7), alert(10)]); // 7 late, live: already sent by the catch-up
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.resume();
    while (!text.includes('id: 10\n')) await new Promise((resolve) => setTimeout(resolve, 10));
    expect([...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]))).toEqual([3, 4, 6, 7, 9, 8, 10]);
    socket.destroy();
  });
});
