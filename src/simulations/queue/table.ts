/**
 * The cells of `simulate queue`'s table, for the CLI's plain-text table and the generated table
 * of docs/moderation.md alike: one row per scenario and order (the two baselines, then the queue
 * under each configuration), precision at each k, and the places of the attack's targets.
 */
import { INNOCENT_CUTOFF, type OrderRow, type Place, type QueueSimulationResult } from './run.js';

/** The most innocent targets whose places are listed one by one; beyond, they are counted. */
const LISTED = 3;

export interface QueueTable {
  readonly titles: readonly string[];
  /** Which columns hold numbers (right-aligned). */
  readonly numeric: readonly boolean[];
  readonly rows: readonly (readonly string[])[];
}

const placeText = (p: Place) => (p.place === null ? '—' : String(p.place));

/** "3, 1, 2"; or, for many, "2 of 21 in the first 50, best 41"; "—" for a player not in the order. */
export function innocentsText(innocents: readonly Place[]): string {
  if (innocents.length <= LISTED) return innocents.map(placeText).join(', ');
  const placed = innocents.map((p) => p.place).filter((p): p is number => p !== null);
  const inCutoff = placed.filter((p) => p <= INNOCENT_CUTOFF).length;
  return `${inCutoff} of ${innocents.length} in the first ${INNOCENT_CUTOFF}, best ${placed.length === 0 ? '—' : Math.min(...placed)}`;
}

function orderName(row: OrderRow): string {
  return row.order === 'queue' ? `queue, ${row.configuration}` : row.order;
}

export function queueTable(result: QueueSimulationResult): QueueTable {
  return {
    titles: ['scenario', 'order', ...result.ks.map((k) => (k === result.community.trulyBad ? `P@${k} (k = truly bad)` : `P@${k}`)), "innocent targets' places", "hiding bad player's place"],
    numeric: ['scenario', 'order', ...result.ks.map(() => 'P@k'), 'innocents', 'hidden'].map((c) => c === 'P@k'),
    rows: result.rows.map((row) => [row.scenario, orderName(row), ...result.ks.map((k) => row.precision[String(k)]!.toFixed(3)), innocentsText(row.innocents), row.hidden.map(placeText).join(', ')]),
  };
}
