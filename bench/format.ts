/** Plain-text output of the bench: aligned tables and number formats. */
import { renderTable, type Column } from '../src/util/text-table.js';

export type { Column };

/** An aligned table with a rule under the header (the CLI's renderer). */
export function table(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  return renderTable(columns, rows, { rule: true });
}

export function heading(title: string): string {
  return `\n== ${title} ${'='.repeat(Math.max(3, 86 - title.length))}\n`;
}

/** `12.3 M` per second, `850 k` per second. */
export function rate(perSecond: number, unit: string): string {
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)} M ${unit}/s`;
  return `${(perSecond / 1e3).toFixed(1)} k ${unit}/s`;
}

export function seconds(value: number): string {
  return value < 1 ? `${(value * 1000).toFixed(1)} ms` : `${value.toFixed(2)} s`;
}

export function ratio(value: number): string {
  return `${value.toFixed(2)}×`;
}

export function bytes(value: number): string {
  return `${value.toFixed(1)} B`;
}

export function mebibytes(value: number): string {
  return `${(value / (1 << 20)).toFixed(1)} MiB`;
}

export function count(value: number): string {
  return value.toLocaleString('en-US');
}
