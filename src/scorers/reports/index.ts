/**
 * `reports`, bad-player ranking from reports: everything standing knows about it is in this
 * folder. The maths, citing the paper: formula.ts. The scorer: scorer.ts, over its state
 * (community.ts), with its parameters and recommended defences in params.ts. Its words for
 * moderators: words.ts; `standing explain`: explain-text.ts. This file is its module, the
 * registry's entry (../module.ts says what each part is for). The user's page: docs/reports.md.
 * Tests: test/unit/reports/ (reports.test.ts: hand-computed cases; formula.test.ts: the iteration
 * against formula.ts). Bench: bench/trust-and-reports.ts.
 */
import { PUBLISHED, type ScorerModule } from '../module.js';
import { reportsExplainText } from './explain-text.js';
import { RECOMMENDED_REPORTS_DEFENCES } from './params.js';
import { reports } from './scorer.js';
import { reportsWords } from './words.js';

export const reportsModule: ScorerModule = {
  scorer: reports,
  words: reportsWords,
  bar: () => ({ kind: 'harm' }),
  rowFields: {
    reported: { type: 'integer', minimum: 0, description: 'reports: reports the player received (its score is built from them)' },
    jp: { type: 'number', description: 'reports: judgment points (score is the bad-player points)' },
    games: { type: 'integer', minimum: 0, description: 'reports: games played' },
    reports: { type: 'integer', minimum: 0, description: 'reports: reports the player made' },
  },
  explainText: reportsExplainText,
  defences: [
    PUBLISHED,
    { name: 'shared match', params: { sharedMatchDays: RECOMMENDED_REPORTS_DEFENCES.sharedMatchDays } },
    { name: 'one voice per match', params: { sharedMatchDays: RECOMMENDED_REPORTS_DEFENCES.sharedMatchDays, oneVoicePerMatch: true } },
    { name: 'one voice per reporter', params: { oneVoicePerReporter: true } },
    { name: 'judgment split', params: { judgmentSplit: RECOMMENDED_REPORTS_DEFENCES.judgmentSplit } },
    { name: 'verdicts', params: { accuracyPrior: RECOMMENDED_REPORTS_DEFENCES.accuracyPrior } },
    { name: 'recommended', params: RECOMMENDED_REPORTS_DEFENCES },
  ],
};
