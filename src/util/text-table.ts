/** Aligned plain-text tables for people: numbers right-aligned, text left-aligned. */

export interface Column {
  readonly title: string;
  readonly align?: 'left' | 'right';
}

export function renderTable(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
  options: { readonly rule?: boolean } = {},
): string {
  // A loop, not Math.max(...rows): a spread passes every row as an argument, and a ranking of a
  // million players overflows the call stack.
  const widths = columns.map((column) => column.title.length);
  for (const row of rows) {
    for (let i = 0; i < widths.length; i++) widths[i] = Math.max(widths[i]!, (row[i] ?? '').length);
  }
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (columns[i]!.align === 'right' ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const rule = options.rule === true ? [widths.map((width) => '-'.repeat(width)).join('  ')] : [];
  return [line(columns.map((c) => c.title)), ...rule, ...rows.map(line)].join('\n');
}

/** Compact number for tables: integers as is, others with up to 4 decimals. */
export function formatNumber(value: number | null): string {
  if (value === null) return '—';
  if (Number.isInteger(value) || !Number.isFinite(value)) return String(value);
  return String(Number(value.toFixed(4)));
}
