/** Raw HTTP/1.1 over real sockets, from a chosen local address: for tests of per-connection and per-address limits. */
import { connect, type Socket } from 'node:net';

const portOf = (url: string) => Number(new URL(url).port);

/** A connection to the service on 127.0.0.1 from `from` (any 127.x address is this machine's). */
export function openFrom(url: string, from: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port: portOf(url), host: '127.0.0.1', localAddress: from }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends one GET on `socket` and reads the status line and the body, once the response is whole or the connection closed. */
export function getOn(socket: Socket, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve({ status: 0, body: '' });
    let text = '';
    const done = () => {
      socket.off('data', onData);
      const end = text.indexOf('\r\n\r\n');
      resolve({ status: Number(text.split(' ')[1] ?? 0), body: end < 0 ? '' : text.slice(end + 4) });
    };
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(text.slice(0, Math.max(0, end)))?.[1] ?? NaN);
      if (end >= 0 && Buffer.byteLength(text.slice(end + 4)) >= length) done();
    };
    socket.on('data', onData);
    socket.once('close', done);
    socket.write(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`);
  });
}
