/** CQR in words: what the player's recent contributions did to the community. */
import type { CqrExplanation } from './scorer.js';
import type { CqrParams } from './params.js';
import { count, num, worstPlace } from '../../util/words.js';
import type { ScorerWords, WordsInput } from '../words.js';

type Input = WordsInput<CqrExplanation, CqrParams>;

function windowText(i: Input): string {
  const w = i.explanation.window;
  const harmful = w.filter((d) => d < 0).length;
  if (w.length === 0) return `${count(i.explanation.actions, 'action')}, none large enough to count`;
  return `${num(harmful)} of their last ${count(w.length, 'counted action')} harmed the community`;
}

export const cqrWords: ScorerWords<CqrExplanation, CqrParams> = {
  direction: 'higher is better',
  good: 'above 0: the player’s recent actions improved the community (the sum of their last changes to its quality)',
  bad: 'below 0: their recent actions harmed it; the more negative, the more harm',
  reason(i) {
    return `${windowText(i)} — cqr ${num(i.explanation.score)}, ${worstPlace(i.standing.worstFirst, i.standing.of)}`;
  },
  summary(i) {
    const e = i.explanation;
    const filter = e.filter === 'none' ? '' : ` Their last actions all went one way, so only the ${e.filter} ones count now.`;
    const window = e.window.length === 0 ? '' : ` Counted changes, oldest first: ${e.window.map(num).join(', ')}.`;
    return `CQR ${num(e.score)} (${worstPlace(i.standing.worstFirst, i.standing.of)}) from ${count(e.actions, 'action')}: ${windowText(i)}.${window}${filter}`;
  },
  evidence() {
    return []; // cqr's explanation carries no dates
  },
};
