/** trust, PlayerRating: the scorer (scorer.ts), its words, explanation and defences. */
import { PUBLISHED, type ScorerModule } from '../module.js';
import { trustExplainText } from './explain-text.js';
import { RECOMMENDED_TRUST_DEFENCES } from './params.js';
import { trust } from './scorer.js';
import { trustWords } from './words.js';

export const trustModule: ScorerModule = {
  scorer: trust,
  words: trustWords,
  bar: () => ({ kind: 'signed', span: 1 }),
  rowFields: {
    ratings: { type: 'integer', minimum: 0, description: 'trust: live ratings the player has received' },
    rating: { type: 'number', nullable: true, description: "trust with one observer: that observer's own rating of the player (null: none)" },
  },
  explainText: trustExplainText,
  defences: [PUBLISHED, { name: 'recommended', params: RECOMMENDED_TRUST_DEFENCES }],
};
