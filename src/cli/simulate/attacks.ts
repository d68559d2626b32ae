/**
 * `standing simulate attacks`: the attack suite on one seeded honest community, each attack under
 * each defence setting, as a table or one JSON document, with a figure per scenario.
 */
import { Option, type Command } from 'commander';
import { lineChart } from '../../plots/svg.js';
import { runAttackSuite, scenarioNames, type AttackSuiteResult } from '../../simulations/attacks/suite.js';
import type { RealDataRow } from '../../simulations/attacks/real-data.js';
import type { AttackRow } from '../../simulations/attacks/types.js';
import { formatNumber, renderTable } from '../../util/text-table.js';
import { collect, integer, positiveInteger } from '../options.js';
import { print, printJson } from '../output.js';
import { UsageError } from '../errors.js';
import { realDataAgreement } from './real-data.js';
import { writePlots } from './write-plots.js';

/** The smallest honest community the suite runs on: smaller ones may have no reported bad player to attack. */
const MIN_ATTACK_PLAYERS = 100;

interface Options {
  attack: string[];
  seed: string;
  players: string;
  format: string;
  out?: string;
  data?: string;
}

export function registerAttacks(simulate: Command): void {
  simulate
    .command('attacks')
    .description('the attack suite: what each attack costs and achieves under each defence setting, on one seeded honest community')
    .addOption(new Option('--attack <name>', 'a scenario to run, repeatable').argParser(collect).default([], `all of ${scenarioNames().join(', ')}`))
    .option('--seed <n>', 'random seed of the community and the attacks', '1')
    .option('--players <n>', `players in the honest community (at least ${MIN_ATTACK_PLAYERS})`, '2000')
    .option('--format <format>', 'table or json', 'table')
    .option('--out <dir>', 'write a figure per scenario as SVG and PNG into this folder')
    .option('--data <dir>', "also compare the defended and published rankings on the real data sets found in this folder (the project's data layout)")
    .action(async (options: Options) => {
      if (options.format !== 'table' && options.format !== 'json') throw new UsageError(`--format expects table or json for simulate attacks, got "${options.format}"`);
      const output = options.format;
      const known = scenarioNames();
      for (const name of options.attack) {
        if (!known.includes(name)) throw new UsageError(`--attack: unknown scenario "${name}" (known: ${known.join(', ')})`);
      }
      const players = positiveInteger(options.players, '--players');
      // Every scenario needs truly bad players who were reported (reports-retaliation attacks the most reported one).
      if (players < MIN_ATTACK_PLAYERS) throw new UsageError(`--players expects at least ${MIN_ATTACK_PLAYERS} (every scenario needs reported bad players in the honest community), got ${players}`);
      const suite = runAttackSuite({ seed: integer(options.seed, '--seed'), players, attacks: options.attack });
      const realData = options.data === undefined ? undefined : await realDataAgreement(options.data);
      const result = { ...suite, ...(realData === undefined ? {} : { realData }) };
      const written = options.out === undefined ? [] : await writePlots(options.out, figures(result));
      if (output === 'json') {
        printJson({ ...result, plots: written });
        return;
      }
      print(render(result, written));
    });
}

function figures(result: AttackSuiteResult): Record<string, string> {
  return Object.fromEntries(result.curves.map((c) => [c.name, lineChart({ title: c.title, xLabel: c.xLabel, yLabel: c.yLabel, series: c.series })]));
}

function costText(row: AttackRow): string {
  return Object.entries(row.cost)
    .map(([key, value]) => `${key} ${value.toLocaleString('en-US')}`)
    .join(', ');
}

function render(result: AttackSuiteResult & { realData?: readonly RealDataRow[] }, written: readonly string[]): string {
  const c = result.community;
  return [
    `attack suite: seed ${c.seed}; ${c.players.toLocaleString('en-US')} players (${c.trulyBad} truly bad), ${c.matches.toLocaleString('en-US')} matches, ${c.events.toLocaleString('en-US')} events over ${c.days} days`,
    '',
    renderTable(
      [{ title: 'attack' }, { title: 'defence' }, { title: 'cost' }, { title: 'effect', align: 'right' }, { title: 'measure' }, { title: 'goal' }, { title: 'met' }],
      result.attacks.map((row) => [
        row.attack,
        row.defence,
        costText(row),
        row.effect.value === null ? 'never' : formatNumber(row.effect.value),
        row.effect.measure,
        row.goal ?? '',
        row.met === null ? '' : row.met ? 'yes' : 'NO',
      ]),
    ),
    '',
    'What the defence settings cost honest players on this community (no attack): Spearman with the published ranking, and the ROC AUC of the ranking as a detector of the truly bad players',
    '',
    renderTable(
      [{ title: 'scorer' }, { title: 'defence' }, { title: 'Spearman', align: 'right' }, { title: 'AUC', align: 'right' }],
      result.honest.map((h) => [h.scorer, h.defence, h.spearman === null ? '—' : h.spearman.toFixed(3), h.auc === null ? '—' : h.auc.toFixed(3)]),
    ),
    ...(result.realData === undefined
      ? []
      : [
          '',
          'Real data: Spearman of the recommended defences with the published ranking',
          '',
          renderTable(
            [{ title: 'data set' }, { title: 'scorer' }, { title: 'events', align: 'right' }, { title: 'players', align: 'right' }, { title: 'Spearman', align: 'right' }, { title: 'goal' }, { title: 'met' }],
            result.realData.map((r) => [r.dataSet, r.scorer, r.events.toLocaleString('en-US'), r.players.toLocaleString('en-US'), r.spearman === null ? '—' : r.spearman.toFixed(3), r.goal, r.met ? 'yes' : 'NO']),
          ),
        ]),
    ...(written.length > 0 ? ['', `Figures: ${written.join(', ')}`] : []),
  ].join('\n');
}
