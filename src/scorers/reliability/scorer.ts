/**
 * The maths: formula.ts.
 * `reliability`: Gibbon's dropper detection (gibbon-dropper-detection.txt, docs/spec.md §3).
 * reliability = mean of a player's kept scored events, confidence = their number (with the
 * defences, the weighted mean and the total weight, never 0: ./community.ts); the band
 * colours the reliability and the bar's length is min(1, confidence / fullBar).
 */
import type { StandingEvent } from '../../events/types.js';
import { rankByCommunity } from '../communities.js';
import { communityScorer, type CommunityStates, type ScorerState } from '../community-scorer.js';
import type { RankQuery, RankRow, Scorer } from '../scorer.js';
import { ReliabilityCommunity, type ReliabilitySnapshot, type ScoredEvent } from './community.js';
import { barOf, bandOf, type Band } from './formula.js';
import { reliabilityParams, type ReliabilityParams } from './params.js';

export { bandOf, type Band };

export type ReliabilityState = ScorerState<ReliabilityParams, ReliabilityCommunity>;

export interface ReliabilityRow extends RankRow {
  /** Number of kept scored events. */
  readonly confidence: number;
  readonly band: Band;
  /** Bar length in [0, 1]. */
  readonly bar: number;
}

export interface ReliabilityExplanation {
  readonly player: string;
  readonly community: string;
  readonly params: ReliabilityParams;
  readonly score: number;
  readonly confidence: number;
  readonly band: Band;
  readonly bar: number;
  /** The kept scored events, oldest first; `weight` only on a finish a defence weighed (not 1). */
  readonly events: readonly Omit<ScoredEvent, 'alive' | 'player' | 'with'>[];
}

function rankCommunity(name: string, community: ReliabilityCommunity, top: number): ReliabilityRow[] {
  const p = community.params;
  const rows = [...community.players].map(([player, r]) => ({ player, score: r.sum / r.count, confidence: r.count }));
  rows.sort((a, b) => b.score - a.score || b.confidence - a.confidence || (a.player < b.player ? -1 : a.player > b.player ? 1 : 0));
  return rows.slice(0, top).map((row, i) => ({
    rank: i + 1,
    player: row.player,
    score: row.score,
    community: name,
    confidence: row.confidence,
    band: bandOf(row.score, p),
    bar: barOf(row.confidence, p),
  }));
}

export const reliability: Scorer<ReliabilityParams, ReliabilityState, ReliabilityRow, ReliabilityExplanation> = {
  id: 'reliability',
  rankOneIsWorst: false,
  uses: ['match.start', 'match.end', 'disconnect', 'match.resume'],
  revision: 2, // 2: every event moves a community's clock (1: only the events above)
  params: reliabilityParams,

  ...communityScorer({
    create: (params: ReliabilityParams) => new ReliabilityCommunity(params),
    fromSnapshot: (params: ReliabilityParams, s: ReliabilitySnapshot) => ReliabilityCommunity.fromSnapshot(params, s),
  }),

  evolve(state, event: StandingEvent) {
    const name = event.community;
    const states = state as CommunityStates<ReliabilityParams, ReliabilityCommunity>; // made by initialState
    const community = name === states.lastCommunity ? states.lastState! : states.enter(name);
    // Every event moves the community's clock, whatever its type (docs/spec.md §1).
    community.advance(event.time);
    if (event.type === 'match.start') community.start(event.match, event.players, event.bots ?? [], event.time);
    else if (event.type === 'match.end') community.end(event.match, event.time);
    else if (event.type === 'disconnect') community.disconnect(event.player, event.time);
    else if (event.type === 'match.resume') community.resume(event.match, event.time);
    return state;
  },

  rank(state, query: RankQuery = {}) {
    return rankByCommunity(state.communities, query, rankCommunity);
  },

  explain(state, communityName, player) {
    const community = state.communities.get(communityName);
    const record = community?.players.get(player);
    if (community === undefined || record === undefined) return undefined;
    const score = record.sum / record.count;
    return {
      player,
      community: communityName,
      params: state.params,
      score,
      confidence: record.count,
      band: bandOf(score, state.params),
      bar: barOf(record.count, state.params),
      events: community.eventsOf(player).map(({ time, value, kind, match, weight }) => ({ time, value, kind, match, ...(weight === undefined ? {} : { weight }) })),
    };
  },

  advance(state, time, community) {
    if (community === undefined) for (const c of state.communities.values()) c.advance(time);
    else (state as CommunityStates<ReliabilityParams, ReliabilityCommunity>).enter(community).advance(time);
  },

  standing(state, communityName, player) {
    const record = state.communities.get(communityName)?.players.get(player);
    if (record === undefined) return undefined;
    const score = record.sum / record.count;
    let rank = 1;
    // The ranking's order (rankCommunity): score, then confidence, both highest first, then id.
    for (const [other, r] of state.communities.get(communityName)!.players) {
      if (other === player) continue;
      const s = r.sum / r.count;
      if ((score - s || record.count - r.count || (other < player ? -1 : other > player ? 1 : 0)) < 0) rank++;
    }
    return { score, rank };
  },
};
