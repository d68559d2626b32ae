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

/** The seeded community of the simulation, and the brigade of each size (./report-brigade.ts's header). */
export interface ReportBrigadeLog {
  /** Everyone's games, the reports the truly bad draw, and the mistaken ones, in that order. */
  readonly base: readonly StandingEvent[];
  readonly bad: readonly string[];
  /** The honest player the brigade reports. */
  readonly innocent: string;
  /** The events of a brigade of `n` accounts: each plays the median number of games and reports the innocent. */
  brigade(n: number): StandingEvent[];
}

/**
 * The simulation's log. With `matches`, every honest report follows a match its two players
 * started together (a `match.start`, just before it) and the brigade starts one match of its own,
 * never with the innocent: the log of a community that sends matches, which the shared-match
 * defence reads. The random draws are the same either way.
 */
export function reportBrigadeLog(options: Omit<ReportBrigadeOptions, 'brigades'> & { readonly matches?: boolean }): ReportBrigadeLog {
  const { rng } = options;
  const matches = options.matches === true;
  const players = Array.from({ length: options.players }, (_, i) => `player-${i + 1}`);
  const bad = players.slice(0, options.bad);
  const honest = players.slice(options.bad);
  const innocent = honest[honest.length - 1]!;
  const base: StandingEvent[] = [];
  const games = players.map(() => randomInt(rng, 20, 200));
  players.forEach((p, i) => base.push({ type: 'played', time: 0, community: 'default', player: p, games: games[i]! }));
  const report = (from: string, to: string) => {
    if (matches) base.push({ type: 'match.start', time: 1, community: 'default', match: `match-${base.length}`, players: [from, to] });
    base.push({ type: 'report', time: 1, community: 'default', from, to });
  };
  for (const b of bad) {
    for (let r = 0; r < options.reportsPerBad; r++) report(honest[randomInt(rng, 0, honest.length - 2)]!, b);
  }
  for (let r = 0; r < options.noise; r++) {
    report(honest[randomInt(rng, 0, honest.length - 2)]!, honest[randomInt(rng, 0, honest.length - 2)]!);
  }
  const median = [...games].sort((a, b) => a - b)[games.length >> 1]!;
  return {
    base,
    bad,
    innocent,
    brigade(n) {
      const members = Array.from({ length: n }, (_, i) => `brigade-${i + 1}`);
      const events: StandingEvent[] = members.map((member) => ({ type: 'played', time: 2, community: 'default', player: member, games: median }));
      if (matches && n > 0) events.push({ type: 'match.start', time: 2, community: 'default', match: 'brigade', players: members });
      for (const member of members) events.push({ type: 'report', time: 2, community: 'default', from: member, to: innocent });
      return events;
    },
  };
}

export function simulateReportBrigade(options: ReportBrigadeOptions): ReportBrigadePoint[] {
  const log = reportBrigadeLog(options);
  const badSet = new Set(log.bad);
  return options.brigades.map((n) => {
    const state = reports.initialState(reports.params.resolve({}));
    for (const e of [...log.base, ...log.brigade(n)]) reports.evolve(state, e);
    const rows = reports.rank(state);
    const row = rows.find((r) => r.player === log.innocent)!;
    return { brigade: n, rank: row.rank, bp: row.score, weakestBadBp: Math.min(...rows.filter((r) => badSet.has(r.player)).map((r) => r.score)) };
  });
}
