/**
 * `cqr`, community-quality-based ranking: everything standing knows about it is in this folder.
 * The maths, citing the paper: formula.ts. The scorer: scorer.ts, over its state (store.ts), with
 * its parameters and recommended defences in params.ts. Its words for moderators: words.ts;
 * `standing explain`: explain-text.ts. This file is its module, the registry's entry (../module.ts
 * says what each part is for). The user's page: docs/cqr.md. Tests: test/unit/cqr/
 * (paper-tables.test.ts: the paper's Tables 1, 2 and 4; formula.test.ts and properties.test.ts: the store
 * against formula.ts). Bench: bench/cqr-end-to-end.ts, bench/cqr-inprocess.ts,
 * bench/cqr-memory.ts.
 */
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
