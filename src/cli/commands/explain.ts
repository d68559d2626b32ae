/**
 * `standing explain cqr FILE --player ID`: every action of the player with its delta and its
 * fate under CQR_{T,x,k} (counted, below x, opposite sign, outside the window), from the same
 * replay the ranking uses.
 */
import type { Command } from 'commander';
import { DEFAULT_COMMUNITY, type StandingEvent } from '../../events/types.js';
import { readCqr, type DeltaFate } from '../../scorers/cqr/reference.js';
import type { CqrExplanation } from '../../scorers/cqr/scorer.js';
import { formatNumber, renderTable } from '../format/table.js';
import { describeParams, load } from '../load.js';
import { collect, format, scorerNamed } from '../options.js';
import { print, printJson } from '../output.js';
import { UsageError } from '../usage-error.js';

interface ExplainOptions {
  player: string;
  set: string[];
  format: string;
  community: string;
  quality?: string;
}

interface ExplainedAction {
  readonly line: number | undefined;
  readonly time: string;
  readonly id: string | undefined;
  readonly delta: number;
  readonly fate: DeltaFate;
}

const FATE_TEXT: Record<DeltaFate, string> = {
  counted: 'counted',
  'below-x': '|Δ| < x (f_x)',
  'opposite-sign': 'opposite sign (g_k)',
  'outside-window': 'older than the last T',
};

export function registerExplain(program: Command): void {
  program
    .command('explain')
    .description("show the actions that make up one player's score")
    .argument('<scorer>', 'scorer id (cqr)')
    .argument('<file>', 'NDJSON event log, or - for standard input')
    .requiredOption('--player <id>', 'the player to explain')
    .option('--set <key=value>', 'scorer parameter, repeatable', collect, [])
    .option('--community <name>', 'community of the player', DEFAULT_COMMUNITY)
    .option('--format <format>', 'table or json', 'table')
    .option('--quality <file.json>', 'options of the quality domains, as JSON')
    .action(async (scorerId: string, file: string, options: ExplainOptions) => {
      const scorer = scorerNamed(scorerId);
      const output = format(options.format);
      if (output === 'csv') throw new UsageError('explain prints table or json');
      const seen: { event: StandingEvent; line: number | undefined }[] = [];
      const { instances } = await load({
        scorer,
        set: options.set,
        file,
        qualityFile: options.quality,
        observe: (event, place) => {
          if (event.type === 'action' && event.player === options.player && event.community === options.community) {
            seen.push({ event, line: place?.line });
          }
        },
      });
      const instance = instances[0]!;
      const summary = scorer.explain(instance.state, options.community, options.player) as CqrExplanation | undefined;
      if (summary === undefined) {
        throw new UsageError(`player "${options.player}" has no actions in community "${options.community}" of ${file}`);
      }
      const reading = readCqr(summary.params, seen.map(({ event }) => (event.type === 'action' ? event.delta! : 0)));
      const actions: ExplainedAction[] = seen.map(({ event, line }, i) => ({
        line,
        time: new Date(event.time).toISOString(),
        id: event.id,
        delta: reading.deltas[i]!.delta,
        fate: reading.deltas[i]!.fate,
      }));
      if (output === 'json') {
        const { player, community, params, score, filter, window } = summary;
        printJson({ player, community, params, score, filter, window, actions });
        return;
      }
      const filter =
        summary.filter === 'none'
          ? 'g_k does not apply'
          : `the last k deltas are all ${summary.filter}: only ${summary.filter} deltas count (g_k)`;
      const table = renderTable(
        [{ title: '#', align: 'right' }, { title: 'line', align: 'right' }, { title: 'time' }, { title: 'delta', align: 'right' }, { title: 'fate' }],
        actions.map((a, i) => [String(i + 1), String(a.line ?? ''), a.time, formatNumber(a.delta), FATE_TEXT[a.fate]]),
      );
      print(
        [
          `cqr  ${describeParams(summary.params)}  player ${summary.player}  community ${summary.community}`,
          `score ${formatNumber(summary.score)} = sum of the ${actions.filter((a) => a.fate === 'counted').length} counted deltas; ${filter}`,
          '',
          table,
        ].join('\n'),
      );
    });
}
