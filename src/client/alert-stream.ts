/** Reading the Server-Sent Events of GET /v1/alerts/stream from a fetch answer (EventSource cannot send a key). */
import type { Alert } from './types.js';

/** Calls `onAlert` for each `alert` event of `body` until it ends (or its request is aborted). */
export async function readAlertEvents(body: ReadableStream<Uint8Array>, onAlert: (alert: Alert) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  /** A CR at the end of a chunk: the first half of a CRLF, maybe. */
  let carriageReturn = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    let text = carriageReturn + decoder.decode(value, { stream: true });
    carriageReturn = text.endsWith('\r') ? '\r' : '';
    if (carriageReturn !== '') text = text.slice(0, -1);
    buffer += text.replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const message = buffer.slice(0, end).split('\n');
      buffer = buffer.slice(end + 2);
      const event = message.find((line) => line.startsWith('event:'))?.slice(6).trim() ?? 'message';
      const data = message
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
        .join('\n');
      if (event === 'alert' && data !== '') onAlert(JSON.parse(data) as Alert);
    }
  }
}
