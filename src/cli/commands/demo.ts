/**
 * `standing demo` (what `npm start` runs until the service exists): replays the bundled log of
 * the CQR paper's Table 1 with the paper's four parameterizations side by side, and scores
 * each ranking against the players' classes, reproducing Tables 2 and 4.
 */
import type { Command } from 'commander';
import { fileURLToPath } from 'node:url';
import { readLabels } from '../../evaluation/labels.js';
import { evaluateRanking } from '../../evaluation/metrics.js';
import { cqr } from '../../scorers/cqr/scorer.js';
import { formatNumber, renderTable } from '../../util/text-table.js';
import { load } from '../load.js';
import { describeParams } from '../../params/format.js';
import { print } from '../output.js';

const LOG = fileURLToPath(new URL('../../../examples/cqr-table1.ndjson', import.meta.url));
const LABELS = fileURLToPath(new URL('../../../examples/cqr-table1.labels.csv', import.meta.url));
const PAPER = ['T=Infinity,x=0,k=Infinity', 'T=8,x=0,k=8', 'T=8,x=10,k=8', 'T=8,x=10,k=4'];

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description("replay the bundled demo log (the CQR paper's Table 1) and print its rankings")
    .action(async () => {
      const { instances, events } = await load({ scorer: cqr, set: PAPER[0]!.split(','), compare: PAPER.slice(1), defences: 'published', file: LOG });
      const labels = await readLabels(LABELS);
      const rankings = instances.map((instance) => cqr.rank(instance.state));
      const depth = rankings[0]!.length;
      const table = renderTable(
        [{ title: 'rank', align: 'right' }, ...instances.flatMap((i) => [{ title: describeParams(i.params) }, { title: 'cqr', align: 'right' as const }])],
        Array.from({ length: depth }, (_, r) => [String(r + 1), ...rankings.flatMap((rows) => [rows[r]!.player, formatNumber(rows[r]!.score)])]),
      );
      const scores = instances.map((instance, i) => [describeParams(instance.params), formatNumber(evaluateRanking(rankings[i]!, labels).score), formatNumber(evaluateRanking(rankings[i]!, labels).auc)]);
      print(
        [
          `standing demo: ${events} actions of the CQR paper's Table 1 (examples/cqr-table1.ndjson), four parameterizations in one pass`,
          '',
          table,
          '',
          'Class-to-quartile correspondence (paper Table 4: 24 [printed 34, an erratum], 100, 92, 104) and ROC AUC:',
          '',
          renderTable([{ title: 'parameters' }, { title: 'score', align: 'right' }, { title: 'ROC AUC', align: 'right' }], scores),
          '',
          'Try: npx standing rank cqr examples/cqr-table1.ndjson --set T=8 --set x=10 --set k=4',
        ].join('\n'),
      );
    });
}
