/**
 * Player labels for evaluation and tuning (docs/spec.md §2.1, §2.4): a CSV `player,class` with class
 * F (fair), f (turned fair), d (turned disruptive), D (disruptive), or fair / disruptive; an optional
 * header line `player,…`, `#` comment lines and blank lines.
 */
import { readFile } from 'node:fs/promises';
import { InputError, LabelsError } from '../errors.js';
import { parseCsv } from '../util/csv.js';

export type PlayerClass = 'F' | 'f' | 'd' | 'D';
export type Label = PlayerClass | 'fair' | 'disruptive';

const LABELS: ReadonlySet<string> = new Set(['F', 'f', 'd', 'D', 'fair', 'disruptive']);

/** Whether a label counts as fair (F, f, fair) for ROC AUC. */
export function isFair(label: Label): boolean {
  return label === 'F' || label === 'f' || label === 'fair';
}

export function parseLabels(text: string, source: string): Map<string, Label> {
  const labels = new Map<string, Label>();
  const rows = parseCsv(text, { comments: true, invalid: (line, reason) => new LabelsError({ source, line }, reason) });
  for (const { cells, line } of rows) {
    if (line === 1 && cells[0] === 'player') continue; // header
    const place = { source, line };
    if (cells.length < 2 || cells[0] === '') throw new LabelsError(place, 'expected "player,class"');
    const [player, label] = cells as [string, string];
    if (!LABELS.has(label)) {
      throw new LabelsError(place, `class "${label}" is not one of F, f, d, D, fair, disruptive`);
    }
    if (labels.has(player)) throw new LabelsError(place, `player "${player}" is labelled twice`);
    labels.set(player, label as Label);
  }
  if (labels.size === 0) throw new LabelsError({ source }, 'no labelled players');
  return labels;
}

export async function readLabels(path: string): Promise<Map<string, Label>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InputError(path, (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message);
  }
  return parseLabels(text, path);
}
