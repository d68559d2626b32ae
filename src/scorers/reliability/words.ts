/** Reliability in words: drops out of the last matches, the band. */
import type { ReliabilityExplanation } from './scorer.js';
import type { ReliabilityParams } from './params.js';
import { ago, count, num, signed, worstPlace } from '../../util/words.js';
import type { EvidenceItem, ScorerWords, WordsInput } from '../words.js';

/** How many recent matches the reason counts drops among. */
export const RECENT_MATCHES = 10;

type Input = WordsInput<ReliabilityExplanation, ReliabilityParams>;

/** Of the player's last `RECENT_MATCHES` matches with a kept scored event, how many they dropped. */
export function recentDrops(e: ReliabilityExplanation): { drops: number; matches: number } {
  const seen = new Map<string, boolean>();
  for (let i = e.events.length - 1; i >= 0; i--) {
    const event = e.events[i]!;
    if (!seen.has(event.match)) {
      if (seen.size === RECENT_MATCHES) break;
      seen.set(event.match, false);
    }
    if (event.kind === 'drop') seen.set(event.match, true);
  }
  let drops = 0;
  for (const dropped of seen.values()) if (dropped) drops++;
  return { drops, matches: seen.size };
}

/** Over every kept scored event (the `keepDays` the score and its band read): the matches dropped, the matches, and the newest drop's time. */
export function keptDrops(e: ReliabilityExplanation): { drops: number; matches: number; latest?: number } {
  const matches = new Set<string>();
  const dropped = new Set<string>();
  let latest: number | undefined;
  for (const event of e.events) {
    matches.add(event.match);
    if (event.kind !== 'drop') continue;
    dropped.add(event.match);
    if (latest === undefined || event.time > latest) latest = event.time;
  }
  return { drops: dropped.size, matches: matches.size, ...(latest === undefined ? {} : { latest }) };
}

/**
 * What the queue's reliability line says of drops: the last `RECENT_MATCHES` matches, and, when
 * those are not all of them, the whole window the score and its band read, so a red band beside
 * "dropped 1 of their last 10" says where it comes from; then when the newest drop was.
 */
export function dropsText(e: ReliabilityExplanation, keepDays: number, now: number): string {
  const recent = recentDrops(e);
  const kept = keptDrops(e);
  const window = `in the last ${count(keepDays, 'day')}`;
  const dropped = (drops: number) => (drops === 0 ? 'dropped none' : `dropped ${num(drops)}`);
  const head =
    recent.matches === kept.matches
      ? `${dropped(kept.drops)} of their ${count(kept.matches, 'match', 'matches')} ${window}`
      : `${dropped(recent.drops)} of their last ${count(recent.matches, 'match', 'matches')} and ${num(kept.drops)} of ${num(kept.matches)} ${window}`;
  return kept.latest === undefined ? head : `${head} (the latest ${ago(kept.latest, now)})`;
}

/** The score and its band with the window they read: "reliability 0.45 over those 100 days: red (below 0.65)". */
function bandText(i: Input, window: 'those' | 'the last'): string {
  const { band, score } = i.explanation;
  const p = i.params;
  const from = band === 'green' ? `from ${num(p.green)}` : band === 'yellow' ? `from ${num(p.yellow)}` : band === 'orange' ? `from ${num(p.orange)}` : `below ${num(p.orange)}`;
  return `reliability ${num(score)} over ${window} ${count(p.keepDays, 'day')}: ${band} (${from})`;
}

export const reliabilityWords: ScorerWords<ReliabilityExplanation, ReliabilityParams> = {
  direction: 'higher is better',
  good: 'finishes the matches they start: 1 when every kept match was played through; green from 0.95',
  bad: 'abandons matches, mostly ones they are losing: red below 0.65, and about 0.25 for a player who drops every match and resumes it',
  reason(i) {
    return `${dropsText(i.explanation, i.params.keepDays, i.now)} — ${bandText(i, 'those')}, ${worstPlace(i.standing.worstFirst, i.standing.of)}`;
  },
  summary(i) {
    const e = i.explanation;
    const kinds = { finish: 0, drop: 0, resume: 0 };
    for (const event of e.events) kinds[event.kind]++;
    const { drops, matches } = recentDrops(e);
    const text = bandText(i, 'the last');
    return (
      `${text[0]!.toUpperCase()}${text.slice(1)}, ${worstPlace(i.standing.worstFirst, i.standing.of)}; from ${count(e.events.length, 'scored event')}: ` +
      `${count(kinds.finish, 'finish', 'finishes')}, ${count(kinds.drop, 'drop')}, ${count(kinds.resume, 'resume')}. ` +
      `Dropped ${num(drops)} of the last ${count(matches, 'match', 'matches')}.`
    );
  },
  evidence(i) {
    const out: EvidenceItem[] = [];
    for (const event of i.explanation.events) {
      const weight = event.weight === undefined ? '' : `, weighing ${num(event.weight)}`;
      const what = event.kind === 'drop' ? 'dropped' : event.kind === 'resume' ? 'came back to' : 'finished';
      out.push({
        time: event.time,
        scorer: i.scorer,
        kind: event.kind,
        text: `${what} match ${event.match} (${signed(event.value)}${weight}), ${ago(event.time, i.now)}`,
        bad: event.value < 0,
      });
    }
    return out.reverse();
  },
};
