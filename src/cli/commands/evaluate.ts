/** `standing evaluate cqr FILE --labels FILE.csv`: correspondence score (Tables 3–4) and ROC AUC. */
import type { Command } from 'commander';
import { readLabels } from '../../evaluation/labels.js';
import { evaluateRanking } from '../../evaluation/metrics.js';
import { DEFAULT_COMMUNITY } from '../../events/types.js';
import { renderCsv } from '../../util/csv.js';
import { formatNumber, renderTable } from '../../util/text-table.js';
import { load } from '../load.js';
import { describeParams } from '../../params/format.js';
import { collect, defencesOption, DEFENCES_HELP, format, scorerNamed } from '../options.js';
import { scorerIds } from '../../scorers/index.js';
import { print, printJson } from '../output.js';

interface EvaluateOptions {
  defences?: string;
  labels: string;
  set: string[];
  compare: string[];
  format: string;
  community: string;
  quality?: string;
}

export function registerEvaluate(program: Command): void {
  program
    .command('evaluate')
    .description('score rankings against labelled players: class-quartile correspondence and ROC AUC')
    .argument('<scorer>', `scorer id (${scorerIds().join(', ')}); the metrics take a higher score as fairer, which reports inverts (read its AUC as 1 − AUC)`)
    .argument('<file>', 'NDJSON event log, or - for standard input')
    .requiredOption('--labels <file.csv>', 'CSV "player,class" with class F, f, d, D, fair or disruptive')
    .option('--set <key=value>', 'scorer parameter, repeatable', collect, [])
    .option('--defences <setting>', DEFENCES_HELP)
    .option('--compare <params>', 'another parameterization to evaluate on the same pass; repeatable', collect, [])
    .option('--community <name>', 'community to evaluate', DEFAULT_COMMUNITY)
    .option('--format <format>', 'table, json or csv', 'table')
    .option('--quality <file.json>', 'options of the quality domains, as JSON')
    .action(async (scorerId: string, file: string, options: EvaluateOptions) => {
      const scorer = scorerNamed(scorerId);
      const output = format(options.format);
      const labels = await readLabels(options.labels);
      const { instances } = await load({ scorer, set: options.set, compare: options.compare, defences: defencesOption(options.defences), file, qualityFile: options.quality });
      const results = instances.map((instance) => ({
        params: instance.params,
        ...evaluateRanking(scorer.rank(instance.state, { community: options.community }), labels),
      }));
      if (output === 'json') printJson(results);
      else if (output === 'csv') print(renderCsv(['parameters', 'score', 'auc', 'players', 'labelled'], results.map((r) => [describeParams(r.params), r.score, r.auc, r.players, r.labelled])));
      else {
        print(
          `${scorer.id} evaluated against ${options.labels} (community ${options.community})\n\n` +
            renderTable(
              [{ title: 'parameters' }, { title: 'score', align: 'right' }, { title: 'ROC AUC', align: 'right' }, { title: 'players', align: 'right' }, { title: 'labelled', align: 'right' }],
              results.map((r) => [describeParams(r.params), formatNumber(r.score), formatNumber(r.auc), String(r.players), String(r.labelled)]),
            ),
        );
      }
    });
}
