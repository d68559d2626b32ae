/** The streaming NDJSON reader: line splitting across chunks, line numbers, errors. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  EventSyntaxError,
  EventValidationError,
  InputError,
  openEventSource,
  readEventBatches,
  readEvents,
  readLineBatches,
} from '../../../src/index.js';

/** A source that delivers `text` in the given byte-sized pieces. */
function chunked(text: string, size: number) {
  const bytes = Buffer.from(text, 'utf8');
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
  return { name: 'test.ndjson', stream: Readable.from(pieces) };
}

async function lines(text: string, size: number): Promise<{ line: number; text: string }[]> {
  const out: { line: number; text: string }[] = [];
  for await (const batch of readLineBatches(chunked(text, size))) {
    batch.lines.forEach((t, i) => out.push({ line: batch.firstLine + i, text: t }));
  }
  return out;
}

const event = (player: string) => JSON.stringify({ type: 'action', time: 0, player, delta: 1 });

describe('readLineBatches', () => {
  it('gives the same numbered lines whatever the chunk size, with CRLF and multi-byte characters', async () => {
    const text = `${event('é')}\r\n\n${event('日本')}\n${event('z')}`;
    const expected = [
      { line: 1, text: event('é') },
      { line: 2, text: '' },
      { line: 3, text: event('日本') },
      { line: 4, text: event('z') },
    ];
    for (const size of [1, 2, 3, 7, 64, 4096]) expect(await lines(text, size)).toEqual(expected);
  });

  it('yields nothing for an empty stream', async () => {
    expect(await lines('', 10)).toEqual([]);
  });

  it('issue 14: drops a byte-order mark at the start of the stream, whatever the chunk size, and only there', async () => {
    const text = `\uFEFF${event('a')}\n${event('b')}`;
    for (const size of [1, 2, 3, 4, 4096]) expect(await lines(text, size)).toEqual([{ line: 1, text: event('a') }, { line: 2, text: event('b') }]);
    expect(await lines(`${event('a')}\n\uFEFF${event('b')}`, 4096)).toEqual([{ line: 1, text: event('a') }, { line: 2, text: `\uFEFF${event('b')}` }]);
  });
});

describe('readEventBatches', () => {
  it('skips blank lines and keeps true line numbers', async () => {
    const batches = [];
    for await (const batch of readEventBatches(chunked(`\n${event('a')}\n   \n${event('b')}\n`, 5))) batches.push(batch);
    expect(batches.flatMap((b) => b.lines)).toEqual([2, 4]);
    expect(batches.flatMap((b) => b.events.map((e) => (e as { player: string }).player))).toEqual(['a', 'b']);
  });

  it('stops at a line that is not JSON, naming it', async () => {
    const read = async () => {
      for await (const _ of readEvents(chunked(`${event('a')}\n{"type": "action",\n`, 8))) void _;
    };
    await expect(read()).rejects.toThrow(EventSyntaxError);
    await expect(read()).rejects.toThrow(/^test\.ndjson line 2: is not valid JSON/);
  });

  it('stops at an invalid event, naming line and field', async () => {
    const read = async () => {
      for await (const _ of readEvents(chunked(`${event('a')}\n${event('b')}\n{"type":"action","time":0,"player":"c","delta":"x"}\n`, 16))) void _;
    };
    await expect(read()).rejects.toThrow(EventValidationError);
    await expect(read()).rejects.toThrow('test.ndjson line 3: field "delta" must be a number');
  });

  it('reads a real file, and names a missing one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'standing-'));
    const path = join(dir, 'log.ndjson');
    writeFileSync(path, `${event('a')}\n${event('b')}`);
    const players: string[] = [];
    for await (const e of readEvents(openEventSource(path))) players.push((e as { player: string }).player);
    expect(players).toEqual(['a', 'b']);
    const missing = async () => {
      for await (const _ of readEvents(openEventSource(join(dir, 'nope.ndjson')))) void _;
    };
    await expect(missing()).rejects.toThrow(InputError);
    await expect(missing()).rejects.toThrow(/nope\.ndjson: no such file/);
  });
});
