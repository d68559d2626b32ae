/**
 * The maths: formula.ts.
 * `reliability`: Gibbon's dropper detection (gibbon-dropper-detection.txt, docs/spec.md §3).
 * reliability = mean of a player's kept scored events, confidence = their number (with the
 * defences, the weighted mean and the total weight, never 0: ./community.ts); the band
 * colours the reliability and the bar's length is min(1, confidence / fullBar).
 */
import type { StandingEvent } from '../../events/types.js';
import { advanceCommunities, communityScorer, type CommunityStates, type Ranked, type ScorerState } from '../community-scorer.js';
import type { RankRow, Scorer } from '../scorer.js';
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

/** How one community ranks: the score, then the confidence, both highest first, then the id. */
function ranked(community: ReliabilityCommunity): Ranked<Pick<ReliabilityRow, 'confidence' | 'band' | 'bar'>> {
  const p = community.params;
  const players = [...community.players.keys()];
  const records = [...community.players.values()];
  const scores = Float64Array.from(records, (r) => r.sum / r.count);
  const ids = { idAt: (i: number) => players[i]!, indexOf: (id: string) => players.indexOf(id) };
  return {
    size: players.length,
    ids,
    scores,
    compare: (a, b) => scores[b]! - scores[a]! || records[b]!.count - records[a]!.count || (players[a]! < players[b]! ? -1 : players[a]! > players[b]! ? 1 : 0),
    row: (i, rank, community) => {
      const { count } = records[i]!;
      return { rank, player: players[i]!, score: scores[i]!, community, confidence: count, band: bandOf(scores[i]!, p), bar: barOf(count, p) };
    },
  };
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
    ranked,
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
    advanceCommunities(state, time, community);
  },

};
