/**
 * A log of 8 MiB or more is parsed on worker threads by default (one per core beyond the first)
 * as well as on the main thread; STANDING_PARSE_THREADS chooses. Whatever the threads, the CLI prints the same rankings and the same errors.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'standing-parse-threads-'));

/** About 9.5 MiB: 100,000 actions by 5,000 players in two communities, ISO times. */
function bigLog(): string {
  const lines: string[] = [];
  for (let i = 0; i < 100_000; i++) {
    const time = new Date(Date.UTC(2024, 4, 1) + i * 1000).toISOString();
    const delta = ((i * 7919) % 121) - 60;
    lines.push(`{"type":"action","id":"a${i}","time":"${time}","community":"c${i % 2}","player":"p${(i * 31) % 5000}","delta":${delta}}`);
  }
  return `${lines.join('\n')}\n`;
}

const RANK = ['rank', 'cqr', '--set', 'T=8', '--set', 'x=10', '--set', 'k=4', '--format', 'json', '--top', '20'];

describe('STANDING_PARSE_THREADS', () => {
  const path = join(dir, 'big.ndjson');
  writeFileSync(path, bigLog());

  it('gives the same ranking on the main thread alone and with one, two and (by default here) cores − 1 parse threads', async () => {
    const main = await runCli([...RANK, path], undefined, { STANDING_PARSE_THREADS: '0' });
    expect(main.code).toBe(0);
    const rows = JSON.parse(main.stdout) as { rank: number; player: string; community: string }[];
    expect(rows).toHaveLength(40);
    expect(new Set(rows.map((r) => r.community))).toEqual(new Set(['c0', 'c1']));
    for (const threads of ['1', '2', undefined]) {
      const other = await runCli([...RANK, path], undefined, { STANDING_PARSE_THREADS: threads });
      expect(other.code).toBe(0);
      expect(other.stdout).toBe(main.stdout);
    }
  });

  it('names the same bad line whatever the threads', async () => {
    const bad = join(dir, 'bad.ndjson');
    const lines = bigLog().split('\n');
    lines[77_777] = '{"type":"action","time":"2024-05-01T18:00:00Z","player":"p1","delta":"twelve"}';
    writeFileSync(bad, lines.join('\n'));
    const main = await runCli([...RANK, bad], undefined, { STANDING_PARSE_THREADS: '0' });
    const two = await runCli([...RANK, bad], undefined, { STANDING_PARSE_THREADS: '2' });
    expect(main.code).toBe(1);
    expect(main.stderr).toBe(`standing: ${bad} line 77778: field "delta" must be a number\n`);
    expect(two.code).toBe(1);
    expect(two.stderr).toBe(main.stderr);
  });

  it('rejects a value that is not a thread count', async () => {
    const result = await runCli([...RANK, path], undefined, { STANDING_PARSE_THREADS: 'many' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('STANDING_PARSE_THREADS expects an integer, got "many"');
  });
});
