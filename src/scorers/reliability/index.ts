/** reliability, Gibbon's dropper detection: the scorer (scorer.ts), its words, explanation and defences. */
import { PUBLISHED, type ScorerModule } from '../module.js';
import { reliabilityExplainText } from './explain-text.js';
import { RECOMMENDED_RELIABILITY_DEFENCES } from './params.js';
import { reliability } from './scorer.js';
import { reliabilityWords } from './words.js';

export const reliabilityModule: ScorerModule = {
  scorer: reliability,
  words: reliabilityWords,
  bar: () => ({ kind: 'signed' }),
  rowFields: {
    confidence: { type: 'integer', minimum: 0, description: 'reliability: scored events kept' },
    band: { type: 'string', enum: ['green', 'yellow', 'orange', 'red'], description: 'reliability: the band of the score' },
    bar: { type: 'number', minimum: 0, maximum: 1, description: 'reliability: bar length' },
  },
  explainText: reliabilityExplainText,
  defences: [
    PUBLISHED,
    { name: 'repeated opponents', params: { repeatWeight: RECOMMENDED_RELIABILITY_DEFENCES.repeatWeight } },
    { name: 'short matches', params: { minMatchMinutes: RECOMMENDED_RELIABILITY_DEFENCES.minMatchMinutes } },
    { name: 'recommended', params: RECOMMENDED_RELIABILITY_DEFENCES },
  ],
};
