/** `standing explain reliability`: the player's kept scored events (docs/spec.md §3), oldest first. */
import { formatNumber, renderTable } from '../../util/text-table.js';
import type { ExplainText } from '../module.js';
import type { ReliabilityExplanation } from './scorer.js';

/** A weight, which may be as small as a millionth (a match of length 0: docs/reliability.md#defences). */
const formatWeight = (weight: number): string => (weight > 0 && weight < 1e-3 ? weight.toExponential(2) : formatNumber(weight));

const KIND_TEXT = { finish: 'finished the match', drop: 'dropped a running match', resume: 'resumed the match' } as const;

export const reliabilityExplainText: ExplainText<ReliabilityExplanation> = {
  nothing: 'scored events',
  describe(e) {
    const events = e.events.map((event) => ({ ...event, time: new Date(event.time).toISOString() }));
    // With the defences on, a weight column and the weighted mean; without them, as the paper has it.
    const weighted = e.params.repeatWeight < 1 || e.params.minMatchMinutes > 0;
    const table = renderTable(
      [{ title: '#', align: 'right' }, { title: 'time' }, { title: 'match' }, { title: 'event' }, { title: 'value', align: 'right' }, ...(weighted ? [{ title: 'weight', align: 'right' as const }] : [])],
      events.map((event, i) => [String(i + 1), event.time, event.match, KIND_TEXT[event.kind], formatNumber(event.value), ...(weighted ? [formatWeight(event.weight ?? 1)] : [])]),
    );
    const mean = weighted
      ? `weighted mean of ${e.events.length} scored events, total weight ${formatWeight(e.confidence)}`
      : `mean of ${e.confidence} scored events`;
    return {
      json: { ...e, events },
      text: [
        `reliability  keepDays=${e.params.keepDays}  player ${e.player}  community ${e.community}`,
        `reliability ${formatNumber(e.score)} = ${mean}; band ${e.band}, bar ${formatNumber(e.bar)}`,
        '',
        table,
      ].join('\n'),
    };
  },
};
