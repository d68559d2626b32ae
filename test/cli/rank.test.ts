/** `standing rank` as a real process. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { runCli, TABLE1_LOG } from '../support/cli.js';

const PAPER_SET = ['--set', 'T=8', '--set', 'x=10', '--set', 'k=4'];

describe('standing rank cqr', () => {
  it('lists f1 188, F1 178, F4 170, f3 144, F5 125 first under (8,10,4) as JSON', async () => {
    const { code, stdout, stderr } = await runCli(['rank', 'cqr', TABLE1_LOG, ...PAPER_SET, '--format', 'json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as { rank: number; player: string; score: number }[];
    expect(rows).toHaveLength(20);
    expect(rows.slice(0, 5).map((r) => [r.rank, r.player, r.score])).toEqual([
      [1, 'f1', 188],
      [2, 'F1', 178],
      [3, 'F4', 170],
      [4, 'f3', 144],
      [5, 'F5', 125],
    ]);
    expect(rows[0]).toEqual({ rank: 1, player: 'f1', score: 188, community: 'default', actions: 20 });
  });

  it('prints an aligned table with the parameters in its header', async () => {
    const { code, stdout } = await runCli(['rank', 'cqr', TABLE1_LOG, ...PAPER_SET, '--top', '3']);
    expect(code).toBe(0);
    expect(stdout).toBe(
      ['cqr  T=8 x=10 k=4', '', 'rank  player  score  actions', '   1  f1        188       20', '   2  F1        178       20', '   3  F4        170       20', ''].join('\n'),
    );
  });

  it('prints CSV with a header and CRLF line ends (RFC 4180)', async () => {
    const { stdout } = await runCli(['rank', 'cqr', TABLE1_LOG, '--format', 'csv', '--top', '2']);
    expect(stdout).toBe('community,rank,player,score,actions\r\ndefault,1,f1,188,20\r\ndefault,2,F1,178,20\r\n');
  });

  it('accepts T=Infinity and k=Infinity (equation 2) and reads standard input', async () => {
    const input = readFileSync(TABLE1_LOG, 'utf8');
    const { code, stdout } = await runCli(['rank', 'cqr', '-', '--set', 'T=Infinity', '--set', 'x=0', '--set', 'k=Infinity', '--format', 'json', '--top', '2'], input);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).map((r: { player: string; score: number }) => [r.player, r.score])).toEqual([
      ['F1', 300],
      ['F4', 289],
    ]);
  });

  it('runs several parameterizations on one pass with --compare', async () => {
    const { code, stdout } = await runCli(['rank', 'cqr', TABLE1_LOG, ...PAPER_SET, '--compare', 'T=8,x=0,k=8', '--format', 'json', '--top', '1']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([
      { scorer: 'cqr', params: { T: 8, x: 10, k: 4 }, ranking: [{ rank: 1, player: 'f1', score: 188, community: 'default', actions: 20 }] },
      { scorer: 'cqr', params: { T: 8, x: 0, k: 8 }, ranking: [{ rank: 1, player: 'F1', score: 159, community: 'default', actions: 20 }] },
    ]);
    const table = await runCli(['rank', 'cqr', TABLE1_LOG, ...PAPER_SET, '--compare', 'T=8,x=0,k=8', '--top', '2']);
    expect(table.stdout).toContain('rank  T=8 x=10 k=4  score  T=8 x=0 k=8  score');
    expect(table.stdout).toContain('   1  f1              188  F1             159');
  });

  it('ranks each community separately and filters with --community', async () => {
    const log = [
      { type: 'action', time: 0, community: 'eu', player: 'a', delta: 20 },
      { type: 'action', time: 0, community: 'us', player: 'a', delta: -20 },
      { type: 'action', time: 0, community: 'us', player: 'b', delta: 30 },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n');
    const all = await runCli(['rank', 'cqr', '-', '--format', 'json'], log);
    expect(JSON.parse(all.stdout).map((r: { community: string; rank: number; player: string }) => `${r.community}:${r.rank}:${r.player}`)).toEqual([
      'eu:1:a',
      'us:1:b',
      'us:2:a',
    ]);
    const us = await runCli(['rank', 'cqr', '-', '--community', 'us', '--format', 'csv'], log);
    expect(us.stdout.trim().split('\r\n')).toEqual(['community,rank,player,score,actions', 'us,1,b,30,1', 'us,2,a,-20,1']);
  });
});

describe('issue 26: standing rank --format csv guards against spreadsheet formulas', () => {
  it('puts an apostrophe before a player id a spreadsheet would run, quotes one with a comma, and leaves negative scores numbers', async () => {
    const log = [
      { type: 'action', time: 0, player: '=HYPERLINK("http://evil")', delta: 30 },
      { type: 'action', time: 0, player: 'smith, j', delta: 10 },
      { type: 'action', time: 0, player: '-x', delta: -20 },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n');
    const { code, stdout } = await runCli(['rank', 'cqr', '-', '--format', 'csv'], log);
    expect(code).toBe(0);
    expect(stdout).toBe(
      ['community,rank,player,score,actions', `default,1,"'=HYPERLINK(""http://evil"")",30,1`, 'default,2,"smith, j",10,1', "default,3,'-x,-20,1", ''].join('\r\n'),
    );
  });
});

describe('standing rank: repeated ids (docs/spec.md §1)', () => {
  it('applies the first event of an id in its community and leaves the later ones out, saying how many', async () => {
    const log = [
      { type: 'action', time: 0, community: 'eu', id: 'x', player: 'a', delta: 20 },
      { type: 'action', time: 1, community: 'eu', id: 'x', player: 'a', delta: 500 }, // a retry that came twice: ignored
      { type: 'action', time: 1, community: 'us', id: 'x', player: 'a', delta: 7 }, // ids are per community
      { type: 'action', time: 2, community: 'eu', player: 'b', delta: 5 },
      { type: 'action', time: 3, community: 'eu', player: 'b', delta: 5 }, // no id: never a repeat
      { type: 'action', time: 4, community: 'eu', id: 'x', player: 'b', delta: -90 },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n');
    const { code, stdout, stderr } = await runCli(['rank', 'cqr', '-', '--format', 'csv', '--set', 'T=Infinity', '--set', 'x=0', '--set', 'k=Infinity'], log);
    expect(code).toBe(0);
    expect(stdout.trim().split('\r\n')).toEqual(['community,rank,player,score,actions', 'eu,1,a,20,1', 'eu,2,b,10,2', 'us,1,a,7,1']);
    expect(stderr).toBe('standing: 2 events left out: their ids were already taken by an earlier event of the community\n');
  });
});

describe('standing rank: bad input', () => {
  it('stops at a malformed line naming the file, line, field and reason (exit 1)', async () => {
    const log = `${JSON.stringify({ type: 'action', time: 0, player: 'a', delta: 1 })}\n\n${JSON.stringify({ type: 'action', time: 0, player: 'b', delta: 'big' })}\n`;
    const { code, stdout, stderr } = await runCli(['rank', 'cqr', '-'], log);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe('standing: stdin line 3: field "delta" must be a number\n');
  });

  it('issue 14: reads a log that starts with a byte-order mark, and names an event nested too deep or holding a NUL', async () => {
    const input = readFileSync(TABLE1_LOG, 'utf8');
    const plain = await runCli(['rank', 'cqr', '-', '--format', 'json', '--top', '3'], input);
    const marked = await runCli(['rank', 'cqr', '-', '--format', 'json', '--top', '3'], `\uFEFF${input}`);
    expect(marked).toEqual(plain);
    expect(plain.code).toBe(0);
    const deep = `${JSON.stringify({ type: 'action', time: 0, player: 'a', delta: 1 }).slice(0, -1)},"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const refused = await runCli(['rank', 'cqr', '-'], deep);
    expect(refused.stderr).toBe(`standing: stdin line 1: field "x${'/0'.repeat(31)}" nests objects and arrays deeper than the limit of 32 levels (maxEventDepth)\n`);
    const nul = await runCli(['rank', 'cqr', '-'], JSON.stringify({ type: 'action', time: 0, player: 'a\u0000', delta: 1 }));
    expect(nul.stderr).toBe('standing: stdin line 1: field "player" contains a NUL character (U+0000) at position 1: the stores cannot keep it\n');
  });

  it('names a line that is not JSON', async () => {
    const { code, stderr } = await runCli(['rank', 'cqr', '-'], '{"type":"action"\n');
    expect(code).toBe(1);
    expect(stderr).toMatch(/^standing: stdin line 1: is not valid JSON/);
  });

  it('names a domain action the domain cannot apply', async () => {
    const log = JSON.stringify({ type: 'action', time: 0, player: 'p', domain: 'clustering', dot: 'd1', x: 1, y: 2 });
    const { code, stderr } = await runCli(['rank', 'cqr', '-'], log);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^standing: stdin line 1: field "dot"/);
  });

  it('names a missing file', async () => {
    const { code, stderr } = await runCli(['rank', 'cqr', 'no/such/log.ndjson']);
    expect(code).toBe(1);
    expect(stderr).toBe('standing: no/such/log.ndjson: no such file\n');
  });

  it('issue 15: takes an inherited property of the scorer table for no scorer (it crashed with a stack trace)', async () => {
    const inherited = await runCli(['rank', 'constructor', TABLE1_LOG]);
    expect([inherited.code, inherited.stderr]).toEqual([2, 'standing: unknown scorer "constructor" (available: cqr, reliability, chat, trust, reports)\n']);
  });

  it('rejects invalid parameters (exit 1) and unknown scorers and options (exit 2)', async () => {
    const k = await runCli(['rank', 'cqr', TABLE1_LOG, '--set', 'T=4', '--set', 'k=6']);
    expect(k.code).toBe(1);
    expect(k.stderr).toBe('standing: cqr parameter "k" must be ≤ T (1 ≤ k ≤ T), got k=6 with T=4\n');
    const unknown = await runCli(['rank', 'cqr', TABLE1_LOG, '--set', 'window=4']);
    expect(unknown.stderr).toMatch(/parameter "window" is not a parameter of cqr \(known: T, x, k\)/);
    const scorer = await runCli(['rank', 'elo', TABLE1_LOG]);
    expect(scorer.code).toBe(2);
    expect(scorer.stderr).toBe('standing: unknown scorer "elo" (available: cqr, reliability, chat, trust, reports)\n');
    const malformedSet = await runCli(['rank', 'cqr', TABLE1_LOG, '--set', 'T8']);
    expect(malformedSet.code).toBe(2);
    expect(malformedSet.stderr).toMatch(/--set expects key=value, got "T8"/);
    const format = await runCli(['rank', 'cqr', TABLE1_LOG, '--format', 'xml']);
    expect(format.code).toBe(2);
    const option = await runCli(['rank', 'cqr', TABLE1_LOG, '--colour']);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/unknown option '--colour'/);
  });
});
