/** `standing explain`, `evaluate`, `tune`, `demo` and help, as real processes. */
import { describe, expect, it } from 'vitest';
import { runCli, TABLE1_LABELS, TABLE1_LOG } from '../support/cli.js';

const PAPER_SET = ['--set', 'T=8', '--set', 'x=10', '--set', 'k=4'];

describe('standing explain cqr', () => {
  it('lists every action of the player with its fate; the counted ones sum to the score', async () => {
    const { code, stdout } = await runCli(['explain', 'cqr', TABLE1_LOG, '--player', 'F5', ...PAPER_SET, '--format', 'json']);
    expect(code).toBe(0);
    const explanation = JSON.parse(stdout) as {
      score: number;
      filter: string;
      window: number[];
      actions: { line: number; id: string; delta: number; fate: string }[];
    };
    expect(explanation.score).toBe(125);
    expect(explanation.filter).toBe('positive');
    expect(explanation.actions).toHaveLength(20);
    // F5 is the 5th player of each 20-line round: lines 5, 25, 45, …
    expect(explanation.actions.slice(0, 3).map((a) => [a.line, a.id, a.delta, a.fate])).toEqual([
      [5, 'F5-a01', -3, 'below-x'],
      [25, 'F5-a02', 12, 'counted'],
      [45, 'F5-a03', -5, 'below-x'],
    ]);
    const counted = explanation.actions.filter((a) => a.fate === 'counted').map((a) => a.delta);
    expect(counted).toEqual([12, 21, 13, 20, 13, 22, 24]);
    expect(counted).toEqual(explanation.window);
    expect(explanation.actions.filter((a) => a.fate === 'opposite-sign').map((a) => a.delta)).toEqual([-15, -17, -16, -32]);
  });

  it('prints a table for people', async () => {
    const { stdout } = await runCli(['explain', 'cqr', TABLE1_LOG, '--player', 'F5', ...PAPER_SET]);
    expect(stdout).toContain('cqr  T=8 x=10 k=4  player F5  community default');
    expect(stdout).toContain('score 125 = sum of the 7 counted deltas; the last k deltas are all positive');
    expect(stdout).toMatch(/ 2 +25 +2024-05-01T18:01:12\.000Z +12 +counted/);
    expect(stdout).toMatch(/ 6 +105 +2024-05-01T18:05:12\.000Z +-15 +opposite sign \(g_k\)/);
  });

  it('names an unknown player', async () => {
    const { code, stderr } = await runCli(['explain', 'cqr', TABLE1_LOG, '--player', 'nobody']);
    expect(code).toBe(2);
    expect(stderr).toBe(`standing: player "nobody" has no actions in community "default" of ${TABLE1_LOG}\n`);
  });
});

describe('standing evaluate cqr', () => {
  it('prints the paper’s Table 4 scores for its four parameterizations', async () => {
    const { code, stdout } = await runCli([
      'evaluate', 'cqr', TABLE1_LOG, '--labels', TABLE1_LABELS,
      '--set', 'T=Infinity', '--set', 'x=0', '--set', 'k=Infinity',
      '--compare', 'T=8,x=0,k=8', '--compare', 'T=8,x=10,k=8', '--compare', 'T=8,x=10,k=4',
      '--format', 'json',
    ]);
    expect(code).toBe(0);
    const results = JSON.parse(stdout) as { score: number; auc: number; players: number; labelled: number }[];
    expect(results.map((r) => r.score)).toEqual([24, 100, 92, 104]);
    expect(results.map((r) => r.auc)).toEqual([0.69, 1, 0.97, 1]);
    expect(results.every((r) => r.players === 20 && r.labelled === 20)).toBe(true);
  });

  it('names a bad labels file', async () => {
    const { code, stderr } = await runCli(['evaluate', 'cqr', TABLE1_LOG, '--labels', TABLE1_LOG]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^standing: examples\/cqr-table1\.ndjson line 1: /);
  });
});

describe('standing tune cqr', () => {
  it('finds parameterizations scoring at least the paper’s 104, the same way every run', async () => {
    const args = ['tune', 'cqr', TABLE1_LOG, '--labels', TABLE1_LABELS, '--T', '4,8', '--x', '0,10', '--top', '3', '--format', 'json'];
    const first = await runCli(args);
    expect(first.code).toBe(0);
    const best = JSON.parse(first.stdout) as { rank: number; T: number; x: number; k: number; score: number }[];
    expect(best).toHaveLength(3);
    expect(best[0]!.score).toBeGreaterThanOrEqual(104);
    expect((await runCli(args)).stdout).toBe(first.stdout);
  });

  it('random search is seeded', async () => {
    const args = (seed: string) => ['tune', 'cqr', TABLE1_LOG, '--labels', TABLE1_LABELS, '--search', 'random', '--trials', '30', '--seed', seed, '--top', '30', '--format', 'csv'];
    const a = await runCli(args('5'));
    const b = await runCli(args('5'));
    const c = await runCli(args('6'));
    expect(a.code).toBe(0);
    expect(a.stdout.trim().split('\r\n')).toHaveLength(31);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).not.toBe(c.stdout);
  });

  it('rejects a bad search space', async () => {
    const { code, stderr } = await runCli(['tune', 'cqr', TABLE1_LOG, '--labels', TABLE1_LABELS, '--T', '0,8']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--T expects integers ≥ 1 or Infinity/);
  });
});

describe('standing demo and help', () => {
  it('demo prints the paper’s four rankings side by side and the Table 4 scores', async () => {
    const { code, stdout } = await runCli(['demo']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/ 1 +F1 +300 +F1 +159 +F1 +178 +f1 +188/);
    expect(stdout).toMatch(/T=8 x=10 k=4 +104 +1\n/);
    expect(stdout).toMatch(/T=Infinity x=0 k=Infinity +24 +0\.69\n/);
  });

  it('help lists every command', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    for (const command of ['rank', 'explain', 'evaluate', 'tune', 'demo']) expect(stdout).toContain(command);
  });
});
