/** cqr, community-quality-based ranking: the scorer (scorer.ts), its maths (formula.ts), words and explanation. */
import type { ScorerModule } from '../module.js';
import { cqrExplainText } from './explain-text.js';
import { cqr } from './scorer.js';
import { cqrWords } from './words.js';

export const cqrModule: ScorerModule = {
  scorer: cqr,
  words: cqrWords,
  bar: () => ({ kind: 'signed' }),
  rowFields: {
    actions: { type: 'integer', minimum: 0, description: 'cqr: actions seen for the player, filtered or not' },
  },
  explainText: cqrExplainText,
  defences: [],
};
