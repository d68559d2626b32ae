/**
 * `standing simulate queue`: how well the attention queue finds the truly bad players of the
 * attack suite's generated community, honest and under each attack, beside the report counts a
 * studio reads today; one table, or one JSON document.
 */
import { Option, type Command } from 'commander';
import { CONFIGURATIONS, runQueueSimulation, type Configuration, type QueueSimulationResult } from '../../simulations/queue/run.js';
import { queueScenarioNames } from '../../simulations/queue/scenarios.js';
import { queueTable } from '../../simulations/queue/table.js';
import { renderTable } from '../../util/text-table.js';
import { UsageError } from '../errors.js';
import { collect, integer, positiveInteger } from '../options.js';
import { print, printJson } from '../output.js';

/** The smallest community: smaller ones may have no reported bad player for the scenarios to use. */
const MIN_PLAYERS = 100;

interface Options {
  scenario: string[];
  defences: string[];
  seed: string;
  players: string;
  format: string;
}

export function registerQueue(simulate: Command): void {
  simulate
    .command('queue')
    .description("the attention queue's worth: precision at k of truly bad players, honest and under each attack, beside the report counts")
    .addOption(new Option('--scenario <name>', 'a scenario to run, repeatable').argParser(collect).default([], `all of ${queueScenarioNames().join(', ')}`))
    .addOption(new Option('--defences <setting>', 'a configuration to run the queue under, repeatable').argParser(collect).default([], `both of ${CONFIGURATIONS.join(', ')}`))
    .option('--seed <n>', 'random seed of the community and the attacks', '1')
    .option('--players <n>', `players in the honest community (at least ${MIN_PLAYERS})`, '800')
    .option('--format <format>', 'table or json', 'table')
    .action(async (options: Options) => {
      if (options.format !== 'table' && options.format !== 'json') throw new UsageError(`--format expects table or json for simulate queue, got "${options.format}"`);
      const known = queueScenarioNames();
      for (const name of options.scenario) {
        if (!known.includes(name)) throw new UsageError(`--scenario: unknown scenario "${name}" (known: ${known.join(', ')})`);
      }
      for (const name of options.defences) {
        if (!(CONFIGURATIONS as readonly string[]).includes(name)) throw new UsageError(`--defences expects ${CONFIGURATIONS.join(' or ')}, got "${name}"`);
      }
      const players = positiveInteger(options.players, '--players');
      if (players < MIN_PLAYERS) throw new UsageError(`--players expects at least ${MIN_PLAYERS} (the scenarios need reported bad players in the honest community), got ${players}`);
      // Loaded here, not at start: registering the commands loads none of the service stack.
      const { serviceQueueReader } = await import('../../app/queue-service.js');
      const result = await runQueueSimulation({ seed: integer(options.seed, '--seed'), players, scenarios: options.scenario, configurations: options.defences as Configuration[] }, serviceQueueReader);
      if (options.format === 'json') printJson(result);
      else print(render(result));
    });
}

function render(result: QueueSimulationResult): string {
  const c = result.community;
  const table = queueTable(result);
  const unmet = result.targets.filter((t) => !t.met);
  return [
    `queue simulation: seed ${c.seed}; ${c.players.toLocaleString('en-US')} players (${c.trulyBad} truly bad), ${c.matches.toLocaleString('en-US')} matches, ${c.events.toLocaleString('en-US')} events over ${c.days} days`,
    ...result.scenarios.map((s) => `  ${s.name}: ${s.description}${s.events > 0 ? ` (${s.events.toLocaleString('en-US')} events)` : ''}`),
    '',
    renderTable(
      table.titles.map((title, i) => ({ title, align: table.numeric[i] ? 'right' : 'left' })),
      table.rows,
    ),
    '',
    `P@k: the share of the first k places held by truly bad players. "—": not in the order.`,
    ...(result.targets.length === 0
      ? []
      : [`target: ${result.goal}: ${unmet.length === 0 ? 'met' : `NOT met under ${unmet.map((t) => t.scenario).join(', ')}`}`]),
  ].join('\n');
}
