/** `standing explain reports`: the reports against a player, each worth its reporter's JP / reports made. */
import type { ReportsExplanation } from '../../scorers/reports/scorer.js';
import { formatNumber, renderTable } from '../format/table.js';
import { load } from '../load.js';
import type { Explained, ExplainRequest } from './request.js';
import { unknownPlayer } from './request.js';

export async function explainReports(request: ExplainRequest): Promise<Explained> {
  const { instances } = await load({ scorer: request.scorer, set: request.set, file: request.file, qualityFile: request.qualityFile, now: request.now });
  const e = request.scorer.explain(instances[0]!.state, request.community, request.player) as ReportsExplanation | undefined;
  if (e === undefined) throw unknownPlayer(request, 'games or reports');
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
}
