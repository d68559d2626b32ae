/**
 * The audit log as CSV: a header row, then one row per entry, each a line written as every CSV
 * standing emits (../../util/csv.ts: RFC 4180, CRLF line ends, cells guarded against formulas).
 */
import type { ModerationEntry } from '../../store/types.js';
import { csvLine } from '../../util/csv.js';

const COLUMNS = ['time', 'community', 'sequence', 'moderator', 'moderatorKey', 'action', 'player', 'id', 'reason', 'text', 'until', 'event'] as const;

const iso = (ms: number): string => (Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : String(ms));

export function csvHeader(): string {
  return csvLine(COLUMNS);
}

export function csvRow(entry: ModerationEntry): string {
  const event = entry.event as Record<string, unknown>;
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  const cells: Record<(typeof COLUMNS)[number], string> = {
    time: iso(entry.time),
    community: entry.community,
    sequence: String(entry.sequence),
    moderator: entry.moderator ?? '',
    moderatorKey: entry.moderatorKey ?? '',
    action: entry.action,
    player: entry.player ?? '',
    id: text(event.id),
    reason: text(event.reason),
    text: text(event.text),
    until: typeof event.until === 'number' ? iso(event.until) : '',
    event: JSON.stringify(entry.event),
  };
  return csvLine(COLUMNS.map((c) => cells[c]));
}
