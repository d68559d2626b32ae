/**
 * `standing explain cqr`: every action of the player with its delta and its fate under
 * CQR_{T,x,k} (counted, below x, opposite sign, outside the window), from the same replay the
 * ranking uses.
 */
import type { StandingEvent } from '../../events/types.js';
import { readCqr, type DeltaFate } from '../../scorers/cqr/formula.js';
import type { CqrExplanation } from '../../scorers/cqr/scorer.js';
import { formatNumber, renderTable } from '../format/table.js';
import { load } from '../load.js';
import { describeParams } from '../format/params.js';
import type { Explained, ExplainRequest } from './request.js';
import { unknownPlayer } from './request.js';

interface ExplainedAction {
  readonly line: number | undefined;
  readonly time: string;
  readonly id: string | undefined;
  readonly delta: number;
  readonly fate: DeltaFate;
}

const FATE_TEXT: Record<DeltaFate, string> = {
  counted: 'counted',
  'below-x': '|Δ| < x (f_x)',
  'opposite-sign': 'opposite sign (g_k)',
  'outside-window': 'older than the last T',
};

export async function explainCqr(request: ExplainRequest): Promise<Explained> {
  const { scorer, player: id, community: name } = request;
  const seen: { event: StandingEvent; line: number | undefined }[] = [];
  const { instances } = await load({
    scorer,
    set: request.set,
    file: request.file,
    qualityFile: request.qualityFile, now: request.now,
    observe: (event, place) => {
      if (event.type === 'action' && event.player === id && event.community === name) seen.push({ event, line: place?.line });
    },
  });
  const summary = scorer.explain(instances[0]!.state, name, id) as CqrExplanation | undefined;
  if (summary === undefined) throw unknownPlayer(request, 'actions');
  const reading = readCqr(summary.params, seen.map(({ event }) => (event.type === 'action' ? event.delta! : 0)));
  const actions: ExplainedAction[] = seen.map(({ event, line }, i) => ({
    line,
    time: new Date(event.time).toISOString(),
    id: event.id,
    delta: reading.deltas[i]!.delta,
    fate: reading.deltas[i]!.fate,
  }));
  const { player, community, params, score, filter, window } = summary;
  const filterText =
    filter === 'none' ? 'g_k does not apply' : `the last k deltas are all ${filter}: only ${filter} deltas count (g_k)`;
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
}
