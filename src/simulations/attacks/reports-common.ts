/** What the three report scenarios share: the bad-player ranking read as places, and the innocent target. */
import type { StandingEvent } from '../../events/types.js';
import { reports, type ReportsState } from '../../scorers/reports/scorer.js';
import type { Rng } from '../../util/random.js';
import { COMMUNITY, type HonestCommunity } from './community.js';
import { pick } from './replay.js';

/** The report scorer's events of the honest log (matches, reports, and played counts). */
export function reportEvents(community: HonestCommunity): StandingEvent[] {
  return community.events.filter((e) => reports.uses.includes(e.type));
}

/**
 * The target's place in the bad-player ranking among the honest community's players (1 = the
 * most reported): attacker accounts are left out, so a place gained is one honest player overtaken.
 */
export function placeAmongCommunity(state: ReportsState, community: HonestCommunity, target: string): number {
  const members = new Set(community.players);
  let place = 1;
  for (const row of reports.rank(state, { community: COMMUNITY })) {
    if (row.player === target) return place;
    if (members.has(row.player)) place++;
  }
  return place;
}

/** The place of every honest-community player in the bad-player ranking, as placeAmongCommunity gives it. */
export function placesAmongCommunity(state: ReportsState, community: HonestCommunity): Map<string, number> {
  const members = new Set(community.players);
  const places = new Map<string, number>();
  for (const row of reports.rank(state, { community: COMMUNITY })) if (members.has(row.player)) places.set(row.player, places.size + 1);
  return places;
}

/** Every listed player's bad-player points, and those of the truly bad player with the fewest. */
export function badPlayerPoints(state: ReportsState, community: HonestCommunity): { points: Map<string, number>; weakestBad: number } {
  let weakestBad = Infinity;
  const points = new Map<string, number>();
  for (const row of reports.rank(state, { community: COMMUNITY })) {
    if (community.bad.has(row.player)) weakestBad = Math.min(weakestBad, row.score);
    points.set(row.player, row.score);
  }
  return { points, weakestBad };
}

/** How many of `players` have more bad-player points than the weakest truly bad player. */
export function aboveWeakestBad(state: ReportsState, community: HonestCommunity, players: readonly string[]): number {
  const { points, weakestBad } = badPlayerPoints(state, community);
  return players.filter((p) => (points.get(p) ?? 0) > weakestBad).length;
}

/** An honest player who has played about the median number of games: an ordinary innocent. */
export function innocentTarget(community: HonestCommunity, rng: Rng): string {
  const ordinary = community.players.filter((p) => !community.bad.has(p) && Math.abs(community.games.get(p)! - community.medianGames) <= 2);
  return pick(rng, ordinary);
}

/** An attacker account established like an ordinary player: the median number of games, told by a `played` event. */
export function establish(account: string, games: number, time: number): StandingEvent {
  return { type: 'played', time, community: COMMUNITY, player: account, games };
}
