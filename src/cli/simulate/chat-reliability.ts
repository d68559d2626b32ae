/** `standing simulate chat-reliability`: messages from one friend needed to double a reputation (Figure 3). */
import type { Command } from 'commander';
import { lineChart } from '../../plots/svg.js';
import { simulateChatReliability } from '../../simulations/chat-reliability.js';
import { renderTable } from '../../util/text-table.js';
import { format, recipeOption } from '../options.js';
import { print, printJson } from '../output.js';
import { writePlots } from './write-plots.js';

const PAPER: Record<string, string> = { '0.1': 'more than 1,000', '0.9': 'about 600' };

export function registerChatReliability(simulate: Command): void {
  simulate
    .command('chat-reliability')
    .description('a player receiving messages from one friend of fixed reputation 0.1 or 0.9 (chat paper, Figure 3)')
    .option('--recipe <n>', 'recipe 1, 2 or 3', '1')
    .option('--out <dir>', 'write the figure as SVG into this folder')
    .option('--format <format>', 'table or json', 'table')
    .action(async (options: { recipe: string; out?: string; format: string }) => {
      const recipe = recipeOption(options.recipe);
      const output = format(options.format);
      const results = [0.1, 0.9].map((friend) => simulateChatReliability({ recipe, friend }));
      const written =
        options.out === undefined
          ? []
          : await writePlots(options.out, {
              'figure3-reliability': lineChart({
                title: `Figure 3: reputation over messages received from one friend (recipe ${recipe})`,
                xLabel: 'messages received',
                yLabel: 'reputation',
                series: results.map((r) => ({ name: `friend's reputation ${r.friend}`, points: r.series.map((rep, i) => [i + 1, rep]) })),
              }),
            });
      const doubling = Object.fromEntries(results.map((r) => [String(r.friend), r.doubling]));
      if (output === 'json') {
        printJson({ recipe, doubling, plots: written });
        return;
      }
      print(
        [
          `chat reliability: recipe ${recipe}; the receiver never sends, the friend's reputation is held fixed`,
          '',
          renderTable(
            [{ title: "friend's reputation", align: 'right' }, { title: 'messages to double', align: 'right' }, { title: 'paper (recipe 1)', align: 'right' }],
            results.map((r) => [String(r.friend), r.doubling === null ? 'not within 100,000' : r.doubling.toLocaleString('en-US'), PAPER[String(r.friend)]!]),
          ),
          ...(written.length > 0 ? ['', `Figure: ${written.join(', ')}`] : []),
        ].join('\n'),
      );
    });
}
