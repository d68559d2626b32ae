/** Trust in words: who rates the player, how, and with how much weight. */
import type { TrustExplanation } from './scorer.js';
import type { TrustParams } from './params.js';
import { ago, count, num, signed, worstPlace } from '../../util/words.js';
import type { EvidenceItem, ScorerWords, WordsInput } from '../words.js';

type Input = WordsInput<TrustExplanation, TrustParams>;

/** The ratings in force and the share of the weight the negative ones carry. */
export function ratingMix(e: TrustExplanation): { ratings: number; negative: number; negativeShare: number } {
  let negative = 0;
  let negativeShare = 0;
  for (const r of e.ratings) {
    if (r.value < 0) {
      negative++;
      negativeShare += r.share;
    }
  }
  return { ratings: e.ratings.length, negative, negativeShare };
}

function ratedText(i: Input): string {
  const { ratings, negative, negativeShare } = ratingMix(i.explanation);
  if (ratings === 0) return 'no rating in force';
  if (negative === 0) return `rated well by ${count(ratings, 'player')}`;
  return `rated negatively by ${num(negative)} of ${count(ratings, 'rater')}, carrying ${num(Math.round(negativeShare * 100))}% of the weight`;
}

/** When the newest negative rating in force came: ", the latest 2 days ago" (empty when none is negative). */
function latestText(i: Input): string {
  let latest: number | undefined;
  for (const r of i.explanation.ratings) if (r.value < 0 && (latest === undefined || r.time > latest)) latest = r.time;
  return latest === undefined ? '' : `, the latest ${ago(latest, i.now)}`;
}

export const trustWords: ScorerWords<TrustExplanation, TrustParams> = {
  direction: 'higher is better',
  good: 'close to 1: trusted players (as the moderators and the players they trust see it) rate the player well',
  bad: 'below 0: trusted players rate the player negatively; 0 means no trusted rating reaches them',
  reason(i) {
    return `${ratedText(i)}${latestText(i)} — trust ${num(i.explanation.score)}, ${worstPlace(i.standing.worstFirst, i.standing.of)}`;
  },
  summary(i) {
    const e = i.explanation;
    const cut = e.cut === undefined ? '' : ` The trust-flow defence cut a reputation of ${num(e.cut.reputation)} to 0: too little trust flows to the player from the observers.`;
    return (
      `Trust ${num(e.score)} (${worstPlace(i.standing.worstFirst, i.standing.of)}), as seen by ${e.observers.join(', ')}: ${ratedText(i)}.` +
      ` A rating lasts ${num(i.params.ttlMax * i.params.expireHours)} hours and weighs less as it ages.${cut}`
    );
  },
  evidence(i) {
    return i.explanation.ratings
      .map(
        (r): EvidenceItem => ({
          time: r.time, // the rating event's own time
          scorer: i.scorer,
          kind: 'rating',
          other: r.rater,
          text: `rated ${signed(r.value)} by ${r.rater} (trust ${num(r.raterReputation)}, ${num(Math.round(r.share * 100))}% of the weight), ${ago(r.time, i.now)}`,
          bad: r.value < 0,
        }),
      )
      .sort((a, b) => b.time - a.time || (a.other! < b.other! ? -1 : 1));
  },
};
