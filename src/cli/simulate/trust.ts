/** `standing simulate trust-convergence` and `trust-collusion` (PlayerRating's experiments). */
import type { Command } from 'commander';
import { lineChart } from '../../plots/svg.js';
import { mostTrusted, simulateTrustConvergence } from '../../simulations/trust-convergence.js';
import { simulateTrustCollusion } from '../../simulations/trust-collusion.js';
import { seededRng } from '../../util/random.js';
import { formatNumber, renderTable } from '../../util/text-table.js';
import { collect, format, integer, numberList, parseAssignments, positiveInteger } from '../options.js';
import { print, printJson } from '../output.js';
import { writePlots } from './write-plots.js';
import { openEventSource, readEvents } from '../../events/ndjson.js';
import type { RatingEvent } from '../../events/types.js';
import { UsageError } from '../errors.js';

interface Common {
  data: string;
  set: string[];
  out?: string;
  format: string;
}

export function registerTrustSimulations(simulate: Command): void {
  simulate
    .command('trust-convergence')
    .description('RMSD between trust iterations on a signed network (PlayerRating, "Reputation Convergence")')
    .requiredOption('--data <file>', 'NDJSON ratings (standing import bitcoin-otc|signed-csv)')
    .option('--observers <ids>', 'observer set (default: the 10 players with the most positive ratings)')
    .option('--iterations <n>', 'iterations to run', '40')
    .option('--set <key=value>', 'trust parameter, repeatable (ttlMax, negativeWeight, …)', collect, [])
    .option('--out <dir>', 'write the plot as SVG and PNG into this folder')
    .option('--format <format>', 'table or json', 'table')
    .action(async (options: Common & { observers?: string; iterations: string }) => {
      const output = format(options.format);
      const events = await readRatings(options.data);
      const observers = options.observers?.split(',') ?? mostTrusted(events, 10);
      const result = simulateTrustConvergence(events, { observers, iterations: positiveInteger(options.iterations, '--iterations'), params: parseAssignments(options.set, '--set') });
      const written =
        options.out === undefined
          ? []
          : await writePlots(options.out, {
              'trust-convergence': lineChart({
                title: `RMSD between iterations (${result.ratings.toLocaleString('en-US')} ratings, ${result.players.toLocaleString('en-US')} players)`,
                xLabel: 'iteration',
                yLabel: 'log10 RMSD',
                series: [{ name: 'RMSD', points: result.rmsd.map((r, i) => [i + 1, Math.log10(Math.max(r, 1e-18))]) }],
              }),
            });
      if (output === 'json') {
        printJson({ ratings: result.ratings, players: result.players, observers, rmsd: result.rmsd, plots: written });
        return;
      }
      print(
        [
          `trust convergence: ${options.data}, ${result.ratings.toLocaleString('en-US')} ratings, ${result.players.toLocaleString('en-US')} players, observers ${observers.join(',')}`,
          '',
          renderTable([{ title: 'iteration', align: 'right' }, { title: 'RMSD', align: 'right' }], result.rmsd.map((r, i) => [String(i + 1), r.toExponential(3)])),
          '',
          'Paper: convergence within tens of iterations (Slashdot Zoo subset, 101,842 ratings).',
          ...(written.length > 0 ? ['', `Figure: ${written.join(', ')}`] : []),
        ].join('\n'),
      );
    });

  simulate
    .command('trust-collusion')
    .description('adversary groups that earn trust, then abuse it: share of adversaries still trusted (PlayerRating, "Collusion Resistance")')
    .requiredOption('--data <file>', 'NDJSON ratings (standing import bitcoin-otc|signed-csv)')
    .option('--groups <shares>', 'adversary group sizes as shares of the population', '0.001,0.01,0.1')
    .option('--steps <n>', 'steps in which the endorsements turn negative', '10')
    .option('--endorsers <n>', 'original players who first rate each adversary positively', '5')
    .option('--viewers <n>', 'original players whose personal views are averaged', '10')
    .option('--seed <n>', 'random seed', '1')
    .option('--set <key=value>', 'trust parameter, repeatable', collect, [])
    .option('--out <dir>', 'write the plot as SVG and PNG into this folder')
    .option('--format <format>', 'table or json', 'table')
    .action(async (options: Common & { groups: string; steps: string; endorsers: string; viewers: string; seed: string }) => {
      const output = format(options.format);
      const events = await readRatings(options.data);
      const steps = positiveInteger(options.steps, '--steps');
      const curves = simulateTrustCollusion(events, {
        groups: numberList(options.groups, '--groups'),
        steps,
        endorsers: positiveInteger(options.endorsers, '--endorsers'),
        viewers: positiveInteger(options.viewers, '--viewers'),
        rng: seededRng(integer(options.seed, '--seed')),
        params: parseAssignments(options.set, '--set'),
      });
      const written =
        options.out === undefined
          ? []
          : await writePlots(options.out, {
              'trust-collusion': lineChart({
                title: 'Adversaries with positive reputation as endorsements turn negative',
                xLabel: 'share of endorsements turned negative',
                yLabel: 'share of adversaries trusted',
                yMin: 0,
                yMax: 1,
                series: curves.map((c) => ({ name: `${c.share * 100} % adversaries (${c.adversaries})`, points: c.positive.map((p, s) => [s / steps, p]) })),
              }),
            });
      if (output === 'json') {
        printJson({ steps, curves, plots: written });
        return;
      }
      print(
        [
          `trust collusion: ${options.data}; each step turns another 1/${steps} of the adversaries' endorsements negative`,
          '',
          renderTable(
            [{ title: 'turned', align: 'right' }, ...curves.map((c) => ({ title: `${c.share * 100} % (${c.adversaries})`, align: 'right' as const }))],
            Array.from({ length: steps + 1 }, (_, s) => [`${Math.round((100 * s) / steps)} %`, ...curves.map((c) => formatNumber(c.positive[s]!))]),
          ),
          '',
          'Cells: mean share of adversaries with positive reputation in the personal views of original players.',
          ...(written.length > 0 ? ['', `Figure: ${written.join(', ')}`] : []),
        ].join('\n'),
      );
    });
}

/** Reads the rating events of an NDJSON file (from `standing import bitcoin-otc|signed-csv`). */

export async function readRatings(path: string): Promise<RatingEvent[]> {
  const ratings: RatingEvent[] = [];
  for await (const event of readEvents(openEventSource(path))) if (event.type === 'rating') ratings.push(event);
  if (ratings.length === 0) throw new UsageError(`${path} has no rating events (make one with standing import bitcoin-otc or signed-csv)`);
  return ratings;
}
