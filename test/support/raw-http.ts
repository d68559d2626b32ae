/** Raw HTTP/1.1 over real sockets, from a chosen local address: for tests of connection limits, timeouts and per-address caps. */
import { connect, type Socket } from 'node:net';

const portOf = (url: string) => Number(new URL(url).port);

/** A connection to the service on 127.0.0.1, from `from` when given (any 127.x address is this machine's). */
export function openFrom(url: string, from?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port: portOf(url), host: '127.0.0.1', ...(from === undefined ? {} : { localAddress: from }) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Sends one GET on `socket` (kept alive) and reads one response: its status, head and body, once
 * it is whole, or what came before the server closed the connection (status 0 when nothing did).
 */
export function getOn(socket: Socket, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve({ status: 0, headers: '', body: '' });
    let text = '';
    const done = () => {
      socket.off('data', onData);
      socket.off('close', done);
      const end = text.indexOf('\r\n\r\n');
      resolve({ status: Number(text.split(' ')[1] ?? 0) || 0, headers: end < 0 ? '' : text.slice(0, end), body: end < 0 ? '' : text.slice(end + 4) });
    };
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
      if (Buffer.byteLength(text.slice(end + 4)) >= length) done();
    };
    socket.on('data', onData);
    socket.once('close', done);
    socket.write(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`);
  });
}
