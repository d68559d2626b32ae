/** `standing explain SCORER FILE --player ID`: what makes up one player's score. */
import type { Command } from 'commander';
import { DEFAULT_COMMUNITY } from '../../events/types.js';
import { scorerIds, scorerModule } from '../../scorers/index.js';
import type { ObservedEvent } from '../../scorers/module.js';
import { load, nowOption } from '../load.js';
import { collect, defencesOption, DEFENCES_HELP, format, scorerNamed } from '../options.js';
import { print, printJson } from '../output.js';
import { UsageError } from '../errors.js';

interface ExplainOptions {
  defences?: string;
  player: string;
  set: string[];
  format: string;
  community: string;
  quality?: string;
  now?: string;
}

export function registerExplain(program: Command): void {
  program
    .command('explain')
    .description("show the events that make up one player's score")
    .argument('<scorer>', `scorer id (${scorerIds().filter((id) => scorerModule(id)?.explainText !== undefined).join(', ')})`)
    .argument('<file>', 'NDJSON event log, or - for standard input')
    .requiredOption('--player <id>', 'the player to explain')
    .option('--set <key=value>', 'scorer parameter, repeatable', collect, [])
    .option('--defences <setting>', DEFENCES_HELP)
    .option('--community <name>', 'community of the player', DEFAULT_COMMUNITY)
    .option('--format <format>', 'table or json', 'table')
    .option('--quality <file.json>', 'options of the quality domains, as JSON')
    .option('--now <time>', 'evaluate as of this moment (ISO-8601 or epoch ms): later events left out, expiry evaluated then')
    .action(async (scorerId: string, file: string, options: ExplainOptions) => {
      const scorer = scorerNamed(scorerId);
      const text = scorerModule(scorer.id)?.explainText;
      if (text === undefined) throw new UsageError(`explain does not support ${scorer.id} yet`);
      const output = format(options.format);
      if (output === 'csv') throw new UsageError('explain prints table or json');
      const { player, community } = options;
      const observed: ObservedEvent[] = [];
      const observes = text.observes;
      const { instances } = await load({
        scorer,
        set: options.set,
        defences: defencesOption(options.defences),
        file,
        qualityFile: options.quality,
        now: nowOption(options.now),
        ...(observes === undefined ? {} : { observe: (event, place) => void (observes(event, player, community) && observed.push({ event, line: place?.line })) }),
      });
      const explanation: unknown = scorer.explain(instances[0]!.state, community, player);
      if (explanation === undefined) throw new UsageError(`player "${player}" has no ${text.nothing} in community "${community}" of ${file}`);
      const explained = text.describe(explanation, observed);
      if (output === 'json') printJson(explained.json);
      else print(explained.text);
    });
}
