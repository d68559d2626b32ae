/**
 * `standing rank`'s output: one ranking as a table per community, several parameterizations
 * side by side, CSV and JSON; and the rows worst first, for moderators.
 */
import type { ScorerInstance } from '../../engine/engine.js';
import type { RankRow } from '../../scorers/scorer.js';
import { renderCsv } from '../../util/csv.js';
import { describeParams } from '../../params/format.js';
import { formatNumber, renderTable, type Column } from '../../util/text-table.js';

/** One parameterization's rows. */
export interface Ranking {
  readonly instance: ScorerInstance;
  readonly rows: RankRow[];
}

/**
 * The rows worst first, per community (moderators' "the bottom N"): the ranking read from the
 * end where rank 1 is the best, as it is where rank 1 is the worst (reports). Rows keep their rank.
 */
export function worstFirst(rows: readonly RankRow[], rankOneIsWorst: boolean, top: number | undefined): RankRow[] {
  return groupByCommunity(rows).flatMap(([, group]) => (rankOneIsWorst ? group : group.reverse()).slice(0, top));
}

/** Extra row fields (beyond rank, player, score, community) shown as table columns. */
function extraKeys(rows: readonly RankRow[]): string[] {
  const first = rows[0];
  return first === undefined ? [] : Object.keys(first).filter((key) => !['rank', 'player', 'score', 'community'].includes(key));
}

function formatCell(value: unknown): string {
  return typeof value === 'number' ? formatNumber(value) : value === undefined || value === null ? '' : String(value);
}

/** One ranking as a table per community, under its scorer and parameters (`communities`: how many the rows span). */
export function rankingTable({ instance, rows }: Ranking, communities: number): string {
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
export function rankingsSideBySide(rankings: readonly Ranking[]): string {
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

/** The rankings as CSV: one line per row, with a `parameters` column when there are several. */
export function rankingsCsv(rankings: readonly Ranking[]): string {
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

/** The rankings as a JSON value: the rows of one, or each parameterization's with its scorer and parameters. */
export function rankingsJson(rankings: readonly Ranking[]): unknown {
  if (rankings.length === 1) return rankings[0]!.rows;
  return rankings.map(({ instance, rows }) => ({ scorer: instance.scorer.id, params: instance.params, ranking: rows }));
}
