/**
 * `reliability`, Gibbon's dropper detection: everything standing knows about it is in this folder.
 * The maths, citing the paper: formula.ts. The scorer: scorer.ts, over its state (community.ts),
 * with its parameters and recommended defences in params.ts. Its words for moderators: words.ts;
 * `standing explain`: explain-text.ts. This file is its module, the registry's entry (../module.ts
 * says what each part is for). The user's page: docs/reliability.md. Tests: test/unit/reliability/
 * (reliability.test.ts: hand-computed cases; formula.test.ts: the scorer against formula.ts).
 * Bench: bench/reliability-and-chat.ts.
 */
import { PUBLISHED, type ScorerModule } from '../module.js';
import { reliabilityExplainText } from './explain-text.js';
import { RECOMMENDED_RELIABILITY_DEFENCES, type ReliabilityParams } from './params.js';
import { reliability } from './scorer.js';
import { reliabilityWords } from './words.js';

export const reliabilityModule: ScorerModule = {
  scorer: reliability,
  words: reliabilityWords,
  // The score from 0 (as many drops as finishes) to a finish's value (1: every match played through), coloured by its band.
  bar: (p: ReliabilityParams) => ({
    kind: 'floor',
    floor: 0,
    ceiling: p.finish,
    bands: [{ band: 'green', from: p.green }, { band: 'yellow', from: p.yellow }, { band: 'orange', from: p.orange }, { band: 'red' }],
    windowDays: p.keepDays,
  }),
  rowFields: {
    confidence: { type: 'number', minimum: 0, description: 'reliability: scored events kept (with the defences, their total weight, which may be fractional)' },
    band: { type: 'string', enum: ['green', 'yellow', 'orange', 'red'], description: 'reliability: the band of the score' },
    bar: { type: 'number', minimum: 0, maximum: 1, description: "reliability: Gibbon's bar length, min(1, confidence / fullBar)" },
  },
  explainText: reliabilityExplainText,
  defences: [
    PUBLISHED,
    { name: 'repeated opponents', params: { repeatWeight: RECOMMENDED_RELIABILITY_DEFENCES.repeatWeight } },
    { name: 'short matches', params: { minMatchMinutes: RECOMMENDED_RELIABILITY_DEFENCES.minMatchMinutes } },
    { name: 'recommended', params: RECOMMENDED_RELIABILITY_DEFENCES },
  ],
};
