/** `standing rank reliability` and `standing explain reliability` as real processes. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const MATCHES = 'examples/matches.ndjson';

describe('standing rank reliability', () => {
  it('prints {rank, player, score, confidence, band, bar}; more evidence first on ties', async () => {
    const { code, stdout, stderr } = await runCli(['rank', 'reliability', MATCHES, '--format', 'json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as Record<string, unknown>[];
    expect(rows.map((r) => [r.rank, r.player, r.score, r.confidence, r.band, r.bar])).toEqual([
      [1, 'bob', 1, 2, 'green', 0.2],
      [2, 'dan', 1, 2, 'green', 0.2],
      [3, 'ann', 1, 1, 'green', 0.1],
      [4, 'eve', 1, 1, 'green', 0.1],
      [5, 'gnubg', 1, 1, 'green', 0.1],
      [6, 'cat', 0.5, 3, 'red', 0.3],
      [7, 'fay', -1, 1, 'red', 0.1],
    ]);
  });

  it('prints a table with the band and bar columns', async () => {
    const { stdout } = await runCli(['rank', 'reliability', MATCHES, '--top', '1']);
    expect(stdout).toContain('reliability  keepDays=100 finish=1 drop=-1 resume=1.5 fullBar=10 green=0.95 yellow=0.85 orange=0.65');
    expect(stdout).toContain('rank  player  score  confidence  band   bar\n   1  bob         1           2  green  0.2\n');
  });

  it('expires with --set keepDays', async () => {
    const { stdout } = await runCli(['rank', 'reliability', MATCHES, '--set', 'keepDays=1', '--format', 'json']);
    // the newest event is on June 3rd at 13:00: only events since June 2nd 13:00 are kept
    expect((JSON.parse(stdout) as { player: string }[]).map((r) => r.player)).toEqual(['bob', 'dan', 'fay']);
  });
});

describe('standing explain reliability', () => {
  it('lists the scored events that make up the score', async () => {
    const { code, stdout } = await runCli(['explain', 'reliability', MATCHES, '--defences', 'published', '--community', 'fibs', '--player', 'cat', '--format', 'json']);
    expect(code).toBe(0);
    const e = JSON.parse(stdout) as { score: number; confidence: number; band: string; events: { kind: string; match: string; value: number; time: string }[] };
    expect(e).toMatchObject({ score: 0.5, confidence: 3, band: 'red' });
    expect(e.events).toEqual([
      { time: '2024-06-01T19:10:00.000Z', value: -1, kind: 'drop', match: 'm2' },
      { time: '2024-06-01T19:20:00.000Z', value: 1.5, kind: 'resume', match: 'm2' },
      { time: '2024-06-01T19:40:00.000Z', value: 1, kind: 'finish', match: 'm2' },
    ]);
    const table = await runCli(['explain', 'reliability', MATCHES, '--defences', 'published', '--community', 'fibs', '--player', 'cat']);
    expect(table.stdout).toContain('reliability 0.5 = mean of 3 scored events; band red, bar 0.3');
    expect(table.stdout).toMatch(/1 +2024-06-01T19:10:00\.000Z +m2 +dropped a running match +-1/);
  });

  it('gives a match of length 0 under minMatchMinutes a finite score, with the weights shown', async () => {
    // One match of a and b, started and ended at once: weight 10⁻⁶, reliability 1, confidence 10⁻⁶.
    const log = '{"type":"match.start","time":0,"community":"c","match":"m1","players":["a","b"]}\n{"type":"match.end","time":0,"community":"c","match":"m1"}\n';
    const rank = await runCli(['rank', 'reliability', '-', '--set', 'minMatchMinutes=5', '--format', 'json'], log);
    expect(rank.stderr).toBe('');
    expect((JSON.parse(rank.stdout) as Record<string, unknown>[]).map((r) => [r.player, r.score, r.confidence])).toEqual([['a', 1, 1e-6], ['b', 1, 1e-6]]);
    const explained = await runCli(['explain', 'reliability', '-', '--community', 'c', '--player', 'a', '--set', 'minMatchMinutes=5'], log);
    expect(explained.stdout).toContain('reliability 1 = weighted mean of 1 scored events, total weight 1.00e-6; band green, bar 0');
    expect(explained.stdout).toMatch(/1 +1970-01-01T00:00:00\.000Z +m1 +finished the match +1 +1\.00e-6/);
  });

  it('names a player without scored events', async () => {
    const { code, stderr } = await runCli(['explain', 'reliability', MATCHES, '--community', 'fibs', '--player', 'nobody']);
    expect(code).toBe(2);
    expect(stderr).toBe(`standing: player "nobody" has no scored events in community "fibs" of ${MATCHES}\n`);
  });
});
