/**
 * `standing explain cqr`: every action of the player with its delta and its fate under
 * CQR_{T,x,k} (counted, below x, opposite sign, outside the window), from the same replay the
 * ranking uses.
 */
import { describeParams } from '../../params/format.js';
import { formatNumber, renderTable } from '../../util/text-table.js';
import type { ExplainText } from '../module.js';
import { readCqr, type DeltaFate } from './formula.js';
import type { CqrExplanation } from './scorer.js';

const FATE_TEXT: Record<DeltaFate, string> = {
  counted: 'counted',
  'below-x': '|Δ| < x (f_x)',
  'opposite-sign': 'opposite sign (g_k)',
  'outside-window': 'older than the last T',
};

export const cqrExplainText: ExplainText<CqrExplanation> = {
  nothing: 'actions',
  observes: (event, player, community) => event.type === 'action' && event.player === player && event.community === community,
  describe(summary, observed) {
    const reading = readCqr(summary.params, observed.map(({ event }) => (event.type === 'action' ? event.delta! : 0)));
    const actions = observed.map(({ event, line }, i) => ({
      line,
      time: new Date(event.time).toISOString(),
      id: event.id,
      delta: reading.deltas[i]!.delta,
      fate: reading.deltas[i]!.fate,
    }));
    const { player, community, params, score, filter, window } = summary;
    const filterText = filter === 'none' ? 'g_k does not apply' : `the last k deltas are all ${filter}: only ${filter} deltas count (g_k)`;
    const table = renderTable(
      [{ title: '#', align: 'right' }, { title: 'line', align: 'right' }, { title: 'time' }, { title: 'delta', align: 'right' }, { title: 'fate' }],
      actions.map((a, i) => [String(i + 1), String(a.line ?? ''), a.time, formatNumber(a.delta), FATE_TEXT[a.fate]]),
    );
    return {
      json: { player, community, params, score, filter, window, actions },
      text: [
        `cqr  ${describeParams(params)}  player ${player}  community ${community}`,
        `score ${formatNumber(score)} = sum of the ${actions.filter((a) => a.fate === 'counted').length} counted deltas; ${filterText}`,
        '',
        table,
      ].join('\n'),
    };
  },
};
