/**
 * Golden values from the CQR paper: Table 1 (all 80 CQR values), Table 2 (the four rankings)
 * and Table 4 (the correspondence scores), through the public entry point.
 */
import { describe, expect, it } from 'vitest';
import { cqr, evaluateRanking, type ActionEvent } from '../../../src/index.js';
import { PAPER_PARAMETERIZATIONS, TABLE1, TABLE1_LABELS } from '../../support/table1.js';

/** The paper's actions in rounds: every player's 1st action, then every player's 2nd, … */
function table1Actions(): ActionEvent[] {
  const actions: ActionEvent[] = [];
  for (let a = 0; a < 20; a++) {
    for (const p of TABLE1) {
      actions.push({ type: 'action', time: a, community: 'default', player: p.player, delta: p.deltas[a]! });
    }
  }
  return actions;
}

function run(params: (typeof PAPER_PARAMETERIZATIONS)[number]) {
  const state = cqr.initialState(cqr.params.resolve(params));
  for (const action of table1Actions()) cqr.evolve(state, action);
  return state;
}

describe('Table 1: all 80 CQR values', () => {
  PAPER_PARAMETERIZATIONS.forEach((params, column) => {
    it(`CQR_{${params.T},${params.x},${params.k}} of every player`, () => {
      const state = run(params);
      const got = Object.fromEntries(TABLE1.map((p) => [p.player, cqr.explain(state, 'default', p.player)!.score]));
      const printed = Object.fromEntries(TABLE1.map((p) => [p.player, p.printed[column]]));
      expect(got).toEqual(printed);
    });
  });

  it('F5 under (8,10,4): the last four filtered deltas are positive, so the positives of F are summed (docs/spec.md §2.1)', () => {
    const state = run({ T: 8, x: 10, k: 4 });
    const explanation = cqr.explain(state, 'default', 'F5')!;
    expect(explanation.filter).toBe('positive');
    expect(explanation.window).toEqual([12, 21, 13, 20, 13, 22, 24]);
    expect(explanation.score).toBe(125);
  });
});

describe('Table 2: the four rankings', () => {
  // Table 2 of the paper, top to bottom. In the (∞,0,∞) ranking the paper lists f2 (−46) above
  // d4 (−42): a slip, since −42 > −46. Both are in quartile III, so Table 4 is unaffected.
  const paper = [
    'F1 F4 d2 F3 d3 d1 d5 F5 F2 f1 f3 f4 f2 d4 f5 D3 D2 D4 D1 D5',
    'F1 f2 f5 F4 f1 F2 f4 f3 F5 F3 d4 D1 d2 d3 D2 D5 d5 D3 D4 d1',
    'F1 F4 F2 f2 F3 f5 f4 F5 d3 f1 d2 f3 d5 d4 D3 D2 D1 D4 d1 D5',
    'f1 F1 F4 f3 F5 F2 f2 f5 F3 f4 d3 d4 d2 D2 D4 d1 D5 D1 d5 D3',
  ].map((line) => line.split(' '));
  const erratumFixed = [...paper[0]!];
  [erratumFixed[12], erratumFixed[13]] = ['d4', 'f2'];
  const expected = [erratumFixed, paper[1]!, paper[2]!, paper[3]!];

  PAPER_PARAMETERIZATIONS.forEach((params, column) => {
    it(`ranking of CQR_{${params.T},${params.x},${params.k}}`, () => {
      const rows = cqr.rank(run(params));
      expect(rows.map((row) => row.player)).toEqual(expected[column]);
      expect(rows.map((row) => row.rank)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    });
  });

  it('breaks the tie D5 = d5 = −63 under (8,0,8) by player id, as the paper lists them', () => {
    const rows = cqr.rank(run({ T: 8, x: 0, k: 8 }));
    expect(rows.slice(15, 17).map((r) => [r.player, r.score])).toEqual([
      ['D5', -63],
      ['d5', -63],
    ]);
  });
});

describe('Table 4: class-to-quartile correspondence', () => {
  // The paper prints 34 for (∞,0,∞); its own Table 2 ranking sums to 24 (docs/spec.md §2.1 erratum).
  const scores = [24, 100, 92, 104];
  PAPER_PARAMETERIZATIONS.forEach((params, column) => {
    it(`CQR_{${params.T},${params.x},${params.k}} scores ${scores[column]}`, () => {
      expect(evaluateRanking(cqr.rank(run(params)), TABLE1_LABELS).score).toBe(scores[column]);
    });
  });
});
