/**
 * The honest community the attack suite runs on: a seeded log of team matches, shaped like the
 * demo but larger. Players meet in matches of two teams; each player has a badness (how often it
 * misbehaves in a match), a few players are truly bad, and everything the others do reflects it:
 * a misbehaving player may drop the match, draws reports and negative ratings from the players
 * who saw it, and its teammates leave it out of their messages. Honest players also file an
 * occasional mistaken report, drop a match now and then, and rate each other up.
 *
 * Moderators review a share of the reports: they uphold most reports of a player who did
 * misbehave and dismiss most mistaken ones, erring now and then both ways.
 *
 * Matches are played in rounds of ROUND_MINUTES: in each round a random share of the players is
 * online and split into matches, so no player is in two matches at once.
 */
import type { StandingEvent } from '../../events/types.js';
import { randomInt, shuffled, type Rng } from '../../util/random.js';

export const COMMUNITY = 'default';
export const MINUTE = 60_000;
export const DAY = 86_400_000;
const ROUND_MINUTES = 45;
/** Share of reports a moderator reviews, and how often a review gets it wrong. */
const REVIEWED = 0.1;
const REVIEW_ERROR = 0.1;
/** 2024-06-01T00:00:00Z: the first round's start. */
export const START = Date.UTC(2024, 5, 1);

export interface HonestCommunityOptions {
  readonly players: number;
  /** Share of truly bad players. */
  readonly badShare: number;
  /** Matches a player plays on average. */
  readonly matchesPerPlayer: number;
  /** Players per team; a match has two teams. */
  readonly teamSize: number;
  /** Days the history spans. */
  readonly days: number;
  readonly rng: Rng;
}

export const DEFAULT_COMMUNITY_OPTIONS = { players: 2000, badShare: 0.05, matchesPerPlayer: 30, teamSize: 5, days: 14 } as const;

export interface HonestCommunity {
  readonly events: readonly StandingEvent[];
  /** Every player, truly bad ones first. */
  readonly players: readonly string[];
  readonly bad: ReadonlySet<string>;
  readonly badness: ReadonlyMap<string, number>;
  /** Time of the first and the last event. */
  readonly start: number;
  readonly end: number;
  /** Games each player finished or started (the matches it was in). */
  readonly games: ReadonlyMap<string, number>;
  /** The median of `games` over the players. */
  readonly medianGames: number;
  /** Matches in the log, numbered from 1. */
  readonly matches: number;
  /** Players per match (two teams). */
  readonly matchSize: number;
}

/** How a player behaves, by kind: honest players misbehave rarely, truly bad ones often. */
function drawBadness(rng: Rng, bad: boolean): number {
  return bad ? 0.45 + 0.4 * rng() : 0.04 * rng();
}

/** One match's events, at the minute offsets given, in time order after sorting. */
interface Timed {
  readonly at: number;
  readonly order: number;
  readonly event: StandingEvent;
}

export function generateHonestCommunity(options: HonestCommunityOptions): HonestCommunity {
  const { rng, teamSize } = options;
  const size = 2 * teamSize;
  const badCount = Math.max(1, Math.round(options.players * options.badShare));
  const players = Array.from({ length: options.players }, (_, i) => (i < badCount ? `bad-${i + 1}` : `player-${i + 1 - badCount}`));
  const bad = new Set(players.slice(0, badCount));
  const badness = new Map(players.map((p) => [p, drawBadness(rng, bad.has(p))]));
  const rounds = Math.max(1, Math.floor((options.days * DAY) / (ROUND_MINUTES * MINUTE)));
  // Each round, a player is online with the probability that gives it matchesPerPlayer matches.
  const online = Math.min(1, options.matchesPerPlayer / rounds);
  const games = new Map(players.map((p) => [p, 0]));
  const events: StandingEvent[] = [];
  let matchNumber = 0;
  for (let round = 0; round < rounds; round++) {
    const roundStart = START + round * ROUND_MINUTES * MINUTE;
    const here = shuffled(
      players.filter(() => rng() < online),
      rng,
    );
    const timed: Timed[] = [];
    for (let first = 0; first + size <= here.length; first += size) {
      const match = `m${++matchNumber}`;
      const inMatch = here.slice(first, first + size);
      for (const p of inMatch) games.set(p, games.get(p)! + 1);
      playMatch(match, inMatch, teamSize, roundStart + randomInt(rng, 0, 5) * MINUTE, badness, rng, (at, event) => timed.push({ at, order: timed.length, event }));
    }
    timed.sort((a, b) => a.at - b.at || a.order - b.order);
    for (const t of timed) events.push(t.event);
  }
  const sortedGames = [...games.values()].sort((a, b) => a - b);
  return {
    events,
    players,
    bad,
    badness,
    start: events[0]?.time ?? START,
    end: events.at(-1)?.time ?? START,
    games,
    medianGames: sortedGames[sortedGames.length >> 1] ?? 0,
    matches: matchNumber,
    matchSize: size,
  };
}

/**
 * One match: start; messages within each team (a teammate who misbehaves is left out of a message
 * with probability its badness); a misbehaving player drops the match half the time, an honest one
 * rarely; a dropped match is resumed a third of the time and then finished, else abandoned; after
 * the match, reports of those who misbehaved (and rare mistaken ones) and ratings.
 */
function playMatch(
  match: string,
  inMatch: readonly string[],
  teamSize: number,
  startAt: number,
  badness: ReadonlyMap<string, number>,
  rng: Rng,
  emit: (at: number, event: StandingEvent) => void,
): void {
  const base = { community: COMMUNITY };
  const at = (minutes: number) => startAt + Math.round(minutes * MINUTE);
  emit(at(0), { ...base, type: 'match.start', time: at(0), match, players: inMatch });
  const misbehaved = new Set(inMatch.filter((p) => rng() < badness.get(p)!));
  const teams = [inMatch.slice(0, teamSize), inMatch.slice(teamSize)];
  for (const team of teams) {
    for (const sender of team) {
      const messages = randomInt(rng, 0, 3);
      for (let m = 0; m < messages; m++) {
        const to = team.filter((r) => r !== sender && !(misbehaved.has(r) && rng() < badness.get(r)!));
        const minute = 1 + rng() * 25;
        if (to.length > 0) emit(at(minute), { ...base, type: 'chat', time: at(minute), from: sender, to });
      }
    }
  }
  let dropper: string | undefined;
  for (const p of inMatch) {
    if (rng() < (misbehaved.has(p) ? 0.5 : 0.01)) {
      dropper = p;
      break;
    }
  }
  let endMinute = 30;
  if (dropper === undefined) {
    emit(at(30), { ...base, type: 'match.end', time: at(30), match });
  } else {
    emit(at(10), { ...base, type: 'disconnect', time: at(10), player: dropper });
    if (rng() < 1 / 3) {
      emit(at(13), { ...base, type: 'match.resume', time: at(13), match });
      emit(at(32), { ...base, type: 'match.end', time: at(32), match });
      endMinute = 32;
    }
  }
  const after = endMinute + 1;
  for (const from of inMatch) {
    for (const to of inMatch) {
      if (to === from) continue;
      const sawIt = misbehaved.has(to);
      if (sawIt ? rng() < 0.2 : rng() < 0.001) {
        const id = `${match}-${from}-${to}`;
        emit(at(after), { ...base, type: 'report', time: at(after), id, from, to, reason: sawIt ? 'toxic' : 'mistaken' });
        if (rng() < REVIEWED) {
          const upheld = sawIt !== rng() < REVIEW_ERROR;
          emit(at(after + 10), { ...base, type: 'verdict', time: at(after + 10), on: 'report', outcome: upheld ? 'upheld' : 'dismissed', report: id });
        }
      }
      if (rng() < 0.05) {
        const value = Math.round((sawIt ? -1 : 1) * (0.5 + rng() / 2) * 10) / 10;
        emit(at(after + 1), { ...base, type: 'rating', time: at(after + 1), from, to, value });
      }
    }
  }
}
