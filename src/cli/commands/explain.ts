/** `standing explain SCORER FILE --player ID`: what makes up one player's score. */
import type { Command } from 'commander';
import { DEFAULT_COMMUNITY } from '../../events/types.js';
import { explainChat } from '../explain/chat.js';
import { explainCqr } from '../explain/cqr.js';
import { explainReliability } from '../explain/reliability.js';
import { explainReports } from '../explain/reports.js';
import { explainTrust } from '../explain/trust.js';
import type { Explained, ExplainRequest } from '../explain/request.js';
import { nowOption } from '../load.js';
import { collect, format, scorerNamed } from '../options.js';
import { print, printJson } from '../output.js';
import { UsageError } from '../usage-error.js';

const EXPLAINERS: Readonly<Record<string, (request: ExplainRequest) => Promise<Explained>>> = {
  cqr: explainCqr,
  reliability: explainReliability,
  chat: explainChat,
  trust: explainTrust,
  reports: explainReports,
};

interface ExplainOptions {
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
    .argument('<scorer>', `scorer id (${Object.keys(EXPLAINERS).join(', ')})`)
    .argument('<file>', 'NDJSON event log, or - for standard input')
    .requiredOption('--player <id>', 'the player to explain')
    .option('--set <key=value>', 'scorer parameter, repeatable', collect, [])
    .option('--community <name>', 'community of the player', DEFAULT_COMMUNITY)
    .option('--format <format>', 'table or json', 'table')
    .option('--quality <file.json>', 'options of the quality domains, as JSON')
    .option('--now <time>', 'evaluate as of this moment (ISO-8601 or epoch ms): later events left out, expiry evaluated then')
    .action(async (scorerId: string, file: string, options: ExplainOptions) => {
      const scorer = scorerNamed(scorerId);
      const explainer = EXPLAINERS[scorer.id];
      if (explainer === undefined) throw new UsageError(`explain does not support ${scorer.id} yet`);
      const output = format(options.format);
      if (output === 'csv') throw new UsageError('explain prints table or json');
      const explained = await explainer({
        scorer,
        file,
        player: options.player,
        community: options.community,
        set: options.set,
        qualityFile: options.quality,
        now: nowOption(options.now),
      });
      if (output === 'json') printJson(explained.json);
      else print(explained.text);
    });
}
