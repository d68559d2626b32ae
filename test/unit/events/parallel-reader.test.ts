/**
 * NDJSON parsed on worker threads gives what the serial reader gives: the same events (key
 * order, −0 and extra fields included), the same line numbers, the same errors. The threads run
 * the compiled worker from dist/, or with no build its source (src/util/start-worker.ts).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Worker } from 'node:worker_threads';
import { BatchDecoder } from '../../../src/events/parallel/columns.js';
import { parseChunk } from '../../../src/events/parallel/parse-chunk.js';
import { ParsePool } from '../../../src/events/parallel/pool.js';
import { readEventBatchesParallel } from '../../../src/events/parallel/reader.js';
import { pairHash } from '../../../src/util/id-hash.js';
import { EventSyntaxError, EventValidationError, InputError, openEventSource, readEventBatches } from '../../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'standing-parallel-'));
let files = 0;

function file(text: string): string {
  const path = join(dir, `log-${files++}.ndjson`);
  writeFileSync(path, text);
  return path;
}

interface Read {
  readonly events: unknown[];
  readonly lines: number[];
}

async function serial(path: string): Promise<Read> {
  const out: Read = { events: [], lines: [] };
  for await (const batch of readEventBatches(openEventSource(path), { parseThreads: 0 })) {
    out.events.push(...batch.events);
    out.lines.push(...batch.lines);
  }
  return out;
}

async function parallel(path: string, threads: number, chunkBytes: number): Promise<Read> {
  const out: Read = { events: [], lines: [] };
  for await (const batch of readEventBatchesParallel(openEventSource(path), threads, { chunkBytes })) {
    out.events.push(...batch.events);
    out.lines.push(...batch.lines);
  }
  return out;
}

/** Everything a reader gives for a source, then the error it stops with (if any). */
async function drain(batches: AsyncGenerator<{ events: unknown[]; lines: number[] }>): Promise<{ events: unknown[]; lines: number[]; error?: string }> {
  const out: { events: unknown[]; lines: number[]; error?: string } = { events: [], lines: [] };
  try {
    for await (const batch of batches) {
      out.events.push(...batch.events);
      out.lines.push(...batch.lines);
    }
  } catch (error) {
    out.error = `${(error as Error).name}: ${(error as Error).message}`;
  }
  return out;
}

/** A stream that sends `text` in pieces, then fails with EIO. */
function failingStream(text: string): Readable {
  const stream = new PassThrough();
  const bytes = Buffer.from(text);
  stream.write(bytes.subarray(0, 40));
  stream.write(bytes.subarray(40));
  setTimeout(() => stream.destroy(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' })), 20);
  return stream;
}

/** Deep equality that also holds key order and the sign of zero. */
function same(actual: unknown, expected: unknown): void {
  expect(actual).toStrictEqual(expected);
  expect(JSON.stringify(actual, (_k, v: unknown) => (Object.is(v, -0) ? '-0' : v))).toBe(
    JSON.stringify(expected, (_k, v: unknown) => (Object.is(v, -0) ? '-0' : v)),
  );
}

async function errorOf(read: Promise<unknown>): Promise<Error> {
  try {
    await read;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the read to fail');
}

/** Every event type, extra fields flat and nested, −0, odd keys, both `chat.to` forms, CRLF and blank lines. */
const VARIED = [
  '{"type":"action","id":"a1","time":"2024-05-01T18:00:00.123Z","player":"p1","delta":-12}',
  '{"time":5,"delta":-0,"player":"p2","type":"action"}',
  '{"type":"action","time":6,"community":"eu","player":"日本","domain":"minecraft","payload":{"kind":"place","block":"stone"}}',
  '',
  '{"type":"match.start","time":7,"match":"m1","players":["a","b","c"],"bots":[]}',
  '{"type":"match.end","time":8,"match":"m1","note":"extra","score":3}',
  '   ',
  '{"type":"disconnect","time":9,"player":"a","flag":true}',
  '{"type":"match.resume","time":10,"match":"m1","meta":null}',
  '{"type":"rating","time":11,"from":"a","to":"b","value":0.5}\r',
  '{"type":"report","time":12,"from":"a","to":"b","reason":"grief"}',
  '{"type":"played","time":13,"player":"a","games":4}',
  '{"type":"chat","time":14,"from":"a","to":"b"}',
  '{"type":"chat","time":15,"from":"a","to":["b","c"],"mixed":["x",1]}',
  '{"type":"report","time":16,"from":"a","to":"b","prototype":{"constructor":"odd"},"2":"integer key"}',
  `{"type":"action","time":17,"player":"q","delta":1,${Array.from({ length: 14 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
  '{"type":"action","time":18,"player":"quote\\"d \\u00e9 é","delta":-1e9}',
].join('\n');

describe('columns (parse thread → main thread)', () => {
  afterEach(() => vi.restoreAllMocks()); // a failed expectation must not leave a spy on Worker.prototype

  it('rebuild exactly the events the serial reader gives, key order and −0 included', async () => {
    const path = file(`${VARIED}\n`);
    const expected = await serial(path);
    const batch = parseChunk(Buffer.from(`${VARIED}\n`));
    expect(batch.failure).toBeUndefined();
    expect(batch.lines).toBe(17);
    same(new BatchDecoder().decode(batch), expected.events);
    expect(Array.from(batch.eventLines, (line) => line + 1)).toEqual(expected.lines);
    expect(Object.is((expected.events[1] as { delta: number }).delta, -0)).toBe(true);
    expect(Object.hasOwn(expected.events[12] as object, 'prototype')).toBe(true);
  });

  it('send flat events as columns and the others as themselves', () => {
    const batch = parseChunk(Buffer.from(`${VARIED}\n`));
    const shapeless = Array.from(batch.shapeOf).filter((s) => s < 0).length;
    // the payload, the boolean, the null, the mixed array, the prototype object and the 18-key event
    expect(shapeless).toBe(6);
    expect(batch.others).toHaveLength(6);
  });
});

describe('issue 27: what a parse thread sends beside the columns', () => {
  it('sends pairHash(community, id) of each event with an id, and 0 for one without', () => {
    const batch = parseChunk(Buffer.from(`${VARIED}\n`));
    const events = new BatchDecoder().decode(batch) as { id?: string; community: string }[];
    expect(Array.from(batch.idHashes)).toEqual(events.map((e) => (e.id === undefined ? 0 : pairHash(e.community, e.id))));
    expect(batch.idHashes[0]).toBe(pairHash('default', 'a1'));
  });

  it('rebuilds every string when many distinct ones share the cache of recent strings, repeats included', async () => {
    // 10,000 players over 4,096 cache entries: strings that share an entry replace each other.
    const lines = Array.from({ length: 30_000 }, (_, i) => `{"type":"action","time":${i},"community":"c${i % 3}","player":"p${(i * 7919) % 10_000}","delta":${i % 5}}`);
    const text = `${lines.join('\n')}\n`;
    const expected = await serial(file(text));
    same(new BatchDecoder().decode(parseChunk(Buffer.from(text))), expected.events);
  });

  it('rebuilds events that take turns among more shapes than the encoder keeps as recent, in any order (property)', async () => {
    // Seven shapes (more than the four recent ones): same keys in another order, a value of
    // another kind under the same key, an extra key, an array; each line picked at random.
    const shapes = [
      (i: number) => `{"type":"match.start","time":${i},"match":"m${i}","players":["a${i % 7}","b"]}`,
      (i: number) => `{"type":"match.end","time":${i},"match":"m${i}"}`,
      (i: number) => `{"time":${i},"type":"match.end","match":"m${i}"}`,
      (i: number) => `{"type":"match.end","time":${i},"match":"m${i}","note":${i}}`,
      (i: number) => `{"type":"match.end","time":${i},"match":"m${i}","note":"n${i}"}`,
      (i: number) => `{"type":"match.start","time":${i},"match":"m${i}","players":["a","b${i % 3}"],"bots":["b${i % 3}"]}`,
      (i: number) => `{"type":"disconnect","time":${i},"player":"p${i % 5}"}`,
    ];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: shapes.length - 1 }), { minLength: 1, maxLength: 200 }), async (picks) => {
        const text = `${picks.map((s, i) => shapes[s]!(i)).join('\n')}\n`;
        const batch = parseChunk(Buffer.from(text));
        expect(batch.others).toHaveLength(0);
        same(new BatchDecoder().decode(batch), (await serial(file(text))).events);
      }),
      { numRuns: 40 },
    );
  });

  it('gives the hashes a parse thread sent with the batch the reader yields, and none for a batch parsed on the main thread', async () => {
    const lines = Array.from({ length: 2_000 }, (_, i) => `{"type":"action","id":"e${i % 1_500}","time":${i},"player":"p${i % 40}","delta":1}`);
    const pool = new ParsePool(1);
    try {
      const batch = await pool.parse(new Uint8Array(Buffer.from(`${lines.join('\n')}\n`)));
      const events = new BatchDecoder().decode(batch) as { id: string; community: string }[];
      expect(events).toHaveLength(2_000);
      expect(Array.from(batch.idHashes)).toEqual(events.map((e) => pairHash(e.community, e.id)));
    } finally {
      pool.close();
    }
    for await (const batch of readEventBatchesParallel(openEventSource(file(`${lines.join('\n')}\n`)), 2, { chunkBytes: 4096 })) {
      const hashes = batch.idHashes ?? new Int32Array(batch.events.map((e) => pairHash(e.community, e.id!)));
      expect(Array.from(hashes)).toEqual(batch.events.map((e) => pairHash(e.community, e.id!)));
    }
  });
});

describe('readEventBatchesParallel', () => {
  it('gives the serial events and line numbers for any chunk size and thread count', async () => {
    const text = Array.from({ length: 40 }, () => VARIED).join('\n');
    const path = file(text); // no final newline
    const expected = await serial(path);
    expect(expected.events).toHaveLength(40 * 15);
    for (const [threads, chunkBytes] of [
      [1, 1],
      [2, 100],
      [2, 4096],
      [3, 1 << 20],
    ] as const) {
      const actual = await parallel(path, threads, chunkBytes);
      same(actual.events, expected.events);
      expect(actual.lines).toEqual(expected.lines);
    }
  });

  it('throws the serial reader’s error for a bad line, with its line number in the whole file', async () => {
    const good = Array.from({ length: 300 }, (_, i) => `{"type":"action","time":${i},"player":"p${i % 7}","delta":${i % 11}}`);
    for (const [bad, kind] of [
      ['{"type":"action","time":1,"player":"p"', EventSyntaxError],
      ['{"type":"action","time":1,"player":"p","delta":1,"domain":"forum"}', EventValidationError],
      ['{"type":"rating","time":1,"from":"a","to":"a","value":1}', EventValidationError],
    ] as const) {
      const lines = [...good.slice(0, 200), '', bad, ...good.slice(200)];
      const path = file(lines.join('\r\n'));
      const expected = await errorOf(serial(path));
      expect(expected).toBeInstanceOf(kind);
      expect(expected.message).toContain(`line 202`);
      for (const chunkBytes of [64, 1000, 1 << 20]) {
        const actual = await errorOf(parallel(path, 2, chunkBytes));
        expect(actual).toBeInstanceOf(kind);
        expect(actual.message).toBe(expected.message);
      }
    }
  });

  it('reports a missing file as the serial reader does', async () => {
    const missing = join(dir, 'missing.ndjson');
    const expected = await errorOf(serial(missing));
    const actual = await errorOf(parallel(missing, 2, 1024));
    expect(actual).toBeInstanceOf(InputError);
    expect(actual.message).toBe(expected.message);
  });

  it('stops its threads when the reader is left early', async () => {
    const path = file(Array.from({ length: 5000 }, (_, i) => `{"type":"action","time":${i},"player":"p","delta":1}`).join('\n'));
    const terminate = vi.spyOn(Worker.prototype, 'terminate');
    let seen = 0;
    for await (const batch of readEventBatchesParallel(openEventSource(path), 2, { chunkBytes: 2048 })) {
      seen += batch.events.length;
      if (seen > 100) break;
    }
    expect(seen).toBeGreaterThan(100);
    expect(seen).toBeLessThan(5000);
    expect(terminate).toHaveBeenCalledTimes(2);
  });

  it('reads a stream that is not a file (stdin) the same way', async () => {
    const text = `${VARIED}\n${VARIED}`;
    const path = file(text);
    const expected = await serial(path);
    const pieces = Buffer.from(text);
    const stream = Readable.from([pieces.subarray(0, 333), pieces.subarray(333, 334), pieces.subarray(334)]);
    const actual: unknown[] = [];
    for await (const batch of readEventBatchesParallel({ name: path, stream }, 2, { chunkBytes: 128 })) actual.push(...batch.events);
    same(actual, expected.events);
  });

  it('issue 14: drops a byte-order mark at the start of a file or stream, as the serial reader does', async () => {
    const text = `\uFEFF${VARIED}\n`;
    const expected = await serial(file(text));
    expect(expected.events).toHaveLength(15);
    same((await parallel(file(text), 2, 64)).events, expected.events);
    const bytes = Buffer.from(text);
    for (const cut of [1, 2, 3, 4]) {
      const stream = Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]);
      same((await drain(readEventBatchesParallel({ name: 'stdin', stream }, 2, { chunkBytes: 64 }))).events, expected.events);
    }
    // The start of a mark and nothing else fails as the serial reader fails.
    const half = file('\uFEFF'.slice(0, 1));
    writeFileSync(half, Buffer.from([0xef, 0xbb]));
    expect((await drain(readEventBatchesParallel(openEventSource(half), 2, { chunkBytes: 64 }))).error).toBe((await drain(readEventBatches(openEventSource(half), { parseThreads: 0 }))).error);
  });

  it('agrees with the serial reader on random logs, errors included (property)', async () => {
    const id = fc.string({ minLength: 1, maxLength: 6 });
    const extra = fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }));
    const event = fc.oneof(
      fc.record({ type: fc.constant('action'), time: fc.nat(), player: id, delta: fc.integer({ min: -60, max: 60 }) }),
      fc.record({ type: fc.constant('rating'), time: fc.nat(), from: id, to: id, value: fc.double({ min: -1, max: 1, noNaN: true }) }),
      fc.record({ type: fc.constant('chat'), time: fc.nat(), from: id, to: fc.oneof(id, fc.array(id, { minLength: 1, maxLength: 3 })) }),
      fc.record({ type: fc.constant('played'), time: fc.nat(), player: id, games: fc.integer({ min: 1, max: 99 }), x: extra }, { requiredKeys: ['type', 'time', 'player', 'games'] }),
    );
    const line = fc.oneof({ weight: 9, arbitrary: event.map((e) => JSON.stringify(e)) }, { weight: 1, arbitrary: fc.constantFrom('', ' ', '\r') });
    /** In about half the logs, one line of random text (mostly not JSON) somewhere. */
    const log = fc
      .tuple(fc.array(line, { minLength: 1, maxLength: 60, size: 'max' }), fc.option(fc.tuple(fc.nat(), fc.string({ maxLength: 8 }))))
      .map(([lines, bad]) => (bad === null ? lines : lines.toSpliced(bad[0] % (lines.length + 1), 0, bad[1])));
    /** The events and lines a reader gives, or the message of the error it stops with. */
    const outcome = async (read: Promise<Read>) => read.catch((error: Error) => `${error.name}: ${error.message}`);
    await fc.assert(
      fc.asyncProperty(log, fc.integer({ min: 1, max: 400 }), async (lines, chunkBytes) => {
        const path = file(lines.join('\n'));
        same(await outcome(parallel(path, 2, chunkBytes)), await outcome(serial(path)));
      }),
      { numRuns: 40, seed: 20261121 },
    );
  });

  it('reads a stream of strings (a stream with an encoding set) as the serial reader does', async () => {
    const text = `${VARIED}\n${VARIED}`;
    const expected = await serial(file(text));
    for (const pieces of [[text], [text.slice(0, 500), text.slice(500)]]) {
      const actual = await drain(readEventBatchesParallel({ name: 'strings', stream: Readable.from(pieces) }, 1, { chunkBytes: 256 }));
      expect(actual.error).toBeUndefined();
      same(actual.events, expected.events);
    }
  });

  it('after a read error, gives the complete lines read before it, then the error; a bad line among them wins', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `{"type":"action","time":${i},"player":"p${i}","delta":1}`);
    const text = `${lines.join('\n')}\n{"type":"act`; // the last line is cut off by the error
    const expected = await drain(readEventBatches({ name: 'disk', stream: failingStream(text) }, { parseThreads: 0 }));
    expect(expected.events).toHaveLength(30);
    expect(expected.error).toBe('InputError: disk: EIO: i/o error, read');
    for (const chunkBytes of [64, 1 << 20]) {
      const actual = await drain(readEventBatchesParallel({ name: 'disk', stream: failingStream(text) }, 1, { chunkBytes }));
      same(actual, expected);
    }
    const bad = [...lines.slice(0, 10), 'not json', ...lines.slice(10)].join('\n');
    const badExpected = await drain(readEventBatches({ name: 'disk', stream: failingStream(bad) }, { parseThreads: 0 }));
    expect(badExpected.error).toMatch(/^EventSyntaxError: disk line 11: is not valid JSON/);
    const badActual = await drain(readEventBatchesParallel({ name: 'disk', stream: failingStream(bad) }, 1, { chunkBytes: 64 }));
    expect(badActual.error).toBe(badExpected.error);
  });

  it('fails with an InputError, without hanging, when a parse thread dies', async () => {
    const path = file(Array.from({ length: 3000 }, (_, i) => `{"type":"action","time":${i},"player":"p${i % 9}","delta":1}`).join('\n'));
    const scripts = {
      // dies on its first chunk
      first: `import { parentPort } from 'node:worker_threads'; parentPort.on('message', () => { throw new Error('boom'); });`,
      // dies before it takes any chunk
      start: `throw new Error('cannot start');`,
    };
    for (const [name, code] of Object.entries(scripts)) {
      const script = join(dir, `bad-worker-${name}.mjs`);
      writeFileSync(script, code);
      const result = await drain(readEventBatchesParallel(openEventSource(path), 2, { chunkBytes: 1024, workerScript: pathToFileURL(script) }));
      expect(result.error).toMatch(new RegExp(`^InputError: ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: a parse thread failed \\(.+\\)$`));
    }
  });

  it('parses a thread\'s chunks on the main thread while the thread has not answered yet, and still awaits its answers', async () => {
    // This thread answers every chunk with no events, and only after 1.5 s: had the reader waited
    // for it rather than parsed the chunks itself, their events would be missing.
    const script = join(dir, 'late-worker.mjs');
    writeFileSync(
      script,
      `import { parentPort } from 'node:worker_threads';
parentPort.on('message', ({ seq, bytes }) => {
  let lines = bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? 1 : 0;
  for (const byte of bytes) if (byte === 10) lines++;
  const batch = { lines, eventLines: new Int32Array(0), shapeOf: new Int32Array(0), shapes: [], refs: new Int32Array(0), numbers: new Float64Array(0), text: '', lengths: new Int32Array(0), others: [], failure: undefined };
  setTimeout(() => parentPort.postMessage({ seq, batch }), 1500);
});`,
    );
    const path = file(Array.from({ length: 3000 }, (_, i) => `{"type":"action","time":${i},"player":"p${i % 9}","delta":${i % 7}}`).join('\n'));
    const expected = await serial(path);
    const actual = await drain(readEventBatchesParallel(openEventSource(path), 2, { chunkBytes: 1024, workerScript: pathToFileURL(script) }));
    expect(actual.error).toBeUndefined();
    same(actual.events, expected.events);
    expect(actual.lines).toEqual(expected.lines);
  });

  it('sends the events of a log whose keys vary line by line whole, and still gives the serial events', async () => {
    const lines = Array.from({ length: 400 }, (_, i) => `{"type":"action","time":${i},"player":"p","delta":${i},"extra${i}":${i}}`);
    const path = file(lines.join('\n'));
    const expected = await serial(path);
    const actual = await parallel(path, 1, 1 << 20);
    same(actual.events, expected.events);
    const batch = parseChunk(Buffer.from(lines.join('\n')));
    expect(batch.shapes).toHaveLength(32); // capped: the other 368 travel whole
    expect(batch.others).toHaveLength(368);
  });
});
