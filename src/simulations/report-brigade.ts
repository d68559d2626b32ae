/**
 * How far can a brigade of N colluding reporters push an innocent player up the bad-player
 * ranking (docs/spec.md §5)? A seeded community: every player has played some games; a few players are
 * truly bad and draw reports from random honest players; honest players also make occasional
 * mistaken reports. Then N brigade accounts, each with the median number of games, all report
 * one innocent player. Runs through `reports.evolve` and `reports.rank`.
 */
import type { StandingEvent } from '../events/types.js';
import { reports } from '../scorers/reports/scorer.js';
import { randomInt, type Rng } from '../util/random.js';

export interface ReportBrigadeOptions {
  readonly players: number;
  readonly bad: number;
  /** Reports each bad player draws from honest players. */
  readonly reportsPerBad: number;
  /** Mistaken reports of random honest players. */
  readonly noise: number;
  readonly brigades: readonly number[];
  readonly rng: Rng;
}

export interface ReportBrigadePoint {
  readonly brigade: number;
  /** The innocent player's rank in the bad-player ranking (1 = worst). */
  readonly rank: number;
  readonly bp: number;
  /** Bad-player points of the least-reported truly bad player, for comparison. */
  readonly weakestBadBp: number;
}

export function simulateReportBrigade(options: ReportBrigadeOptions): ReportBrigadePoint[] {
  const { rng } = options;
  const players = Array.from({ length: options.players }, (_, i) => `player-${i + 1}`);
  const bad = players.slice(0, options.bad);
  const honest = players.slice(options.bad);
  const innocent = honest[honest.length - 1]!;
  const base: StandingEvent[] = [];
  const games = players.map(() => randomInt(rng, 20, 200));
  players.forEach((p, i) => base.push({ type: 'played', time: 0, community: 'default', player: p, games: games[i]! }));
  for (const b of bad) {
    for (let r = 0; r < options.reportsPerBad; r++) base.push({ type: 'report', time: 1, community: 'default', from: honest[randomInt(rng, 0, honest.length - 2)]!, to: b });
  }
  for (let r = 0; r < options.noise; r++) {
    base.push({ type: 'report', time: 1, community: 'default', from: honest[randomInt(rng, 0, honest.length - 2)]!, to: honest[randomInt(rng, 0, honest.length - 2)]! });
  }
  const median = [...games].sort((a, b) => a - b)[games.length >> 1]!;
  return options.brigades.map((n) => {
    const state = reports.initialState(reports.params.resolve({}));
    for (const e of base) reports.evolve(state, e);
    for (let i = 0; i < n; i++) {
      const member = `brigade-${i + 1}`;
      reports.evolve(state, { type: 'played', time: 2, community: 'default', player: member, games: median });
      reports.evolve(state, { type: 'report', time: 2, community: 'default', from: member, to: innocent });
    }
    const rows = reports.rank(state);
    const row = rows.find((r) => r.player === innocent)!;
    const badSet = new Set(bad);
    return { brigade: n, rank: row.rank, bp: row.score, weakestBadBp: Math.min(...rows.filter((r) => badSet.has(r.player)).map((r) => r.score)) };
  });
}
