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

function scoreText(i: Input): string {
  return `reliability ${num(i.explanation.score)}, ${i.explanation.band}`;
}

export const reliabilityWords: ScorerWords<ReliabilityExplanation, ReliabilityParams> = {
  direction: 'higher is better',
  good: 'finishes the matches they start: 1 when every kept match was played through; green from 0.95',
  bad: 'abandons matches, mostly ones they are losing: red below 0.65, and about 0.25 for a player who drops every match and resumes it',
  reason(i) {
    const { drops, matches } = recentDrops(i.explanation);
    const head = drops === 0 ? `dropped none of their last ${count(matches, 'match', 'matches')}` : `dropped ${num(drops)} of their last ${count(matches, 'match', 'matches')}`;
    return `${head} — ${scoreText(i)}, ${worstPlace(i.standing.worstFirst, i.standing.of)}`;
  },
  summary(i) {
    const e = i.explanation;
    const kinds = { finish: 0, drop: 0, resume: 0 };
    for (const event of e.events) kinds[event.kind]++;
    const { drops, matches } = recentDrops(e);
    return (
      `${scoreText(i)} (${worstPlace(i.standing.worstFirst, i.standing.of)}), from ${count(e.events.length, 'scored event')} of the last ${num(i.params.keepDays)} days: ` +
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
