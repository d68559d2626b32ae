/** `standing simulate report-brigade`: how far N colluding reporters push an innocent player up the ranking. */
import type { Command } from 'commander';
import { lineChart } from '../../plots/svg.js';
import { simulateReportBrigade } from '../../simulations/report-brigade.js';
import { seededRng } from '../../util/random.js';
import { formatNumber, renderTable } from '../../util/text-table.js';
import { format, integer, numberList, positiveInteger } from '../options.js';
import { print, printJson } from '../output.js';
import { writePlots } from './write-plots.js';

export function registerReportBrigade(simulate: Command): void {
  simulate
    .command('report-brigade')
    .description('N colluding reporters against one innocent player: the innocent’s bad-player rank as a function of N')
    .option('--players <n>', 'players in the community', '1000')
    .option('--bad <n>', 'truly bad players', '50')
    .option('--reports-per-bad <n>', 'reports each bad player draws from honest players', '8')
    .option('--noise <n>', 'mistaken reports of honest players', '200')
    .option('--brigades <list>', 'brigade sizes', '0,1,2,5,10,20,50,100')
    .option('--seed <n>', 'random seed', '1')
    .option('--out <dir>', 'write the plot as SVG and PNG into this folder')
    .option('--format <format>', 'table or json', 'table')
    .action(async (options: { players: string; bad: string; reportsPerBad: string; noise: string; brigades: string; seed: string; out?: string; format: string }) => {
      const output = format(options.format);
      const points = simulateReportBrigade({
        players: positiveInteger(options.players, '--players'),
        bad: positiveInteger(options.bad, '--bad'),
        reportsPerBad: positiveInteger(options.reportsPerBad, '--reports-per-bad'),
        noise: integer(options.noise, '--noise'),
        brigades: numberList(options.brigades, '--brigades'),
        rng: seededRng(integer(options.seed, '--seed')),
      });
      const written =
        options.out === undefined
          ? []
          : await writePlots(options.out, {
              'report-brigade': lineChart({
                title: "An innocent player's bad-player rank under a reporting brigade",
                xLabel: 'brigade size',
                yLabel: 'rank (1 = worst)',
                series: [{ name: 'innocent player', points: points.map((p) => [p.brigade, p.rank]) }],
              }),
            });
      if (output === 'json') {
        printJson({ points, plots: written });
        return;
      }
      print(
        [
          `report brigade: ${options.players} players, ${options.bad} truly bad, seed ${options.seed}; each brigade account has the median number of games`,
          '',
          renderTable(
            [{ title: 'brigade', align: 'right' }, { title: "innocent's rank", align: 'right' }, { title: "innocent's BP", align: 'right' }, { title: 'weakest bad BP', align: 'right' }],
            points.map((p) => [String(p.brigade), String(p.rank), formatNumber(p.bp), formatNumber(p.weakestBadBp)]),
          ),
          ...(written.length > 0 ? ['', `Figure: ${written.join(', ')}`] : []),
        ].join('\n'),
      );
    });
}
