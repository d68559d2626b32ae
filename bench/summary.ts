/** The closing block of the bench: every figure with its target and whether it is met. */
import { table } from './format.js';

export interface Figure {
  readonly name: string;
  readonly value: string;
  /** Human form of the target, or undefined when the figure is only reported. */
  readonly target?: string;
  /** Whether the target is met (ignored without a target). */
  readonly met?: boolean;
}

export function renderSummary(figures: readonly Figure[]): string {
  const rows = figures.map((f) => [f.name, f.value, f.target ?? '(reported)', f.target === undefined ? '—' : f.met ? 'yes' : 'NO']);
  const targeted = figures.filter((f) => f.target !== undefined);
  const met = targeted.filter((f) => f.met === true).length;
  return [
    table([{ title: 'figure' }, { title: 'value', align: 'right' }, { title: 'target', align: 'right' }, { title: 'met' }], rows),
    '',
    `${met} of ${targeted.length} targets met.`,
  ].join('\n');
}
