/**
 * The CQR paper's Table 1 (Quesada & Villacorta, ../shared/papers/cqr-community-quality-ranking.txt),
 * read from test/fixtures/cqr-table1.csv (source in test/fixtures/README.md).
 */
import { readFileSync } from 'node:fs';
import type { PlayerClass } from '../../src/index.js';

export interface Table1Player {
  readonly player: string;
  readonly class: PlayerClass;
  readonly deltas: readonly number[];
  /** Printed CQR for (∞,0,∞), (8,0,8), (8,10,8), (8,10,4). */
  readonly printed: readonly [number, number, number, number];
}

export const PAPER_PARAMETERIZATIONS = [
  { T: Infinity, x: 0, k: Infinity },
  { T: 8, x: 0, k: 8 },
  { T: 8, x: 10, k: 8 },
  { T: 8, x: 10, k: 4 },
] as const;

export const TABLE1: readonly Table1Player[] = readFileSync(new URL('../fixtures/cqr-table1.csv', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const cells = line.split(',');
    return {
      player: cells[0]!,
      class: cells[1] as PlayerClass,
      deltas: cells.slice(2, 22).map(Number),
      printed: cells.slice(22, 26).map(Number) as unknown as [number, number, number, number],
    };
  });

export const TABLE1_LABELS: ReadonlyMap<string, PlayerClass> = new Map(TABLE1.map((p) => [p.player, p.class]));
