/** `standing rank SCORER FILE|-`: rankings of one or several parameterizations, one pass. */
import type { Command } from 'commander';
import { describeParams } from '../../params/format.js';
import { computationSummary, computationWarning, emptyRankingHint } from '../format/rank-hints.js';
import { rankingsCsv, rankingsJson, rankingsSideBySide, rankingTable, worstFirst } from '../format/rankings.js';
import { load, nowOption } from '../load.js';
import { collect, defencesOption, DEFENCES_HELP, format, positiveInteger, scorerNamed } from '../options.js';
import { recommendedDefences } from '../../scorers/defences.js';
import { scorerById, scorerIds } from '../../scorers/index.js';
import { print, printJson } from '../output.js';
import { UsageError } from '../errors.js';
import type { StandingEvent } from '../../events/types.js';

/** The most communities `rank`'s hint for an empty --community lists. */
const HINT_COMMUNITIES = 10;

interface RankOptions {
  defences?: string;
  set: string[];
  compare: string[];
  format: string;
  top?: string;
  community?: string;
  quality?: string;
  stats?: boolean;
  now?: string;
  order: string;
}

/** `--help`'s list of every scorer's parameters with their defaults, and examples. */
function scorersHelp(): string {
  const width = Math.max(...scorerIds().map((id) => id.length));
  const lines = scorerIds().map((id) => {
    const defaults = Object.entries(scorerById(id)!.params.defaults as Record<string, unknown>).map(([key, value]) =>
      Array.isArray(value) && value.length === 0 ? `${key}=(required)` : describeParams({ [key]: value }),
    );
    return `  ${id.padEnd(width)}  ${defaults.join(' ')}`;
  });
  const recommended = scorerIds()
    .map((id) => [id, recommendedDefences(id)] as const)
    .filter(([, preset]) => Object.keys(preset).length > 0)
    .map(([id, preset]) => `  ${id.padEnd(width)}  ${describeParams(preset)}`);
  return [
    '',
    "Scorers and their parameters (--set key=value; the defaults shown, each scorer's published method):",
    ...lines,
    '',
    'Recommended defences, over the defaults above under --defences recommended (the default; --defences published runs the defaults):',
    ...recommended,
    '',
    'Examples:',
    '  standing rank cqr game.ndjson --set T=8 --set x=10 --set k=4',
    '  standing rank reliability matches.ndjson --order worst --top 10     # the ten worst droppers',
    '  standing rank trust ratings.ndjson --set observers=mod1,mod2 --stats',
    '  standing rank reports game.ndjson --community eu --format csv',
  ].join('\n');
}

export function registerRank(program: Command): void {
  program
    .command('rank')
    .description('rank the players of an NDJSON event log (FILE, or - for stdin)')
    .argument('<scorer>', `scorer id (${scorerIds().join(', ')})`)
    .argument('<file>', 'NDJSON event log, or - for standard input')
    .option('--set <key=value>', 'scorer parameter, repeatable (cqr: T, x, k)', collect, [])
    .option('--defences <setting>', DEFENCES_HELP)
    .option('--compare <params>', 'another parameterization run on the same pass, e.g. "T=8,x=0,k=8"; repeatable', collect, [])
    .option('--format <format>', 'table, json or csv', 'table')
    .option('--top <n>', 'show only the first n players of each community')
    .option('--community <name>', 'only this community')
    .option('--quality <file.json>', 'options of the quality domains, as JSON')
    .option('--stats', 'print how iterative computations ended (iterations, final residual) on standard error')
    .option('--order <best|worst>', 'best first (rank 1 first), or worst first: the most harmful players first, which is the bottom of the ranking (rank 1 for reports); with --top, the worst n', 'best')
    .option('--now <time>', 'evaluate as of this moment (ISO-8601 or epoch ms): later events left out, ratings and matches expire by it')
    .addHelpText('after', scorersHelp)
    .action(async (scorerId: string, file: string, options: RankOptions) => {
      const scorer = scorerNamed(scorerId);
      const output = format(options.format);
      const top = options.top === undefined ? undefined : positiveInteger(options.top, '--top');
      const now = nowOption(options.now);
      if (options.order !== 'best' && options.order !== 'worst') throw new UsageError(`--order expects best or worst, got "${options.order}"`);
      const worst = options.order === 'worst';
      // The events of each type the scorer uses (in --community, when given), for the hint when no player is ranked.
      const uses = new Set<string>(scorer.uses);
      const counts = new Map<string, { count: number }>();
      /** The communities with an event the scorer uses (the first HINT_COMMUNITIES found), for a --community that has none. */
      const usedIn = new Set<string>();
      // The last event's type and community, so a run of events alike costs no lookup.
      let lastType = '';
      let lastCount: { count: number } | undefined;
      let lastCommunity = '';
      const observe = (event: StandingEvent): void => {
        if (event.type !== lastType) {
          lastType = event.type;
          lastCount = uses.has(lastType) ? counts.get(lastType) : undefined;
          if (lastCount === undefined && uses.has(lastType)) counts.set(lastType, (lastCount = { count: 0 }));
        }
        if (lastCount === undefined) return;
        if (event.community !== lastCommunity && usedIn.size < HINT_COMMUNITIES) usedIn.add((lastCommunity = event.community));
        if (options.community === undefined || event.community === options.community) lastCount.count++;
      };
      const { instances } = await load({ scorer, set: options.set, compare: options.compare, defences: defencesOption(options.defences), file, qualityFile: options.quality, now, observe, observePlaces: false });
      const query = { ...(top === undefined || worst ? {} : { top }), ...(options.community === undefined ? {} : { community: options.community }) };
      const rankings = instances.map((instance) => {
        const rows = scorer.rank(instance.state, query);
        return { instance, rows: worst ? worstFirst(rows, scorer.rankOneIsWorst, top) : rows };
      });
      const empty = rankings[0]!.rows.length === 0;
      const used = new Map<string, number>();
      for (const [type, { count }] of counts) if (count > 0) used.set(type, count);
      if (empty) {
        process.stderr.write(`standing: ${emptyRankingHint(scorer, file, options.community, used, usedIn)}\n`);
        if (output === 'table') return; // the hint instead of an empty table
      }
      // Communities where rank 1, the worst, would be whoever's id sorts first (reports with no bad-player points).
      const unranked = new Set<string>();
      for (const { instance } of rankings) {
        const stats = scorer.stats?.(instance.state, options.community) ?? [];
        if (options.stats === true && stats.length === 0) process.stderr.write(`${scorer.id}: no iterative computation\n`);
        for (const s of stats) {
          const label = `${scorer.id} ${describeParams(instance.params)} · community ${s.community}`;
          if (options.stats === true) process.stderr.write(`${computationSummary(label, s)}\n`);
          if (s.warning === undefined || empty) continue; // with no row at all, the hint above said why
          process.stderr.write(`standing: ${computationWarning(scorer, label, s.warning)}\n`);
          if (scorer.rankOneIsWorst) unranked.add(`${instance.name}\u0000${s.community}`);
        }
      }
      if (output === 'json') printJson(rankingsJson(rankings));
      else if (output === 'csv') print(rankingsCsv(rankings));
      else {
        // For people, the warning instead of such a community's table; JSON and CSV list its players as the library does.
        const shown = rankings.map(({ instance, rows }) => ({ instance, rows: rows.filter((row) => !unranked.has(`${instance.name}\u0000${row.community}`)) }));
        if (shown[0]!.rows.length === 0) return;
        const communities = new Set(rankings[0]!.rows.map((row) => row.community)).size; // more than one: each table names its community
        print(shown.length === 1 ? rankingTable(shown[0]!, communities) : rankingsSideBySide(shown));
      }
    });
}
