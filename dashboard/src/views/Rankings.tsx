/**
 * One scorer instance's ranking of a community, worst offenders first by default, sortable by any
 * column, paged through the API (only the shown page is loaded).
 */
import { api, type Scorer } from '../api.js';
import { BarLegend, ScoreBar } from '../components/ScoreBar.js';
import { UserLink, UserText } from '../components/UserText.js';
import { formatNumber, label } from '../format.js';
import { href } from '../route.js';
import { useLoad } from '../load.js';
import { Pager } from '../components/Pager.js';

const PAGE = 50;

/** The rank order that lists the most harmful players first: from rank 1 where it is the worst (reports), else from the last rank. */
export function worstFirst(scorer: Scorer): 'asc' | 'desc' {
  return scorer.rankOneIsWorst ? 'asc' : 'desc';
}

interface Props {
  scorer: Scorer;
  /** Where a player's name leads: their case page for a moderator, else their player page. */
  playerHref: (player: string, community: string) => string;
  community: string;
  query: URLSearchParams;
}

export function Rankings({ scorer, community, query, playerHref }: Props) {
  const sort = query.get('sort') ?? 'rank';
  const order = (query.get('order') as 'asc' | 'desc' | null) ?? (sort === 'rank' ? worstFirst(scorer) : 'asc');
  const page = Math.max(1, Number(query.get('page') ?? '1') || 1);
  const state = useLoad(
    (signal) => api.ranking(scorer.name, { community, limit: PAGE, offset: (page - 1) * PAGE, order, sort }, { signal }),
    [scorer.name, community, sort, order, page],
  );
  // While a page loads, the previous page stays on screen, but never another ranking's rows:
  // they would be drawn with this scorer's columns and bars.
  const data = state.data !== undefined && state.data.scorer === scorer.name && state.data.community === community ? state.data : undefined;
  // The scorer's own columns, from the rows shown (never another scorer's).
  const first = data?.rows[0];
  const columns = first === undefined ? [] : Object.keys(first).filter((c) => !['rank', 'player', 'score', 'community', 'bar', 'band'].includes(c));
  // What the score is built from comes first (reports: the reports received, before those made).
  columns.sort((a, b) => Number(b === 'reported') - Number(a === 'reported'));

  const link = (changes: Record<string, string | number | undefined>) =>
    href(['rankings', scorer.name], { community, sort, order: query.get('order') ?? undefined, page, ...changes });
  const sortLink = (column: string) => {
    const next = column === sort ? (order === 'asc' ? 'desc' : 'asc') : column === 'rank' ? worstFirst(scorer) : 'asc';
    return link({ sort: column, order: next, page: 1 });
  };
  const header = (column: string, label = column) => (
    <th scope="col" aria-sort={column === sort ? (order === 'asc' ? 'ascending' : 'descending') : undefined}>
      <a href={sortLink(column)}>
        {label}
        {column === sort ? (order === 'asc' ? ' ▲' : ' ▼') : ''}
      </a>
    </th>
  );

  return (
    <section aria-labelledby="ranking-title">
      <h2 id="ranking-title">
        {scorer.name} <span class="muted">in {community}</span>
      </h2>
      {state.error !== undefined && <p class="error">{state.error}</p>}
      {data !== undefined && (
        <>
          <p class="muted">
            {data.total === 0
              ? 'Nobody is ranked yet.'
              : `${(page - 1) * PAGE + 1}–${Math.min(page * PAGE, data.total)} of ${data.total.toLocaleString('en')} players · as of event ${data.sequence.toLocaleString('en')}`}
            {sort === 'rank' && order === worstFirst(scorer) ? ' · worst first' : ''}
          </p>
          <p class="hint" data-testid="rank-hint">
            Score: {scorer.rankOneIsWorst ? `${scorer.direction}: rank 1 is the worst` : `${scorer.direction}: rank 1 is the best, the last rank the worst`}.
          </p>
          <BarLegend scale={scorer.bar} />
          <div class="table-wrap">
            <table class="ranking stack">
              <thead>
                <tr>
                  {header('rank')}
                  {header('player')}
                  {header('score')}
                  {columns.map((c) => header(c, label(c)))}
                </tr>
              </thead>
              <tbody>
                {data.rows.map((row) => {
                  const cells = row as Record<string, unknown>;
                  return (
                  <tr key={row.player}>
                    <td class="num" data-label="rank">{row.rank}</td>
                    <td data-label="player">
                      <UserLink href={playerHref(row.player, community)} text={row.player} />
                    </td>
                    <td data-label="score">
                      <ScoreBar scale={scorer.bar} score={row.score} range={data.range} band={typeof row.band === 'string' ? row.band : undefined} />
                    </td>
                    {columns.map((c) => (
                      <td key={c} class={typeof cells[c] === 'number' ? 'num' : ''} data-label={label(c)}>
                        {typeof cells[c] === 'number' ? formatNumber(cells[c]) : <UserText text={String(cells[c] ?? '')} />}
                      </td>
                    ))}
                  </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Pager page={page} total={data.total} pageSize={PAGE} pageHref={(to) => link({ page: to })} />
        </>
      )}
    </section>
  );
}
