/**
 * The command line for moderators (issue 15, point 5): the worst players first, a hint instead of
 * an empty table, and every scorer's parameters in --help.
 */
import { describe, expect, it } from 'vitest';
import { runCli, TABLE1_LOG } from '../support/cli.js';

const MATCHES = 'examples/matches.ndjson';
const rows = (stdout: string) => (JSON.parse(stdout) as { rank: number; player: string }[]).map((r) => [r.rank, r.player]);

describe('standing rank --order worst', () => {
  it('lists the bottom of the ranking first, ranks kept, and --top takes the worst n', async () => {
    const best = rows((await runCli(['rank', 'reliability', MATCHES, '--format', 'json'])).stdout);
    const worst = await runCli(['rank', 'reliability', MATCHES, '--format', 'json', '--order', 'worst', '--top', '3']);
    expect(worst.code).toBe(0);
    expect(rows(worst.stdout)).toEqual(best.slice(-3).reverse());
  });

  it('for reports, where rank 1 is the worst, keeps rank order', async () => {
    const log = [
      ...['a', 'b', 'c'].map((p, i) => ({ type: 'played', time: i, player: p, games: 10 })),
      { type: 'report', time: 5, from: 'a', to: 'c' },
      { type: 'report', time: 6, from: 'b', to: 'c' },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n');
    const best = await runCli(['rank', 'reports', '-', '--format', 'json'], log);
    const worst = await runCli(['rank', 'reports', '-', '--format', 'json', '--order', 'worst', '--top', '1'], log);
    expect(rows(worst.stdout)).toEqual([[1, 'c']]);
    expect(rows(best.stdout)[0]).toEqual([1, 'c']);
  });

  it('refuses another order', async () => {
    const bad = await runCli(['rank', 'cqr', TABLE1_LOG, '--order', 'bottom']);
    expect([bad.code, bad.stderr]).toEqual([2, 'standing: --order expects best or worst, got "bottom"\n']);
  });
});

describe('standing rank: a hint instead of an empty table', () => {
  it('names the communities that have events when --community matched none', async () => {
    const result = await runCli(['rank', 'cqr', TABLE1_LOG, '--community', 'eu']);
    expect([result.code, result.stdout]).toEqual([0, '']);
    expect(result.stderr).toBe(`standing: no community "eu" has cqr events in ${TABLE1_LOG} (communities that do: default)\n`);
  });

  it('names the events a scorer uses when the log has none of them (JSON still prints the empty list)', async () => {
    const result = await runCli(['rank', 'reports', TABLE1_LOG, '--format', 'json']);
    expect(JSON.parse(result.stdout)).toEqual([]);
    expect(result.stderr).toBe(`standing: no player to rank: ${TABLE1_LOG} has no event reports uses (match.start, match.end, report, played, verdict)\n`);
  });
});

describe('standing rank --help', () => {
  it("lists every scorer's parameters with their defaults, and examples", async () => {
    const help = (await runCli(['rank', '--help'])).stdout;
    expect(help).toContain('  cqr          T=8 x=10 k=4\n');
    expect(help).toContain('  trust        observers=(required) expireHours=1 ttlMax=720');
    expect(help).toMatch(/reliability {2}keepDays=100 /);
    expect(help).toMatch(/chat {9}recipe=1 /);
    expect(help).toContain('  reports      maxIterations=200 tolerance=1e-9 damping=0.5 sharedMatchDays=0 oneVoicePerMatch=false oneVoicePerReporter=false judgmentSplit=1 accuracyPrior=Infinity\n');
    expect(help).toContain('standing rank reliability matches.ndjson --order worst --top 10');
  });
});
