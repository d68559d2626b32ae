/**
 * Append rows as they cross to the SQLite append thread (./sqlite-append-thread.ts →
 * ./sqlite-append-worker.ts): two strings, because cloning strings to a thread is a copy while
 * cloning arrays of arrays walks every element. Bodies are JSON text, which never holds a raw
 * newline, so a newline separates them.
 */
import type { AppendRow } from './sqlite-append.js';

export interface PackedRows {
  readonly id: number;
  /** JSON of [community, eventId, type, time] per row. */
  readonly meta: string;
  readonly bodies: string;
}

export function packRows(id: number, rows: readonly AppendRow[]): PackedRows {
  return { id, meta: JSON.stringify(rows.map((r) => [r[0], r[1], r[2], r[3]])), bodies: rows.map((r) => r[4]).join('\n') };
}

export function unpackRows(packed: PackedRows): AppendRow[] {
  const meta = JSON.parse(packed.meta) as [string, string | null, string, number][];
  const bodies = packed.bodies.split('\n');
  return meta.map(([community, eventId, type, time], i) => [community, eventId, type, time, bodies[i]!]);
}
