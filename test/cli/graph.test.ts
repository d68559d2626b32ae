/** `standing rank|explain trust|reports` as real processes. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const ndjson = (events: object[]) => events.map((e) => JSON.stringify({ time: 0, ...e })).join('\n');
const ratings = ndjson([
  { type: 'rating', from: 'o', to: 'a', value: 1 },
  { type: 'rating', from: 'o', to: 'b', value: -0.5 },
  { type: 'rating', from: 'a', to: 'c', value: 0.8 },
  { type: 'rating', from: 'b', to: 'c', value: -1 },
]);

describe('standing rank trust', () => {
  it('ranks by reputation seen by the observers; a personal view adds the observer’s own rating', async () => {
    const { code, stdout } = await runCli(['rank', 'trust', '-', '--set', 'observers=o', '--format', 'json'], ratings);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([
      { rank: 1, player: 'a', score: 1, community: 'default', ratings: 1, rating: 1 },
      { rank: 2, player: 'c', score: 0.8, community: 'default', ratings: 2, rating: null },
      { rank: 3, player: 'b', score: -0.5, community: 'default', ratings: 1, rating: -0.5 },
    ]);
  });

  it('--stats prints iterations and the final RMSD on standard error', async () => {
    const { stderr } = await runCli(['rank', 'trust', '-', '--set', 'observers=o', '--stats', '--format', 'json'], ratings);
    expect(stderr).toMatch(/^trust observers=o .* community default: 3 iterations, final residual 0\.000e\+0, [\d.]+ ms\n$/);
  });

  it('names a missing observer set', async () => {
    const { code, stderr } = await runCli(['rank', 'trust', '-'], ratings);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^standing: trust parameter "observers" is required/);
  });

  it('explains a reputation by its ratings and their weights', async () => {
    const { stdout } = await runCli(['explain', 'trust', '-', '--set', 'observers=o', '--player', 'c', '--format', 'json'], ratings);
    const e = JSON.parse(stdout) as { score: number; ratings: { rater: string; share: number }[] };
    expect(e.score).toBe(0.8);
    expect(e.ratings.map((r) => [r.rater, r.share])).toEqual([
      ['a', 1],
      ['b', 0],
    ]);
  });
});

describe('standing rank reports', () => {
  const log = ndjson([
    ...['a', 'b', 'c', 'd'].map((player) => ({ type: 'played', player, games: 10 })),
    { type: 'report', from: 'a', to: 'd' },
    { type: 'report', from: 'b', to: 'd' },
    { type: 'report', from: 'c', to: 'd', reason: 'feeding' },
    { type: 'report', from: 'd', to: 'a' },
  ]);

  it('prints {rank, player, score, jp, …} with score the bad-player points', async () => {
    const { code, stdout } = await runCli(['rank', 'reports', '-', '--defences', 'published', '--format', 'json', '--top', '1'], log);
    expect(code).toBe(0);
    const [row] = JSON.parse(stdout) as { rank: number; player: string; score: number; jp: number }[];
    expect(row!.player).toBe('d');
    expect(row!.score).toBeCloseTo(3, 8);
    expect(row!.jp).toBeCloseTo(0, 8);
  });

  it('explains bad-player points by the reports', async () => {
    const { stdout } = await runCli(['explain', 'reports', '-', '--defences', 'published', '--player', 'd'], log);
    expect(stdout).toContain('reports  player d  community default');
    expect(stdout).toMatch(/bad-player points 3 = sum of the weights below/);
  });
});

describe('standing simulate (graph experiments)', () => {
  it('report-brigade prints the innocent’s rank per brigade size', async () => {
    const { code, stdout } = await runCli(['simulate', 'report-brigade', '--players', '200', '--bad', '10', '--brigades', '0,30', '--format', 'json']);
    expect(code).toBe(0);
    const { points } = JSON.parse(stdout) as { points: { brigade: number; rank: number }[] };
    expect(points.map((p) => p.brigade)).toEqual([0, 30]);
    expect(points[1]!.rank).toBe(1);
  });

  it('trust-convergence and trust-collusion read a ratings file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'standing-')), 'ratings.ndjson');
    writeFileSync(file, ratings);
    const convergence = await runCli(['simulate', 'trust-convergence', '--data', file, '--iterations', '5', '--format', 'json']);
    expect(convergence.stderr).toBe('');
    expect((JSON.parse(convergence.stdout) as { rmsd: number[] }).rmsd).toHaveLength(5);
    const collusion = await runCli(['simulate', 'trust-collusion', '--data', file, '--groups', '0.5', '--steps', '2', '--endorsers', '1', '--viewers', '2', '--format', 'json']);
    expect(collusion.stderr).toBe('');
    const { curves } = JSON.parse(collusion.stdout) as { curves: { positive: number[] }[] };
    expect(curves[0]!.positive).toHaveLength(3);
    expect(curves[0]!.positive[2]).toBe(0);
  });
});
