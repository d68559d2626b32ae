/**
 * The audit log as CSV (RFC 4180): a header row, one row per entry, CRLF line ends, a cell quoted
 * when it holds a quote, a comma or a line break. A cell that starts with =, +, -, @, a tab or a
 * carriage return gets a leading apostrophe, so a spreadsheet opening the export shows it as text
 * and never runs it as a formula (OWASP's CSV injection advice).
 */
import type { ModerationEntry } from '../../store/types.js';

const COLUMNS = ['time', 'community', 'sequence', 'moderator', 'action', 'player', 'id', 'reason', 'text', 'until', 'event'] as const;

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: guarded against formulas, then quoted when it must be. */
export function csvCell(value: string): string {
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

const iso = (ms: number): string => (Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : String(ms));

export function csvHeader(): string {
  return `${COLUMNS.join(',')}\r\n`;
}

export function csvRow(entry: ModerationEntry): string {
  const event = entry.event as Record<string, unknown>;
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  const cells: Record<(typeof COLUMNS)[number], string> = {
    time: iso(entry.time),
    community: entry.community,
    sequence: String(entry.sequence),
    moderator: entry.moderator ?? '',
    action: entry.action,
    player: entry.player ?? '',
    id: text(event.id),
    reason: text(event.reason),
    text: text(event.text),
    until: typeof event.until === 'number' ? iso(event.until) : '',
    event: JSON.stringify(entry.event),
  };
  return `${COLUMNS.map((c) => csvCell(cells[c])).join(',')}\r\n`;
}
