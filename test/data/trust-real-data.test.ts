/**
 * `trust` on the SNAP Bitcoin OTC and Alpha signed networks (../shared/data), imported by the
 * real CLI. Observers: the ten players with the most positive ratings. TTL_MAX is raised to 20
 * years so the 2010–2016 ratings do not expire within the log. Defensible checks: every rating
 * is imported, the iteration converges within tens of iterations (the paper's claim), every
 * reputation is a number in [−1, 1], the players rated only negatively (most often) come out
 * negative, and the result repeats exactly.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { trust, trustStats, validateEvent, type RatingEvent } from '../../src/index.js';
import { mostTrusted } from '../../src/simulations/trust-convergence.js';
import { ROOT } from '../support/cli.js';
import { dataFile } from './support.js';

function imported(file: string): RatingEvent[] {
  const out = execFileSync(process.execPath, ['dist/cli/main.js', 'import', 'bitcoin-otc', file], { cwd: ROOT, maxBuffer: 1 << 28 }).toString();
  return out.trim().split('\n').map((line) => validateEvent(JSON.parse(line)) as RatingEvent);
}

function rank(events: readonly RatingEvent[], observers: readonly string[]) {
  const state = trust.initialState(trust.params.resolve({ observers, ttlMax: 24 * 365 * 20 }));
  for (const e of events) trust.evolve(state, e);
  return { rows: trust.rank(state), stats: trustStats(state)[0]! };
}

describe.each([
  ['Bitcoin OTC', 'bitcoin-otc/soc-sign-bitcoinotc.csv', 35_592],
  ['Bitcoin Alpha', 'bitcoin-alpha/soc-sign-bitcoinalpha.csv', 24_186],
])('%s', (_name, path, count) => {
  const events = imported(dataFile(...path.split('/')));
  const positive = new Map<string, number>();
  const negative = new Map<string, number>();
  for (const e of events) (e.value > 0 ? positive : negative).set(e.to, ((e.value > 0 ? positive : negative).get(e.to) ?? 0) + 1);
  const observers = mostTrusted(events, 10);

  it('imports every rating and converges within tens of iterations', () => {
    expect(events).toHaveLength(count);
    const { stats } = rank(events, observers);
    expect(stats.converged).toBe(true);
    expect(stats.iterations).toBeLessThanOrEqual(50);
    expect(stats.residual).toBeLessThan(1e-9);
  });

  it('gives every player a reputation in [−1, 1]; those rated only negatively come out negative', () => {
    const { rows } = rank(events, observers);
    for (const row of rows) {
      expect(Number.isFinite(row.score)).toBe(true);
      expect(Math.abs(row.score)).toBeLessThanOrEqual(1);
    }
    const score = new Map(rows.map((r) => [r.player, r.score]));
    const condemned = [...negative].filter(([p]) => !positive.has(p)).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 20);
    for (const [player] of condemned) expect(score.get(player)!).toBeLessThan(0);
  });

  it('repeats exactly', () => {
    expect(rank(events, observers).rows).toEqual(rank(events, observers).rows);
  });
});
