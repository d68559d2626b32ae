/**
 * The maths: formula.ts.
 * `reports`: bad-player ranking from player reports (Kim, Shim & Kim; docs/spec.md §5). The paper's
 * equations (2) and (3) are missing from every copy; docs/spec.md §5's reconstruction is normative.
 */
import type { StandingEvent } from '../../events/types.js';
import { communityNames } from '../communities.js';
import { advanceCommunities, communityScorer, type CommunityStates, type Ranked, type ScorerState } from '../community-scorer.js';
import type { RankRow, Scorer } from '../scorer.js';
import { ReportsCommunity, type ReportsSnapshot } from './community.js';
import { reportsParams, type ReportsParams } from './params.js';

export type ReportsState = ScorerState<ReportsParams, ReportsCommunity>;

export interface ReportsRow extends RankRow {
  /** Reports the player received (the score, BP, is built from these). */
  readonly reported: number;
  /** Judgment points JP. (`score` is the bad-player points BP.) */
  readonly jp: number;
  readonly games: number;
  /** Reports the player made. */
  readonly reports: number;
}

export interface ReportsExplanation {
  readonly player: string;
  readonly community: string;
  readonly score: number;
  readonly jp: number;
  readonly games: number;
  readonly gamesPerReport: number;
  /**
   * The reports against the player, one entry per report kept, heaviest first (then by reporter,
   * then oldest first): each worth the reporter's JP / reports it made (times the defences' factors).
   */
  readonly reportedBy: readonly ReportedBy[];
}

/** One report against the player. */
export interface ReportedBy {
  readonly reporter: string;
  readonly reporterJp: number;
  readonly reporterReports: number;
  readonly weight: number;
  /** The report's event time (epoch ms). */
  readonly time: number;
}

/**
 * Why a community's ranking says nothing, when every bad-player score is 0 (ComputationStats.warning):
 * its players are still listed (spec §5), tied, in id order, so rank 1 (the worst) is no one's verdict.
 */
function unrankedWarning(c: ReportsCommunity, bp: Float64Array): string | undefined {
  if (c.players.size === 0) return undefined; // nothing listed: nothing to warn of
  for (let i = 0; i < bp.length; i++) if (bp[i] !== 0) return undefined;
  const listed = `every bad-player score is 0 and the ${c.players.size} player${c.players.size === 1 ? ' is' : 's are'} listed in id order, not by badness`;
  if (c.reports === 0) return `no report has been made, so no player is ranked as bad: ${listed}`;
  return `${c.reports === 1 ? 'the one report carries no' : `none of the ${c.reports} reports carries`} weight (a report is worth its reporter's judgment points, earned by games played), so no player is ranked as bad: ${listed}`;
}

/** How one community ranks: bad-player points highest first (rank 1 the worst), ties by id. */
function ranked(c: ReportsCommunity): Ranked<Pick<ReportsRow, 'reported' | 'jp' | 'games' | 'reports'>> {
  const { jp, bp } = c.compute();
  const ids = c.players;
  let received: Uint32Array | undefined; // counted for the first row asked for, not for a standing
  return {
    size: ids.size,
    ids,
    scores: bp,
    row: (i, rank, community) => {
      if (received === undefined) {
        received = new Uint32Array(ids.size);
        for (let e = 0; e < c.reports; e++) received[c.to[e]!]!++;
      }
      return { rank, player: ids.idAt(i), score: bp[i]!, community, reported: received[i]!, jp: jp[i]!, games: c.games[i]!, reports: c.made[i]! };
    },
  };
}

export const reports: Scorer<ReportsParams, ReportsState, ReportsRow, ReportsExplanation> = {
  id: 'reports',
  rankOneIsWorst: true,
  uses: ['match.start', 'match.end', 'report', 'played', 'verdict'],
  // 3: the match defences engage at a community's first match.start (2: on from the start, every
  // report ignored until then); 2: the shared-match window reads the community's clock (1: the newest match start).
  revision: 3,
  params: reportsParams,
  defencesNeed: { sharedMatchDays: 'match.start', oneVoicePerMatch: 'match.start' },

  dormantDefences(state, community) {
    if (state.params.sharedMatchDays === 0 || state.communities.get(community)?.matchDefencesEngaged === true) return [];
    return state.params.oneVoicePerMatch ? ['sharedMatchDays', 'oneVoicePerMatch'] : ['sharedMatchDays'];
  },

  ...communityScorer({
    create: (params: ReportsParams) => new ReportsCommunity(params),
    fromSnapshot: (params: ReportsParams, s: ReportsSnapshot) => ReportsCommunity.fromSnapshot(params, s),
    ranked,
  }),

  evolve(state, event: StandingEvent) {
    const type = event.type;
    const name = event.community;
    const states = state as CommunityStates<ReportsParams, ReportsCommunity>; // made by initialState
    if (state.params.sharedMatchDays > 0) {
      // The shared-match window reads the community's clock, which every event moves (docs/spec.md §1).
      (name === states.lastCommunity ? states.lastState! : states.enter(name)).advance(event.time);
    }
    if (type === 'verdict') {
      state.communities.get(name)?.judge(event); // a community without reports has none to judge
      return state;
    }
    if (type !== 'report' && type !== 'played' && type !== 'match.start' && type !== 'match.end') return state;
    const c = name === states.lastCommunity ? states.lastState! : states.enter(name);
    if (event.type === 'report') c.report(event.from, event.to, event.time, event.id);
    else if (event.type === 'played') c.played(event.player, event.games);
    else if (event.type === 'match.start') c.start(event.match, event.players, event.time);
    else c.end(event.match);
    return state;
  },


  advance(state, time, community) {
    if (state.params.sharedMatchDays === 0) return; // nothing of reports expires by time without the window
    advanceCommunities(state, time, community);
  },

  explain(state, name, player) {
    const c = state.communities.get(name);
    const u = c?.players.indexOf(player) ?? -1;
    if (c === undefined || u < 0) return undefined;
    const result = c.compute();
    const { jp, bp, gamesPerReport } = result;
    const reportedBy: ReportedBy[] = [];
    for (const e of c.reportsOf(u)) {
      const k = c.from[e]!;
      reportedBy.push({ reporter: c.players.idAt(k), reporterJp: jp[k]!, reporterReports: c.made[k]!, weight: c.weightOf(result, e), time: c.times[e]! });
    }
    reportedBy.sort((a, b) => b.weight - a.weight || (a.reporter < b.reporter ? -1 : a.reporter > b.reporter ? 1 : a.time - b.time));
    return { player, community: name, score: bp[u]!, jp: jp[u]!, games: c.games[u]!, gamesPerReport, reportedBy };
  },

  stats(state, only) {
    const names = only === undefined ? communityNames(state.communities) : state.communities.has(only) ? [only] : [];
    return names.map((community) => {
      const c = state.communities.get(community)!;
      const r = c.compute();
      const stats = { community, iterations: r.iterations, residual: r.residuals.at(-1) ?? 0, converged: r.converged, milliseconds: r.milliseconds };
      const warning = unrankedWarning(c, r.bp);
      return warning === undefined ? stats : { ...stats, warning };
    });
  },

};
