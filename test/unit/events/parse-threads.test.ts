/**
 * readEventBatches hands work to parse threads when asked to (or, for a file of 8 MiB or more,
 * by default: defaultParseThreads), and they give the events the calling thread alone gives.
 * The threads run the compiled worker from dist/, or with no build its source. The core count is
 * node:os's, mocked here to play 1, 2, 3 and many cores; nothing of ours is mocked.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultParseThreads, openEventSource, readEventBatches } from '../../../src/events/ndjson.js';

vi.mock('node:os', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:os')>();
  return { ...actual, availableParallelism: vi.fn(actual.availableParallelism) };
});

const cores = vi.mocked(os.availableParallelism);

afterEach(() => {
  cores.mockReset();
  vi.restoreAllMocks();
});

const MIB = 1 << 20;
const THRESHOLD = 8 * MIB;

const dir = mkdtempSync(join(os.tmpdir(), 'standing-parse-threads-'));
let files = 0;

/** A log of `bytes` or a little more, of varied events, one per line. */
function log(bytes: number): string {
  const path = join(dir, `log-${files++}.ndjson`);
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = [
      `{"type":"action","time":${i},"player":"p${i % 97}","delta":${(i % 21) - 10}}`,
      `{"type":"rating","time":${i},"from":"p${i % 13}","to":"q${i % 7}","value":${((i % 200) - 100) / 100}}`,
      `{"type":"chat","time":${i},"from":"p${i % 5}","to":["a","b"],"note":"${i}"}`,
      `{"type":"played","time":${i},"player":"p${i % 31}","games":${(i % 9) + 1}}`,
    ][i % 4]!;
    lines.push(line);
    size += line.length + 1;
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

async function read(path: string, parseThreads?: number): Promise<{ events: unknown[]; lines: number[] }> {
  const out = { events: [] as unknown[], lines: [] as number[] };
  for await (const batch of readEventBatches(openEventSource(path), parseThreads === undefined ? {} : { parseThreads })) {
    out.events.push(...batch.events);
    out.lines.push(...batch.lines);
  }
  return out;
}

/** What reading `path` gives, and the parse threads it started and posted chunks to. */
async function watched(path: string, parseThreads?: number) {
  const terminate = vi.spyOn(Worker.prototype, 'terminate');
  const post = vi.spyOn(Worker.prototype, 'postMessage');
  const result = await read(path, parseThreads);
  const started = terminate.mock.contexts.length; // the reader terminates every thread it started
  const posted = post.mock.calls.length;
  const busy = new Set(post.mock.contexts).size;
  terminate.mockRestore();
  post.mockRestore();
  return { ...result, started, posted, busy };
}

describe('readEventBatches with parse threads', () => {
  it('with parseThreads: 2, starts two threads, posts chunks to both, and gives the events of parseThreads: 0', async () => {
    const path = log(3.5 * MIB); // four chunks of 1 MiB
    const serial = await watched(path, 0);
    expect(serial.started).toBe(0);
    expect(serial.posted).toBe(0);
    const parallel = await watched(path, 2);
    expect(parallel.started).toBe(2);
    expect(parallel.busy).toBe(2);
    expect(parallel.posted).toBeGreaterThanOrEqual(2);
    expect(parallel.events.length).toBeGreaterThan(50_000);
    expect(parallel.events).toStrictEqual(serial.events);
    expect(parallel.lines).toEqual(serial.lines);
  });

  it('by default, starts threads for a file of 8 MiB as the core count allows, none for a smaller one', async () => {
    const big = log(THRESHOLD);
    const small = log(THRESHOLD - 2 * MIB);
    cores.mockReturnValue(3);
    const expected = await watched(big, 0);
    const parallel = await watched(big);
    expect(parallel.started).toBe(2);
    expect(parallel.posted).toBeGreaterThanOrEqual(2);
    expect(parallel.events).toStrictEqual(expected.events);
    expect(parallel.lines).toEqual(expected.lines);
    expect((await watched(small)).started).toBe(0);
    cores.mockReturnValue(1);
    const alone = await watched(big);
    expect(alone.started).toBe(0);
    expect(alone.events).toHaveLength(expected.events.length);
  });
});

describe('defaultParseThreads', () => {
  it('gives none for a source of unknown size or under 8 MiB', () => {
    cores.mockReturnValue(16);
    for (const bytes of [undefined, 0, 1, MIB, THRESHOLD - 1]) expect(defaultParseThreads(bytes)).toBe(0);
  });

  it('gives a file of 8 MiB or more one thread per core beyond the first, at most 3', () => {
    for (const [n, threads] of [
      [1, 0],
      [2, 1],
      [3, 2],
      [4, 3],
      [5, 3],
      [64, 3],
    ] as const) {
      cores.mockReturnValue(n);
      for (const bytes of [THRESHOLD, THRESHOLD + 1, 1 << 30]) expect(defaultParseThreads(bytes), `${n} cores, ${bytes} bytes`).toBe(threads);
      expect(defaultParseThreads(THRESHOLD - 1)).toBe(0);
    }
  });
});
