/**
 * `trust`, PlayerRating: everything standing knows about it is in this folder. The maths, citing
 * the paper: formula.ts. The scorer: scorer.ts, over its state (community.ts), with its parameters
 * and recommended defences in params.ts. Its words for moderators: words.ts; `standing explain`:
 * explain-text.ts. This file is its module, the registry's entry (../module.ts says what each part
 * is for). The user's page: docs/trust.md. Tests: test/unit/trust/ (trust.test.ts: hand-computed
 * cases; formula.test.ts: the WebAssembly iteration, on one and two threads, against formula.ts).
 * Bench: bench/trust-and-reports.ts.
 */
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
