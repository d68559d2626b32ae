/** `standing rank SCORER FILE|-`: rankings of one or several parameterizations, one pass. */
import type { Command } from 'commander';
import type { AnyScorer, RankRow } from '../../scorers/scorer.js';
import { renderCsv } from '../format/csv.js';
import { formatNumber, renderTable, type Column } from '../format/table.js';
import { describeParams, load, nowOption } from '../load.js';
import { collect, format, positiveInteger, scorerNamed } from '../options.js';
import { scorerById, scorerIds } from '../../scorers/index.js';
import { print, printJson } from '../output.js';
import { UsageError } from '../usage-error.js';
import type { ScorerInstance } from '../../engine/engine.js';

interface RankOptions {
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

interface Ranking {
  readonly instance: ScorerInstance;
  readonly rows: RankRow[];
}

/**
 * The rows worst first, per community (moderators' "the bottom N"): the ranking read from the
 * end where rank 1 is the best, as it is where rank 1 is the worst (reports). Rows keep their rank.
 */
function worstFirst(rows: readonly RankRow[], rankOneIsWorst: boolean, top: number | undefined): RankRow[] {
  return groupByCommunity(rows).flatMap(([, group]) => (rankOneIsWorst ? group : group.reverse()).slice(0, top));
}

/** Why a ranking came out empty, for people: the community is not in the log, or nothing in it is this scorer's. */
function emptyHint(scorer: AnyScorer, states: unknown, file: string, community: string | undefined): string {
  const known = scorer.communities(states);
  if (community !== undefined && !known.includes(community)) {
    const listed = known.length === 0 ? 'none' : `${known.slice(0, 10).join(', ')}${known.length > 10 ? `, … (${known.length})` : ''}`;
    return `no community "${community}" has ${scorer.id} events in ${file} (communities that do: ${listed})`;
  }
  return `no player to rank: ${file} has no event ${scorer.id} uses (${scorer.uses.join(', ')})`;
}

/** Extra row fields (beyond rank, player, score, community) shown as table columns. */
function extraKeys(rows: readonly RankRow[]): string[] {
  const first = rows[0];
  return first === undefined ? [] : Object.keys(first).filter((key) => !['rank', 'player', 'score', 'community'].includes(key));
}

function formatCell(value: unknown): string {
  return typeof value === 'number' ? formatNumber(value) : value === undefined || value === null ? '' : String(value);
}

function renderOne({ instance, rows }: Ranking, communities: number): string {
  const extras = extraKeys(rows);
  const header = `${instance.scorer.id}  ${describeParams(instance.params)}`;
  const blocks = groupByCommunity(rows).map(([community, group]) => {
    const columns: Column[] = [
      { title: 'rank', align: 'right' },
      { title: 'player' },
      { title: 'score', align: 'right' },
      ...extras.map((title) => ({ title, align: typeof (group[0] as unknown as Record<string, unknown>)[title] === 'number' ? ('right' as const) : ('left' as const) })),
    ];
    const body = group.map((row) => [
      String(row.rank),
      row.player,
      formatNumber(row.score),
      ...extras.map((key) => formatCell((row as unknown as Record<string, unknown>)[key])),
    ]);
    const title = communities > 1 ? `community ${community} · ${group.length} players\n` : '';
    return title + renderTable(columns, body);
  });
  return `${header}\n\n${blocks.join('\n\n')}`;
}

/** Rankings side by side, one column pair per parameterization (the paper's Table 2 layout). */
function renderSideBySide(rankings: readonly Ranking[]): string {
  const groups = rankings.map(({ rows }) => groupByCommunity(rows));
  const blocks = groups[0]!.map(([community], g) => {
    const columns: Column[] = [{ title: 'rank', align: 'right' }];
    for (const { instance } of rankings) {
      const label = describeParams(instance.params);
      columns.push({ title: label }, { title: 'score', align: 'right' });
    }
    const depth = Math.max(...groups.map((group) => group[g]?.[1].length ?? 0));
    const body = Array.from({ length: depth }, (_, r) => {
      const cells = [String(r + 1)];
      for (const group of groups) {
        const row = group[g]?.[1][r];
        cells.push(row?.player ?? '', row === undefined ? '' : formatNumber(row.score));
      }
      return cells;
    });
    return `${rankings[0]!.instance.scorer.id} · community ${community}\n\n${renderTable(columns, body)}`;
  });
  return blocks.join('\n\n');
}

function groupByCommunity(rows: readonly RankRow[]): [string, RankRow[]][] {
  const groups = new Map<string, RankRow[]>();
  for (const row of rows) {
    const group = groups.get(row.community);
    if (group === undefined) groups.set(row.community, [row]);
    else group.push(row);
  }
  return [...groups];
}

function toCsv(rankings: readonly Ranking[]): string {
  const extras = extraKeys(rankings[0]!.rows);
  const multi = rankings.length > 1;
  const header = [...(multi ? ['parameters'] : []), 'community', 'rank', 'player', 'score', ...extras];
  const rows = rankings.flatMap(({ instance, rows }) =>
    rows.map((row) => [
      ...(multi ? [describeParams(instance.params)] : []),
      row.community,
      row.rank,
      row.player,
      row.score,
      ...extras.map((key) => (row as unknown as Record<string, unknown>)[key]),
    ]),
  );
  return renderCsv(header, rows);
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
  return [
    '',
    'Scorers and their parameters (--set key=value; the defaults shown):',
    ...lines,
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
      const { instances } = await load({ scorer, set: options.set, compare: options.compare, file, qualityFile: options.quality, now });
      const query = { ...(top === undefined || worst ? {} : { top }), ...(options.community === undefined ? {} : { community: options.community }) };
      const rankings = instances.map((instance) => {
        const rows = scorer.rank(instance.state, query);
        return { instance, rows: worst ? worstFirst(rows, scorer.rankOneIsWorst, top) : rows };
      });
      if (rankings[0]!.rows.length === 0) {
        process.stderr.write(`standing: ${emptyHint(scorer, instances[0]!.state, file, options.community)}\n`);
        if (output === 'table') return; // the hint instead of an empty table
      }
      const communities = new Set(rankings[0]!.rows.map((row) => row.community)).size;
      for (const { instance } of rankings) {
        const stats = scorer.stats?.(instance.state, options.community) ?? [];
        if (options.stats === true && stats.length === 0) process.stderr.write(`${scorer.id}: no iterative computation\n`);
        for (const s of stats) {
          const label = `${scorer.id} ${describeParams(instance.params)} · community ${s.community}`;
          if (options.stats === true) {
            process.stderr.write(
              `${label}: ${s.iterations} iterations, final residual ${s.residual.toExponential(3)}${s.converged ? '' : ' (not converged)'}, ${s.milliseconds.toFixed(1)} ms\n`,
            );
          }
          if (s.warning !== undefined) process.stderr.write(`standing: ${label}: ${s.warning}; try --now with a time inside the log, or ratings that live longer (--set expireHours=…)\n`);
        }
      }
      if (output === 'json') {
        if (rankings.length === 1) printJson(rankings[0]!.rows);
        else printJson(rankings.map(({ instance, rows }) => ({ scorer: scorer.id, params: instance.params, ranking: rows })));
      } else if (output === 'csv') {
        print(toCsv(rankings));
      } else {
        print(rankings.length === 1 ? renderOne(rankings[0]!, communities) : renderSideBySide(rankings));
      }
    });
}
