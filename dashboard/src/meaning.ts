/**
 * What each scorer's numbers mean to a moderator: which end is worse, what a good and a bad score
 * say, and the range a bar is drawn on (the scorer's meaningful range, never simply from 0: chat's
 * floor is its `repMin`, 0.1 by default, so the worst chatter shows an empty bar, not a half-full
 * one).
 */

export interface Meaning {
  /** 'higher is better' or 'higher is worse'. */
  readonly direction: 'higher is better' | 'higher is worse';
  /** Which end of the ranking holds the most harmful players. */
  readonly worstRank: 'last' | 'first';
  readonly good: string;
  readonly bad: string;
}

const MEANINGS: Record<string, Meaning> = {
  cqr: {
    direction: 'higher is better',
    worstRank: 'last',
    good: 'positive: their recent actions helped others',
    bad: 'negative: their recent actions harmed others',
  },
  reliability: {
    direction: 'higher is better',
    worstRank: 'last',
    good: 'close to 1 (green band): finishes the matches they start',
    bad: 'low (orange or red band): leaves matches before the end',
  },
  chat: {
    direction: 'higher is better',
    worstRank: 'last',
    good: 'near the ceiling: others keep writing back to them',
    bad: 'at the floor: nobody answers them (new players start there too)',
  },
  trust: {
    direction: 'higher is better',
    worstRank: 'last',
    good: 'positive: rated well by players the observers trust',
    bad: 'negative: rated badly by trusted players',
  },
  reports: {
    direction: 'higher is worse',
    worstRank: 'first',
    good: '0: no report from players with good judgment',
    bad: 'high: reported often, by players whose reports hold up',
  },
};

const UNKNOWN: Meaning = { direction: 'higher is better', worstRank: 'last', good: 'high', bad: 'low' };

export function meaningOf(scorerId: string): Meaning {
  return MEANINGS[scorerId] ?? UNKNOWN;
}

/** The one-line hint a ranking shows: the direction and where its worst players are. */
export function rankHint(scorerId: string): string {
  const m = meaningOf(scorerId);
  return m.worstRank === 'first' ? `${m.direction}: rank 1 is the worst` : `${m.direction}: rank 1 is the best, the last rank the worst`;
}

/** `key=value,key=value` (a scorer instance's `params`) as a map; a comma only separates where `key=` follows. */
export function parseParams(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(/,(?=\s*[A-Za-z]\w*=)/)) {
    const at = part.indexOf('=');
    if (at > 0) out[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return out;
}

/**
 * The range a scorer's bar spans. `kind`: 'signed' draws from a middle line at 0 (cqr over the
 * community's largest magnitude, trust over its fixed [−1, 1]); 'floor' fills from the floor
 * towards the ceiling (chat: repMin to repMax); 'harm' fills from 0 towards the community's
 * largest score, all of it the harmful side (reports).
 */
export type BarRange = { kind: 'signed'; span: number } | { kind: 'floor'; floor: number; ceiling: number } | { kind: 'harm'; max: number };

export function barRange(scorerId: string, params: string, community: { min: number; max: number }): BarRange {
  if (scorerId === 'chat') {
    const p = parseParams(params);
    const floor = Number(p.repMin ?? 0.1);
    const ceiling = Number(p.repMax ?? 1);
    return { kind: 'floor', floor: Number.isFinite(floor) ? floor : 0.1, ceiling: Number.isFinite(ceiling) && ceiling > floor ? ceiling : floor + 1 };
  }
  if (scorerId === 'trust') return { kind: 'signed', span: 1 };
  if (scorerId === 'reports') return { kind: 'harm', max: community.max > 0 ? community.max : 1 };
  return { kind: 'signed', span: Math.max(Math.abs(community.min), Math.abs(community.max)) || 1 };
}
