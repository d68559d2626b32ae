/** The closing block of the bench: every figure with its baseline, its target and whether it is met. */
import { formatBaseline, formatMet, formatRatioText, formatTarget, formatValue, type Figure } from './figures.js';
import { table } from './format.js';

export type { Figure };

export function renderSummary(figures: readonly Figure[]): string {
  const rows = figures.map((f) => [
    f.what,
    formatValue(f.value, f.unit),
    formatBaseline(f),
    f.ratio === undefined ? '—' : formatRatioText(f.ratio),
    f.target === undefined ? '(reported)' : formatTarget(f),
    formatMet(f),
  ]);
  const targeted = figures.filter((f) => f.target !== undefined);
  const met = targeted.filter((f) => f.met === true).length;
  return [
    table(
      [{ title: 'figure' }, { title: 'value', align: 'right' }, { title: 'baseline (same run)' }, { title: 'vs baseline' }, { title: 'target', align: 'right' }, { title: 'met' }],
      rows,
    ),
    '',
    `${met} of ${targeted.length} targets met.`,
  ].join('\n');
}
