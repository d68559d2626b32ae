/** A parse thread of ./reader.ts: chunks in, encoded batches out, in the order they came. */
import { parentPort } from 'node:worker_threads';
import { transferables } from './columns.js';
import { parseChunk } from './parse-chunk.js';

parentPort!.on('message', ({ seq, bytes }: { seq: number; bytes: Uint8Array }) => {
  const batch = parseChunk(bytes);
  parentPort!.postMessage({ seq, batch }, transferables(batch));
});
