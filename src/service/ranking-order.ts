/**
 * Orders of a ranking besides rank order, for the read side: its rows sorted by any column and
 * its score range, each computed once per rows array (a ranking view's rows, replaced when the
 * view refreshes).
 */
import { ParameterError } from '../errors.js';
import type { RankRow } from '../scorers/scorer.js';

const derived = new WeakMap<readonly RankRow[], { min: number; max: number; sorted: Map<string, readonly RankRow[]> }>();

function derive(rows: readonly RankRow[]): { min: number; max: number; sorted: Map<string, readonly RankRow[]> } {
  let entry = derived.get(rows);
  if (entry === undefined) {
    let min = Infinity;
    let max = -Infinity;
    for (const row of rows) {
      if (row.score < min) min = row.score;
      if (row.score > max) max = row.score;
    }
    entry = { min: rows.length === 0 ? 0 : min, max: rows.length === 0 ? 0 : max, sorted: new Map() };
    derived.set(rows, entry);
  }
  return entry;
}

/** The rows ordered by `field` ascending (ties by rank); throws ParameterError for an unknown column. */
export function sortedBy(rows: readonly RankRow[], field: string): readonly RankRow[] {
  if (field === 'rank') return rows;
  const { sorted } = derive(rows);
  let out = sorted.get(field);
  if (out === undefined) {
    if (rows.length > 0 && !(field in rows[0]!)) {
      throw new ParameterError('rankings', 'sort', `"${field}" is not a column of this ranking (columns: ${Object.keys(rows[0]!).join(', ')})`);
    }
    const value = (row: RankRow) => (row as unknown as Record<string, unknown>)[field];
    out = [...rows].sort((a, b) => {
      const x = value(a);
      const y = value(b);
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
      return c !== 0 ? c : a.rank - b.rank;
    });
    sorted.set(field, out);
  }
  return out;
}

/** The smallest and largest score (0 and 0 for no rows). */
export function scoreRange(rows: readonly RankRow[]): { min: number; max: number } {
  const { min, max } = derive(rows);
  return { min, max };
}
