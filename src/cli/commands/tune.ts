/** `standing tune cqr FILE --labels FILE.csv`: search (T, x, k) for the best ranking (docs/spec.md §2.4). */
import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { readLabels } from '../../evaluation/labels.js';
import { DEFAULT_COMMUNITY, type ActionEvent } from '../../events/types.js';
import { defaultThresholds, tuneCqr, type TuneObjective } from '../../scorers/cqr/tune.js';
import { seededRng } from '../../util/random.js';
import { renderCsv } from '../../util/csv.js';
import { formatNumber, renderTable } from '../../util/text-table.js';
import { load } from '../load.js';
import { format, integer, numberList, positiveInteger, scorerNamed } from '../options.js';
import { print, printJson } from '../output.js';
import { UsageError } from '../errors.js';

interface TuneCommandOptions {
  labels: string;
  search: string;
  trials: string;
  seed: string;
  objective: string;
  T: string;
  x?: string;
  top: string;
  format: string;
  community: string;
  quality?: string;
}

export function registerTune(program: Command): void {
  program
    .command('tune')
    .description('search cqr parameters (T, x, k) that best rank labelled players')
    .argument('<scorer>', 'scorer id (cqr)')
    .argument('<file>', 'NDJSON event log, or - for standard input')
    .requiredOption('--labels <file.csv>', 'CSV "player,class" with class F, f, d, D, fair or disruptive')
    .option('--search <kind>', 'grid (every combination) or random', 'grid')
    .option('--trials <n>', 'candidates drawn by random search', '500')
    .option('--seed <n>', 'seed of random search', '1')
    .option('--objective <name>', 'score (Tables 3–4 correspondence) or auc', 'score')
    .option('--T <list>', 'window sizes to try', '1,2,3,4,6,8,12,16,Infinity')
    .option('--x <list>', 'thresholds to try (default: 0 and the deciles of |delta|)')
    .option('--top <n>', 'parameterizations to print', '10')
    .option('--community <name>', 'community to evaluate', DEFAULT_COMMUNITY)
    .option('--format <format>', 'table, json or csv', 'table')
    .option('--quality <file.json>', 'options of the quality domains, as JSON')
    .action(async (scorerId: string, file: string, options: TuneCommandOptions) => {
      if (scorerNamed(scorerId).id !== 'cqr') throw new UsageError(`tune supports cqr only, not "${scorerId}"`);
      if (options.search !== 'grid' && options.search !== 'random') throw new UsageError(`--search expects grid or random, got "${options.search}"`);
      if (options.objective !== 'score' && options.objective !== 'auc') throw new UsageError(`--objective expects score or auc, got "${options.objective}"`);
      const output = format(options.format);
      const top = positiveInteger(options.top, '--top');
      const T = numberList(options.T, '--T');
      if (T.some((t) => !(t === Infinity || (Number.isInteger(t) && t >= 1)))) throw new UsageError('--T expects integers ≥ 1 or Infinity');
      const labels = await readLabels(options.labels);
      const actions: ActionEvent[] = [];
      await load({
        scorer: scorerNamed('cqr'),
        set: [],
        defences: 'published', // cqr has no defence: the grid is over its published method
        file,
        qualityFile: options.quality,
        observe: (event) => {
          if (event.type === 'action' && event.community === options.community) actions.push(event);
        },
      });
      const x = options.x === undefined ? defaultThresholds(actions) : numberList(options.x, '--x');
      if (x.some((v) => !Number.isFinite(v) || v < 0)) throw new UsageError('--x expects finite numbers ≥ 0');
      const bar = new cliProgress.SingleBar(
        { stream: process.stderr, format: 'tuning [{bar}] {value}/{total} candidates  {eta}s left', hideCursor: true },
        cliProgress.Presets.shades_classic,
      );
      let started = false;
      const results = tuneCqr(actions, labels, {
        T,
        x,
        search: options.search,
        trials: positiveInteger(options.trials, '--trials'),
        rng: seededRng(integer(options.seed, '--seed')),
        objective: options.objective as TuneObjective,
        community: options.community,
        onProgress: (done, total) => {
          if (!started) {
            bar.start(total, 0);
            started = true;
          }
          bar.update(done);
        },
      });
      bar.stop();
      const best = results.slice(0, top).map((r, i) => ({ rank: i + 1, T: r.params.T, x: r.params.x, k: r.params.k, score: r.score, auc: r.auc }));
      if (output === 'json') printJson(best);
      else if (output === 'csv') print(renderCsv(['rank', 'T', 'x', 'k', 'score', 'auc'], best.map((b) => [b.rank, b.T, b.x, b.k, b.score, b.auc])));
      else {
        print(
          `cqr tuning: ${options.search} search over ${results.length} candidates, objective ${options.objective}, ${labels.size} labelled players\n\n` +
            renderTable(
              [{ title: 'rank', align: 'right' }, { title: 'T', align: 'right' }, { title: 'x', align: 'right' }, { title: 'k', align: 'right' }, { title: 'score', align: 'right' }, { title: 'ROC AUC', align: 'right' }],
              best.map((b) => [String(b.rank), String(b.T), formatNumber(b.x), String(b.k), formatNumber(b.score), formatNumber(b.auc)]),
            ),
        );
      }
    });
}
