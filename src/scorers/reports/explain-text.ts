/** `standing explain reports`: the reports against a player, each worth its reporter's JP / reports made. */
import { formatNumber, renderTable } from '../../util/text-table.js';
import type { ExplainText } from '../module.js';
import type { ReportsExplanation } from './scorer.js';

export const reportsExplainText: ExplainText<ReportsExplanation> = {
  nothing: 'games or reports',
  describe(e) {
    const table = renderTable(
      [{ title: 'reporter' }, { title: "reporter's JP", align: 'right' }, { title: 'reports it made', align: 'right' }, { title: 'weight', align: 'right' }, { title: 'reported at' }],
      e.reportedBy.map((r) => [r.reporter, formatNumber(r.reporterJp), String(r.reporterReports), formatNumber(r.weight), new Date(r.time).toISOString()]),
    );
    return {
      json: e,
      text: [
        `reports  player ${e.player}  community ${e.community}`,
        `bad-player points ${formatNumber(e.score)} = sum of the weights below; judgment points ${formatNumber(e.jp)} (${e.games} games, ${formatNumber(e.gamesPerReport)} games per report in the community)`,
        '',
        e.reportedBy.length === 0 ? '(not reported)' : table,
      ].join('\n'),
    };
  },
};
